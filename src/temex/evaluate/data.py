"""Where the evaluation data is: one rule for ``temex eval``, the tests and
the bench scripts.

The data (real websites with gold, and page-level content datasets; see
README.md, "Evaluation data") is optional: temex runs without it, and only
``temex eval``, the data tests and the bench scripts read it. It is found, in
this order:

1. ``$TEMEX_DATA`` when set (taken as given, even if it is not there, so that
   a mistyped path is reported, not replaced by another folder);
2. ``../shared/data`` beside the repository (a source checkout);
3. ``shared/data`` in the current folder or one of its parents.

A folder counts in 2 and 3 when it holds ``sites/`` or ``content/``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_MISSING", "find_data"]

#: What every command says when no data folder is found (one line).
DATA_MISSING = "no data folder with sites found: give --data or set TEMEX_DATA"

#: The repository root when temex runs from a source checkout (src layout).
_REPO = Path(__file__).resolve().parents[3]


def _holds_data(folder: Path) -> bool:
    return (folder / "sites").is_dir() or (folder / "content").is_dir()


def find_data(cwd: Path | None = None) -> Path | None:
    """The evaluation data folder (module docstring), or None when there is
    none; ``cwd`` replaces the current folder (for callers that run
    elsewhere)."""
    env = os.environ.get("TEMEX_DATA")
    if env:
        given = Path(env).expanduser()
        return given.resolve() if given.is_dir() else None
    candidates = []
    if (_REPO / "pyproject.toml").is_file():
        candidates.append(_REPO.parent / "shared" / "data")
    here = (cwd or Path.cwd()).resolve()
    candidates += [p / "shared" / "data" for p in (here, *here.parents)]
    for c in candidates:
        if _holds_data(c):
            return c.resolve()
    return None
