"""The depth scan of ``temex.page.dom.parse`` on the shared pages: how many
pages it scans, whether it changes any, and what it costs next to ``parse``
(docs/ROBUSTNESS.md, *Per-page caps*).

    PYTHONPATH=src python3 bench/depth_scan.py [DATA]
"""

from __future__ import annotations

import glob
import sys
import time

from pathlib import Path

# run from a clone as written in the docs: this clone's src/ first
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from temex.errors import TemexError
from temex.page.dom import MAX_DEPTH, cap_depth, decode_html, parse


def main() -> int:
    data = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
    files = (glob.glob(data + "/sites/*/www/**/*.htm*", recursive=True)
             + glob.glob(data + "/content/*/*/*.html"))
    changed = scanned = deepest = 0
    t_scan = t_parse = 0.0
    for f in files:
        raw = open(f, "rb").read()
        text, _ = decode_html(raw)
        if text.count("<") - text.count("</") > MAX_DEPTH:
            scanned += 1
            t0 = time.perf_counter()
            out, _ = cap_depth(text)
            t_scan += time.perf_counter() - t0
            if out is not text:
                changed += 1
                print(f"changed: {f}")
        t0 = time.perf_counter()
        try:
            deepest = max(deepest, max(parse(raw).depth))
        except TemexError as e:
            print(f"error: {f}: {e}")
        t_parse += time.perf_counter() - t0
    print("| pages | scanned | changed | scan (s) | parse, scan included (s) | deepest |")
    print("|---|---|---|---|---|---|")
    print(f"| {len(files)} | {scanned} | {changed} | {t_scan:.1f} | {t_parse:.1f} | {deepest} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
