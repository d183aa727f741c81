"""Folder mode's time and memory: ``temex content DIR -o OUT`` as a whole process.

Each folder is run as ``python -m temex content DIR -o OUT -q`` in a child
process; its wall time, CPU (user + system) and peak resident memory come from
``os.wait4`` (that child's own ``rusage``, interpreter start-up included). With
``--vs OTHER_SRC`` (another tree's ``src/``, e.g. ``git worktree add
/tmp/before MAIN`` then ``--vs /tmp/before/src``) the two trees alternate
folder by folder, the order flipped each repeat, and the outputs of the two are
compared file by file (``report.json`` less its timings).

Folders (default): every content page of ``../shared/data/content`` (or
``$TEMEX_DATA/content``) as one folder (the ``.html`` files of every set;
wceb2025's ``.html.gz`` are not read by folder mode), and the largest shared
site's mirror. Any folder may be named instead.

Run: ``.venv/bin/python bench/bench_folder.py [--vs OTHER_SRC] [--repeat N] [DIR ...]``.
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

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"


def default_folders(data: Path) -> list[Path]:
    """The content sets as one folder, and the shared site with the most pages."""
    out = []
    if (data / "content").is_dir():
        out.append(data / "content")
    sites = [f for f in sorted((data / "sites").glob("*")) if (f / "site.json").is_file()]
    if sites:
        def pages(f: Path) -> int:
            return sum(1 for _ in f.rglob("*.html"))
        out.append(max(sites, key=pages))
    return out


def run_once(src: Path, folder: Path, out: Path) -> dict[str, float]:
    """One whole-process run of ``temex content`` from the tree ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "temex", "content", str(folder), "-o", str(out),
                          "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode() if p.stderr else ""
    if p.stderr:
        p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 4):
        raise SystemExit(f"temex content {folder} from {src}: exit {p.returncode}\n{err}")
    # ru_maxrss is in KiB on Linux
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024}


def outputs(out: Path) -> dict[str, bytes]:
    """Every file written, ``report.json`` less its timings."""
    files = {}
    for f in sorted(out.rglob("*")):
        if f.is_file():
            data = f.read_bytes()
            if f.name == "report.json":
                r = json.loads(data)
                r.pop("timings", None)
                data = json.dumps(r, sort_keys=True).encode()
            files[f.relative_to(out).as_posix()] = data
    return files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = os.environ.get("TEMEX_DATA") or str(HERE.parent.parent / "shared" / "data")
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--data", default=default)
    ap.add_argument("--vs", metavar="OTHER_SRC", type=Path, help="the tree to compare with")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    folders = args.folders or default_folders(Path(args.data))
    if not folders:
        print("no folders (give some, or --data)", file=sys.stderr)
        return 1
    trees = [("this", SRC)] + ([("before", args.vs)] if args.vs else [])
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    same: dict[str, bool] = {}
    tmp = Path(tempfile.mkdtemp(prefix="bench_folder_"))
    try:
        for folder in folders:
            pages = sum(1 for f in folder.rglob("*") if f.suffix.lower() in
                        (".html", ".htm", ".xhtml", ".shtml"))
            written: dict[str, dict[str, bytes]] = {}
            for r in range(args.repeat):
                order = trees if r % 2 == 0 else trees[::-1]
                for name, src in order:
                    out = tmp / f"{name}-{r}"
                    shutil.rmtree(out, ignore_errors=True)
                    m = run_once(src, folder, out)
                    m["pages"] = pages
                    rows.setdefault((str(folder), name), []).append(m)
                    written[name] = outputs(out)
                    shutil.rmtree(out, ignore_errors=True)
                    print(f"  {folder} [{name}]: {m['wall']:.1f} s, {m['rss_mb']:.0f} MB",
                          file=sys.stderr, flush=True)
            if args.vs:
                same[str(folder)] = written["this"] == written["before"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def best(folder: str, name: str, key: str) -> float:
        return min(m[key] for m in rows[(folder, name)])

    print(f"| folder | pages | tree | wall s | CPU s | CPU ms/page | peak RSS MB |"
          f"{' same output |' if args.vs else ''}")
    print(f"|---|---:|---|---:|---:|---:|---:|{'---|' if args.vs else ''}")
    for folder in map(str, folders):
        for name, _ in trees:
            n = rows[(folder, name)][0]["pages"]
            cpu = best(folder, name, "cpu")
            extra = f" {'yes' if same[folder] else 'NO'} |" if args.vs else ""
            print(f"| {folder} | {n:.0f} | {name} | {best(folder, name, 'wall'):.2f} | "
                  f"{cpu:.2f} | {1000 * cpu / max(1, n):.2f} | "
                  f"{best(folder, name, 'rss_mb'):.0f} |{extra}")
        if args.vs:
            print(f"| {folder} | | this / before | "
                  f"{best(folder, 'this', 'wall') / best(folder, 'before', 'wall'):.2f} | "
                  f"{best(folder, 'this', 'cpu') / best(folder, 'before', 'cpu'):.2f} | | "
                  f"{best(folder, 'this', 'rss_mb') / best(folder, 'before', 'rss_mb'):.2f} | |")
    return 0 if all(same.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
