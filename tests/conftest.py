"""Shared fixtures: where the shared test data lives, and the demo site."""

from __future__ import annotations

from pathlib import Path

import pytest

from temex.demo import DEMO_SITE
from temex.evaluate.data import find_data as _find_data

REPO = Path(__file__).resolve().parents[1]


def find_data() -> Path | None:
    """The shared data folder when it holds sites: the package's rule
    (:func:`temex.evaluate.data.find_data`: $TEMEX_DATA, else shared/data
    beside the repository or in a parent of the current folder)."""
    found = _find_data()
    return found if found is not None and (found / "sites").is_dir() else None


DATA = find_data()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if DATA is None:
        pytest.skip("shared test data not found (set TEMEX_DATA)")
    return DATA


@pytest.fixture(scope="session")
def site_dirs(data_dir: Path) -> list[Path]:
    return sorted(p for p in (data_dir / "sites").iterdir() if (p / "site.json").is_file())


@pytest.fixture(scope="session")
def demo_site() -> Path:
    return DEMO_SITE
