"""Batch scaling over workers: one 1,000-page site and many small
sites, ``temex batch`` on the local pool and on Dask with 1, 2, ... workers.

The collection is built from shared pages: one big site (the pages of one
big9 site copied until ``--big`` pages, each copy a new file) plus the small
sites of big9, CleanPortalEval and Dragnet. Prints wall seconds, pages/s and
the speed-up over 1 worker; ``--chunk`` sets the records per task of the big
site (``--chunk 0``: one task per site, as before big sites were split).

Run: ``.venv/bin/python -m bench.perf.bench_scaling [--workers 1 2 4] [--engines local dask]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench.common import data_dir
from temex.batch.pipeline import BatchOptions, run_batch

HERE = Path(__file__).resolve().parent


def cpu_all() -> float:
    """CPU seconds of this process and of its finished child processes."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + r.ru_utime + r.ru_stime


def build(root: Path, data: Path, big: int, small: bool) -> list[str]:
    site = data / "content" / "big9" / "bbc"
    pages = sorted(site.glob("*.html"))
    dst = root / "big" / "bbc"
    dst.mkdir(parents=True)
    for k in range(big):
        shutil.copy(pages[k % len(pages)], dst / f"p{k:05d}.html")
    inputs = [str(root / "big")]
    if small:
        for ds in ("big9", "cleanportaleval", "dragnet"):
            inputs.append(str(data / "content" / ds))
    return inputs


def largest(out: Path) -> float:
    """The biggest task's share of all task seconds (done-markers; a chunked
    site counts its biggest chunk): the bound on what more workers can gain."""
    import json

    tasks = []
    for f in (out / "done").glob("*.json"):
        d = json.loads(f.read_text())
        k = max(1, int(d.get("parts", 1)))
        tasks.extend([d["seconds"] / k] * k)  # parts: the mean chunk
    return 100 * max(tasks) / sum(tasks) if tasks and sum(tasks) else 0.0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--engines", nargs="+", default=["local", "dask"],
                    help="local, dask (a LocalCluster per run, started on the clock) or "
                         "dask-running (--scheduler of a cluster started before)")
    ap.add_argument("--big", type=int, default=1000)
    ap.add_argument("--chunk", type=int, default=200)
    ap.add_argument("--no-small", action="store_true", help="the big site only")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="temex-scale-"))
    try:
        inputs = build(tmp / "in", data_dir(), args.big, not args.no_small)
        print(f"Collection: one site of {args.big} pages"
              + ("" if args.no_small else " + big9, CleanPortalEval, Dragnet")
              + f"; chunk {args.chunk or 'off'}; {os.cpu_count()} CPUs.\n")
        print("| engine | workers | pages | wall s | CPU s (all processes) | pages/s | "
              "speed-up (wall) | largest task, % of task seconds |")
        print("|---|---|---|---|---|---|---|---|")
        for engine in args.engines:
            base = None
            for w in args.workers:
                out = tmp / f"out-{engine}-{w}"
                opt = BatchOptions(chunk=args.chunk or 10**9)
                cluster = None
                if engine == "dask-running":  # a cluster started before the clock runs
                    from distributed import LocalCluster

                    cluster = LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
                t0, c0 = time.perf_counter(), cpu_all()
                s = run_batch(inputs, out, opt, engine="dask" if cluster else engine, workers=w,
                              scheduler=cluster.scheduler_address if cluster else None,
                              progress=False)
                wall, secs = time.perf_counter() - t0, cpu_all() - c0
                if cluster is not None:
                    cluster.close()
                    secs = float("nan")  # the workers' CPU is not ours to count
                base = base or wall
                print(f"| {engine} | {w} | {s['pages']} | {wall:.1f} | {secs:.1f} | "
                      f"{s['pages'] / wall:.1f} | {base / wall:.2f} | {largest(out):.0f} |",
                      flush=True)
                shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
