"""What the bench scripts share: the repository's folders and the data.

The data is found by the package's rule (:func:`temex.evaluate.data.find_data`:
``$TEMEX_DATA``, else ``shared/data`` beside the repository or in a parent of
the current folder); a script that needs it and finds none says so in one
line naming TEMEX_DATA and exits with status 2.

Nothing here imports temex at import time: a script that measures another
tree (``--vs``) puts that tree first on ``sys.path`` after importing this
module, and passes the data folder to its child processes in TEMEX_DATA.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["DATA_HELP", "REPO", "SRC", "TESTS", "data_dir"]

#: The repository root, its package sources and its tests.
REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
TESTS = REPO / "tests"

#: The ``--data`` help of every script that takes one.
DATA_HELP = "the data folder (default: $TEMEX_DATA, else shared/data beside the repository)"


def data_dir(given: str | Path | None = None) -> Path:
    """``given`` (a script's ``--data``) when set, else the data folder
    found by :func:`~temex.evaluate.data.find_data`; exits with status 2
    and the one-line message when there is none."""
    if given:
        return Path(given)
    env = os.environ.get("TEMEX_DATA")
    if env and Path(env).is_dir():  # step 1 of the rule, without importing temex
        return Path(env)
    from temex.evaluate.data import DATA_MISSING, find_data

    found = find_data()
    if found is None:
        prog = Path(sys.argv[0]).stem if sys.argv and sys.argv[0] else "bench"
        print(f"{prog}: {DATA_MISSING}", file=sys.stderr)
        raise SystemExit(2)
    return found
