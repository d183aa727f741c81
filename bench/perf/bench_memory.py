"""Time and peak memory of the commands that read many pages, as whole processes.

Rows:

* ``content``: ``python -m temex content DIR -o OUT -q`` (folder mode) on every
  content page of ``$TEMEX_DATA/content`` as one
  folder (the ``.html`` files of every set; wceb2025's ``.html.gz`` are not
  read by folder mode) and on the largest shared site's mirror;
* ``crawl``: ``python -m temex crawl URL -o OUT -q --allow-private`` of that
  site's mirror served on 127.0.0.1 by this process, from its
  ``crawl_check`` start page, every page of it.

Each run is a child process; its wall time, CPU (user + system) and peak
resident memory come from ``os.wait4`` (that child's own ``rusage``,
interpreter start-up included). With ``--vs OTHER_SRC`` (another tree's
``src/``, e.g. ``git worktree add /tmp/before MAIN`` then ``--vs
/tmp/before/src``) the two trees alternate row by row, the order flipped each
repeat, and their outputs are compared file by file (``report.json`` less its
timings; the crawl's ``crawl.sqlite`` and ``summary.json`` left out: they hold
times and dates).

Run: ``.venv/bin/python -m bench.perf.bench_memory [--vs OTHER_SRC] [--repeat N] [DIR ...]``
(folders named: ``content`` rows of those folders only).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import DATA_HELP, SRC, data_dir


def largest_site(data: Path) -> Path | None:
    """The shared site with the most pages (its folder)."""
    sites = [f for f in sorted((data / "sites").glob("*")) if (f / "site.json").is_file()]
    return max(sites, key=lambda f: sum(1 for _ in f.rglob("*.html"))) if sites else None


def run_once(src: Path, argv: list[str]) -> dict[str, float]:
    """One whole-process run of ``temex ARGV`` from the tree ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "temex", *argv], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode() if p.stderr else ""
    if p.stderr:
        p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 4):
        raise SystemExit(f"temex {' '.join(argv)} from {src}: exit {p.returncode}\n{err}")
    # ru_maxrss is in KiB on Linux
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024}


def outputs(out: Path) -> dict[str, bytes]:
    """Every file written, ``report.json`` less its timings (a crawl's state
    and summary left out)."""
    files = {}
    for f in sorted(out.rglob("*")):
        if f.is_file() and f.name not in ("crawl.sqlite", "summary.json"):
            data = f.read_bytes()
            if f.name == "report.json":
                r = json.loads(data)
                r.pop("timings", None)
                data = json.dumps(r, sort_keys=True).encode()
            files[f.relative_to(out).as_posix()] = data
    return files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--data", default=None, help=DATA_HELP)
    ap.add_argument("--vs", metavar="OTHER_SRC", type=Path, help="the tree to compare with")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    data = data_dir(args.data)
    site = largest_site(data)
    jobs: list[tuple[str, str, int, Any]] = []  # (command, what, pages, argv(out) maker)
    folders = args.folders or [f for f in (data / "content", site) if f is not None and
                               f.is_dir()]
    for folder in folders:
        n = sum(1 for f in folder.rglob("*") if f.suffix.lower() in
                (".html", ".htm", ".xhtml", ".shtml"))
        jobs.append(("content", str(folder), n,
                     lambda out, folder=folder: ["content", str(folder), "-o", str(out), "-q"]))
    crawl_site = None if args.folders or site is None else site
    if not jobs and crawl_site is None:
        print("nothing to measure (give folders, or --data)", file=sys.stderr)
        return 1
    trees = [("this", SRC)] + ([("before", args.vs)] if args.vs else [])
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    same: dict[str, bool] = {}
    tmp = Path(tempfile.mkdtemp(prefix="bench_memory_"))
    from temex.evaluate import load_site
    from temex.site.sources.localserve import serve_folder
    root = load_site(crawl_site).root if crawl_site is not None else tmp
    try:
        with serve_folder(root) as base:
            if crawl_site is not None:
                meta = json.loads((crawl_site / "site.json").read_text("utf-8"))
                start = base + ((meta.get("crawl_check") or {}).get("start") or "/")
                n = sum(1 for _ in Path(root).rglob("*.html"))
                jobs.append(("crawl", crawl_site.name, n,
                             lambda out: ["crawl", start, "-o", str(out), "-q", "--allow-private",
                                          "--max-pages", str(10 * n)]))
            for command, what, n, argv in jobs:
                label = f"{command} {what}"
                written: dict[str, dict[str, bytes]] = {}
                for r in range(args.repeat):
                    for name, src in (trees if r % 2 == 0 else trees[::-1]):
                        out = tmp / f"{name}-{r}"
                        shutil.rmtree(out, ignore_errors=True)
                        m = run_once(src, argv(out))
                        m["pages"] = n
                        rows.setdefault((label, name), []).append(m)
                        written[name] = outputs(out)
                        shutil.rmtree(out, ignore_errors=True)
                        print(f"  {label} [{name}]: {m['wall']:.1f} s, {m['rss_mb']:.0f} MB",
                              file=sys.stderr, flush=True)
                if args.vs:
                    same[label] = written["this"] == written["before"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def best(label: str, name: str, key: str) -> float:
        return min(m[key] for m in rows[(label, name)])

    print(f"| command | pages | tree | wall s | CPU s | CPU ms/page | peak RSS MB |"
          f"{' same output |' if args.vs else ''}")
    print(f"|---|---:|---|---:|---:|---:|---:|{'---|' if args.vs else ''}")
    for label in dict.fromkeys(k[0] for k in rows):
        for name, _ in trees:
            n = rows[(label, name)][0]["pages"]
            cpu = best(label, name, "cpu")
            extra = f" {'yes' if same[label] else 'NO'} |" if args.vs else ""
            print(f"| {label} | {n:.0f} | {name} | {best(label, name, 'wall'):.2f} | "
                  f"{cpu:.2f} | {1000 * cpu / max(1, n):.2f} | "
                  f"{best(label, name, 'rss_mb'):.0f} |{extra}")
        if args.vs:
            print(f"| {label} | | this / before | "
                  f"{best(label, 'this', 'wall') / best(label, 'before', 'wall'):.2f} | "
                  f"{best(label, 'this', 'cpu') / best(label, 'before', 'cpu'):.2f} | | "
                  f"{best(label, 'this', 'rss_mb') / best(label, 'before', 'rss_mb'):.2f} | |")
    return 0 if all(same.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
