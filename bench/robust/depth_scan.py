"""The depth scan of ``temex.page.dom.parse`` on the shared pages: how many
pages it scans, whether it changes any, and what it costs next to ``parse``
(docs/ROBUSTNESS.md, *Per-page caps*). "Possible" pages have more ``<`` than
``</`` by over the cap (the scan ran on all of them before the counted-tag
bound); "not proven shallow" pages are those whose counted-tag bound
(:func:`~temex.page.caps.counted_bound`) still exceeds the cap (the scan ran on
all of them before parse-first); of those, the pages parsed first have their
tree checked (``_deeper_than``) and are scanned only when it is too deep.
CPU seconds.

    .venv/bin/python -m bench.robust.depth_scan [DATA]
"""

from __future__ import annotations

import glob
import sys
import time

from selectolax.lexbor import LexborHTMLParser

from bench.common import data_dir
from temex.errors import TemexError
from temex.page.caps import (
    DEFAULT_MAX_ELEMENTS,
    MAX_DEPTH,
    _deeper_than,
    _needs_scan,
    _parse_first,
    cap_depth,
    counted_bound,
)
from temex.page.dom import decode_html, parse


def main() -> int:
    data = str(data_dir(sys.argv[1] if len(sys.argv) > 1 else None))
    files = (glob.glob(data + "/sites/*/www/**/*.htm*", recursive=True)
             + glob.glob(data + "/content/*/*/*.html"))
    possible = changed = scanned = deepest = first = again = 0
    t_bound = t_scan = t_scan_all = t_parse = t_lexbor = t_check = 0.0
    clock = time.process_time
    for f in files:
        raw = open(f, "rb").read()
        text, _ = decode_html(raw)
        t0 = clock()
        LexborHTMLParser(text)
        t_lexbor += clock() - t0
        if text.count("<") - text.count("</") > MAX_DEPTH:
            possible += 1
            t0 = clock()
            counted_bound(text)
            t_bound += clock() - t0
            t0 = clock()
            out, _ = cap_depth(text)
            t = clock() - t0
            t_scan_all += t
            if _needs_scan(text, MAX_DEPTH, DEFAULT_MAX_ELEMENTS):
                scanned += 1
                t_scan += t
                if _parse_first(text, MAX_DEPTH, DEFAULT_MAX_ELEMENTS):
                    first += 1
                    tree = LexborHTMLParser(text)
                    t0 = clock()
                    deep = _deeper_than(tree, MAX_DEPTH + 1)
                    t_check += clock() - t0
                    again += deep
            if out is not text:
                changed += 1
                print(f"changed: {f}")
        t0 = clock()
        try:
            deepest = max(deepest, max(parse(raw).depth))
        except TemexError as e:
            print(f"error: {f}: {e}")
        t_parse += clock() - t0
    print("| pages | possible | not proven shallow | of those parsed first (tree checked) "
          "| checked too deep | changed by the scan | Lexbor parse (s) | bound (s) "
          "| scan of those not proven shallow (s) | tree check of those parsed first (s) "
          "| scan of all possible (s) | parse (s) | deepest |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {len(files)} | {possible} | {scanned} | {first} | {again} | {changed} "
          f"| {t_lexbor:.2f} | {t_bound:.2f} | {t_scan:.2f} | {t_check:.2f} | {t_scan_all:.2f} "
          f"| {t_parse:.2f} | {deepest} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
