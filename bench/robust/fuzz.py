"""The mutation fuzzer's command (:mod:`temex.evaluate.fuzz` says what a
case is): a bounded run that prints a Markdown summary and saves each
crashing input for tests/test_fuzz.py to replay.

    .venv/bin/python -m bench.robust.fuzz --minutes 10 [--seed 1] [--save DIR]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from temex.evaluate.fuzz import fuzz

REPO = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Mutation fuzzer of temex's library entry points")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, default=REPO / "tests" / "fuzz_crashes",
                    help="folder for crashing inputs (replayed by tests/test_fuzz.py)")
    ap.add_argument("--case-timeout", type=int, default=60, help="seconds per case (a hang)")
    ap.add_argument("--data", type=Path, default=None, help="shared data folder")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    st = fuzz(args.minutes * 60, args.seed, args.cases, args.save, args.case_timeout,
              args.data, log=True)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("| seed | cases | wall (s) | cases/s | crashes | hangs | clean errors | slowest case (s) "
          "| peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.seed} | {st.cases} | {wall:.0f} | {st.cases / max(wall, 1e-9):.1f} "
          f"| {sum(v for k, v in st.crashes.items() if k != 'hang')} | {st.crashes['hang']} "
          f"| {sum(st.errors.values())} | {st.slowest[0]:.1f} | {peak:.0f} |")
    if st.errors:
        print("\nclean errors: " + ", ".join(f"{k} {v}" for k, v in st.errors.most_common()))
    print(f"\nslowest case: {st.slowest[0]:.1f} s, {st.slowest[1]}")
    for name in st.saved:
        print(f"saved: {args.save / name}.html")
    return 1 if st.crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
