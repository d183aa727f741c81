"""Shared fixtures: where the shared test data lives, the demo site, and the
page reader each test of the layers with compiled twins runs on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from temex.demo import DEMO_SITE
from temex.evaluate.data import find_data as _find_data
from temex.page import kernel

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


#: The test modules of the layers whose functions have compiled twins
#: (``temex.page.kernel.TWINS``): each of their tests runs twice in one run,
#: on the compiled kernel (``[kernel]``) and on the pure-Python path
#: (``[pure]``), as networkx runs its tests on each backend, so that the
#: suite, not a few comparisons, checks that both paths agree. On an install
#: without the kernel (or with ``TEMEX_KERNEL=0``) they run once, ``[pure]``.
#: ``-k "not pure"`` or ``-k "not kernel"`` picks one path. The ``slow``
#: tests run once, on whichever path runs: .ci/run runs them on a kernel
#: install and on a pure one (twice here they would double the slow run's
#: time: the sweeps and the training checks on the pure path add 4 minutes).
BOTH_PATHS = frozenset({"test_dom", "test_mapping", "test_saved", "test_markdown",
                        "test_content", "test_scorer", "test_decision", "test_properties"})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if (metafunc.definition.path.stem in BOTH_PATHS
            and metafunc.definition.get_closest_marker("slow") is None):
        paths = ["kernel", "pure"] if kernel.get() is not None else ["pure"]
        metafunc.parametrize("page_reader", paths, indirect=True)


@pytest.fixture(autouse=True)
def page_reader(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The path a test of :data:`BOTH_PATHS` runs on; on ``pure`` the kernel
    is off as ``TEMEX_KERNEL=0`` turns it off, in this process (the loader's
    state) and in the processes a test starts (the environment). None for
    the other tests: whichever path runs."""
    path: str | None = getattr(request, "param", None)
    if path != "pure":
        yield path
        return
    with pytest.MonkeyPatch.context() as m:
        m.setattr(kernel, "_state", (None, "compiled kernel off (tests/conftest.py): "
                                           "pure-Python path"))
        m.setenv("TEMEX_KERNEL", "0")
        yield path
