"""Shared fixtures: where the shared test data lives, and the demo site."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from temex.demo import DEMO_SITE

REPO = Path(__file__).resolve().parents[1]


def find_data() -> Path | None:
    """The shared data folder: $TEMEX_DATA, else ../shared/data beside the repo."""
    env = os.environ.get("TEMEX_DATA")
    for c in ([Path(env)] if env else []) + [REPO.parent / "shared" / "data",
                                             Path("/work/shared/data")]:
        if (c / "sites").is_dir():
            return c
    return None


DATA = find_data()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if DATA is None:
        pytest.skip("shared test data not found (set TEMEX_DATA or put it at ../shared/data)")
    return DATA


@pytest.fixture(scope="session")
def site_dirs(data_dir: Path) -> list[Path]:
    return sorted(p for p in (data_dir / "sites").iterdir() if (p / "site.json").is_file())


@pytest.fixture(scope="session")
def demo_site() -> Path:
    return DEMO_SITE
