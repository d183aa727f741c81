"""The mutation fuzzer (temex.evaluate.fuzz): a short seeded run over real shared
pages, and every saved crashing input (tests/fuzz_crashes/) replayed.

A saved input is a key page ``<kind>-<hash>.html``, its candidates
``<kind>-<hash>.candN.html`` and ``<kind>-<hash>.txt`` (detector number and
the traceback it had). Each must now end with a result or a TemexError.
The long run: ``.venv/bin/python -m bench.robust.fuzz --minutes 10``
(docs/ROBUSTNESS.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from temex.evaluate import fuzz

CRASHES = Path(__file__).with_name("fuzz_crashes")
SAVED = sorted(p for p in CRASHES.glob("*.html") if ".cand" not in p.name)


@pytest.mark.timeout(240)
def test_short_fuzz_run_finds_no_crash(tmp_path: Path) -> None:
    st = fuzz.fuzz(seconds=8, seed=13, save=tmp_path, case_timeout=60)
    assert st.cases >= 3
    crashes = {k: v for k, v in st.crashes.items() if k != "hang"}  # hangs: load-dependent
    assert not crashes, (crashes, [p.read_text()[-1500:] for p in tmp_path.glob("*.txt")])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("path", SAVED, ids=[p.stem for p in SAVED])
def test_saved_fuzz_input_no_longer_crashes(path: Path) -> None:
    key = path.read_bytes()
    others = [p.read_bytes() for p in sorted(CRASHES.glob(path.stem + ".cand*.html"))]
    which = int(path.with_suffix(".txt").read_text().split()[1])
    fuzz.run_case(key, others, which)  # a result or a TemexError, nothing else
