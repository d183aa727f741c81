"""``temex.parse`` of this clone against another tree's ``page/dom.py``, side
by side in one run, as ratios to the Lexbor parse of the same pages (CPU
seconds, each page timed interleaved, minimum of 3 passes; the pages of
``bench_speed.py``: big9, cleanportaleval and dragnet). For "before" figures
without a second checkout of the whole tree (docs/EVALUATION.md):

    git show main:src/temex/page/dom.py > /tmp/dom_before.py
    .venv/bin/python -m bench.perf.parse_vs /tmp/dom_before.py [DATA]

Since ``page/dom.py`` was split (the Document, decoding, caps and the
builder in modules of their own), the other ``dom.py`` imports those parts
from this tree: only a change to ``dom.py`` itself is compared; for a
change to the parts, compare whole trees (``bench_speed.py`` in each).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from bench.common import data_dir
from temex.page import dom


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("other", help="another tree's src/temex/page/dom.py")
    ap.add_argument("data", nargs="?", type=Path, help="the shared data (default: as the CLI)")
    args = ap.parse_args()
    other = args.other
    data = data_dir(args.data)
    # loaded as a module of the package, so its relative imports resolve here
    spec = importlib.util.spec_from_file_location("temex.page._dom_other", other)
    assert spec is not None and spec.loader is not None
    old = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = old
    spec.loader.exec_module(old)
    files = sorted(f for d in ("big9", "cleanportaleval", "dragnet")
                   for f in (data / "content" / d).glob("*/*.html"))
    raws = [f.read_bytes() for f in files]
    clock = time.process_time
    best = {k: [float("inf")] * len(raws) for k in ("lexbor", "other", "this")}
    for _ in range(3):
        for k, raw in enumerate(raws):
            text, _ = dom.decode_html(raw)
            for name, fn, arg in (("lexbor", LexborHTMLParser, text), ("other", old.parse, raw),
                                  ("this", dom.parse, raw)):
                t = clock()
                fn(arg)
                best[name][k] = min(best[name][k], clock() - t)
    unit = sum(best["lexbor"])
    print(f"{len(raws)} pages; Lexbor parse {1000 * unit / len(raws):.2f} ms/page")
    print("| tree | ms/page | x Lexbor parse |\n|---|---|---|")
    for name, label in (("other", other), ("this", "this clone")):
        s = sum(best[name])
        print(f"| {label} | {1000 * s / len(raws):.2f} | {s / unit:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
