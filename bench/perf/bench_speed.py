"""Speed of every temex path as a ratio to the Lexbor parse of the same pages,
measured side by side in one run.

Pages: the content datasets big9, CleanPortalEval and Dragnet of
``$TEMEX_DATA/content``; the batch rows run on
every content page (CleanEval included) copied twice. Times are CPU seconds
(``time.process_time``; child processes through ``getrusage``), so a shared,
busy machine changes them less than wall time; the ratio column is what to
compare across runs and machines. Each in-process path is timed page by page,
interleaved with the Lexbor parse of the same page, minimum of ``--repeat``
passes.

Rows:

* Lexbor parse: ``LexborHTMLParser(text)`` of the decoded page (the unit).
* ``temex.parse``: bytes to :class:`~temex.page.dom.Document` (decoding included).
* old builder: the builder before the one-pass builder (``tests/_reference_dom.py``), same bytes.
* page content: ``parse`` + :func:`temex.content.extract.extract_content` + text.
* fitted-site content: ``parse`` + :func:`temex.content.extract.main_content`
  under the site's saved template (fitted on its first 5 pages, with the site
  index, as ``bench_batch`` does) + text.
* batch -j 1 / -j 2: :func:`temex.batch.pipeline.run_batch` end to end (index,
  cluster, fit, strip, write) over the content pages copied twice; CPU of all
  processes; pages/s per core = pages / CPU seconds. "Whole process": the same
  ``-j 1`` run as ``python -m temex batch ... -j 1`` in a child process, its CPU
  from ``getrusage`` (interpreter start-up and imports included).
* extract: :func:`temex.api.extract_files` (key page + ``--pages-dir``) on the
  first page of each big9 site; ratio to the Lexbor parse of the key page.
* start-up: ``temex --help`` in a fresh interpreter (CPU of the child).

Run: ``.venv/bin/python -m bench.perf.bench_speed`` (``--quick`` for a subset;
``--no-batch`` to skip the batch rows). Works on older trees too (the "before"
column of docs/EVALUATION.md was taken on main with the same script).

Before and after in one run: ``--vs OTHER_SRC`` (another tree's ``src/``,
e.g. ``git worktree add /tmp/before MAIN`` then ``--vs /tmp/before/src``)
starts one worker process per tree and interleaves them site by site (the
order flipped every site; batch and start-up rows alternate too); each
tree's ratios are to the Lexbor parse timed by its own worker on the same
pages, and the ``after / before`` column compares the two trees directly.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from bench.common import REPO, SRC, TESTS, data_dir

# tests/ for the reference DOM builder; a --vs worker measures the tree named
# by _TREE_ENV (this clone's src/ otherwise)
_TREE_ENV = "TEMEX_BENCH_TREE"
sys.path.insert(0, str(TESTS))
sys.path.insert(0, os.environ.get(_TREE_ENV) or str(SRC))

from temex.content.extract import extract_content, main_content
from temex.page.dom import decode_html, parse
from temex.page.files import unusable
from temex.template.detectors.vote import VoteDetector
from temex.template.saved import SavedTemplate
from temex.template.site_index import SiteIndex

try:  # the pre-issue-11 builder, for the side-by-side "old builder" row
    from _reference_dom import reference_flatten
except ImportError:  # pragma: no cover - tree without it
    reference_flatten = None

DATASETS = ("big9", "cleanportaleval", "dragnet")


def cpu() -> float:
    return time.process_time()


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sites(data: Path, quick: bool) -> list[list[Path]]:
    out = []
    for ds in DATASETS:
        for site in sorted(p for p in (data / "content" / ds).iterdir() if p.is_dir()):
            files = sorted(site.glob("*.html"))
            if files:
                out.append(files[:6] if quick else files)
    return out


def lexbor(raw: bytes) -> float:
    text = decode_html(raw)[0]
    t0 = cpu()
    LexborHTMLParser(text)
    return cpu() - t0


def timed(fn, raw: bytes) -> float:  # type: ignore[no-untyped-def]
    t0 = cpu()
    fn(raw)
    return cpu() - t0


def old_parse(raw: bytes) -> None:
    root = LexborHTMLParser(decode_html(raw)[0]).root
    assert root is not None and reference_flatten is not None
    reference_flatten(root)


def page_paths(all_sites: list[list[Path]], repeat: int) -> dict[str, tuple[float, float, int]]:
    """{row: (seconds of the path, seconds of Lexbor on the same pages, pages)}."""
    rows: dict[str, list[float]] = {}
    n = 0

    def add(name: str, t: float, base: float) -> None:
        r = rows.setdefault(name, [0.0, 0.0])
        r[0] += t
        r[1] += base

    for files in all_sites:
        blobs = [f.read_bytes() for f in files]
        docs = [parse(b) for b in blobs[:5]]
        docs = [d for d in docs if not unusable(d)]
        saved = None
        if len(docs) >= 2:
            saved = SavedTemplate.from_models([VoteDetector().fit(docs[0], docs[1:5]).model_])
            saved.site_index = SiteIndex(docs, hashed=True)
        for raw in blobs:
            paths = {"temex.parse": lambda b: parse(b),
                     "page content (parse + extract_content + text)":
                         lambda b: extract_content(parse(b)).text()}
            if reference_flatten is not None:
                paths["old builder (before the one-pass builder)"] = old_parse
            if saved is not None:
                paths["fitted-site content (parse + main_content + text)"] = \
                    lambda b, s=saved: main_content(s, parse(b)).text()
            base = min(lexbor(raw) for _ in range(repeat))
            add("Lexbor parse", base, base)
            for name, fn in paths.items():
                add(name, min(timed(fn, raw) for _ in range(repeat)), base)
            n += 1
    return {k: (v[0], v[1], n) for k, v in rows.items()}


def batch_rows(data: Path, quick: bool, workers: tuple[int, ...] = (1, 2)
               ) -> list[tuple[str, float, float, int, float]]:
    """(row, CPU seconds, Lexbor seconds of the same pages, pages, peak RSS MB)."""
    from temex.batch.pipeline import BatchOptions, run_batch

    tmp = Path(tempfile.mkdtemp(prefix="temex-speed-"))
    try:
        inputs = []
        for copy in ("a", "b"):
            root = tmp / "in" / copy
            for ds in ("big9", "cleanportaleval", "dragnet", "cleaneval"):
                src = data / "content" / ds
                if not src.is_dir():
                    continue
                for site in sorted(p for p in src.iterdir() if p.is_dir())[:3 if quick else None]:
                    dst = root / ds / site.name
                    dst.mkdir(parents=True)
                    for f in site.glob("*.html"):
                        shutil.copy(f, dst / f.name)
            inputs.extend(str(p) for p in sorted(root.iterdir()))
        pages = sorted((tmp / "in").rglob("*.html"))
        base = sum(lexbor(p.read_bytes()) for p in pages)
        out = []
        for w in workers:
            dst = tmp / f"out{w}"
            c0, k0, t0 = cpu(), children_cpu(), time.perf_counter()
            s = run_batch(inputs, dst, BatchOptions(), workers=w, progress=False)
            secs = (cpu() - c0) + (children_cpu() - k0)
            wall = time.perf_counter() - t0
            out.append((f"`temex batch -j {w}` ({s['pages']} pages, wall {wall:.1f} s)",
                        secs, base, len(pages), float(s["worker_peak_rss_mb"])))
            if w == 1:  # the same run through the CLI: start-up and imports included
                import temex

                env = dict(os.environ)
                env["PYTHONPATH"] = str(Path(temex.__file__).resolve().parents[1])
                k0 = children_cpu()
                subprocess.run([sys.executable, "-m", "temex", "batch", *inputs, "-o",
                                str(tmp / "cli1"), "-j", "1", "-q"], env=env, check=True)
                secs = children_cpu() - k0
                summary = json.loads((tmp / "cli1" / "summary.json").read_text())
                out.append((f"`temex batch -j 1`, whole process ({summary['pages']} pages)",
                            secs, base, len(pages), float(summary["worker_peak_rss_mb"])))
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def extract_rows(data: Path, repeat: int) -> tuple[float, float, int]:
    from temex.api import extract_files

    t = b = 0.0
    n = 0
    for site in sorted(p for p in (data / "content" / "big9").iterdir() if p.is_dir()):
        files = sorted(site.glob("*.html"))
        if len(files) < 3:
            continue
        key = files[0]
        b += min(lexbor(key.read_bytes()) for _ in range(repeat))
        best = float("inf")
        for _ in range(repeat):
            t0 = cpu()
            extract_files(str(key), pages_dir=str(site))
            best = min(best, cpu() - t0)
        t += best
        n += 1
    return t, b, n


def startup(repeat: int) -> tuple[float, float]:
    """CPU seconds of ``temex --help`` and of an empty interpreter, min of repeat."""
    env = dict(os.environ)
    import temex

    src = str(Path(temex.__file__).resolve().parents[1])  # the tree being measured
    env["PYTHONPATH"] = os.pathsep.join(p for p in [src,
                                                    env.get("PYTHONPATH", "")] if p)

    def run(args: list[str]) -> float:
        best = float("inf")
        for _ in range(repeat):
            k0 = children_cpu()
            subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL,
                           check=True)
            best = min(best, children_cpu() - k0)
        return best

    return run(["-m", "temex", "--help"]), run(["-c", "pass"])


def worker(args: argparse.Namespace) -> int:
    """``--worker``: answer timing requests on stdin, one JSON line each, for
    the tree on ``sys.path`` (``--vs`` runs one worker per tree and
    interleaves their requests)."""
    data = data_dir()
    all_sites = sites(data, args.quick)
    for line in sys.stdin:
        cmd = line.split()
        out: Any
        if cmd[0] == "site":
            out = page_paths([all_sites[int(cmd[1])]], args.repeat)
        elif cmd[0] == "extract":
            out = extract_rows(data, args.repeat)
        elif cmd[0] == "batch":
            out = batch_rows(data, args.quick, workers=(int(cmd[1]),))
        elif cmd[0] == "startup":
            out = startup(max(3, args.repeat))
        else:
            out = None
        print(json.dumps(out), flush=True)
    return 0


def side_by_side(args: argparse.Namespace) -> int:
    """``--vs OTHER_SRC``: every row for the other tree ("before") and this
    one ("after") in one run: two worker processes, requests interleaved site
    by site (the order flipped every site), each tree's times as ratios to
    the Lexbor parse it timed itself on the same pages."""
    trees = {"before": str(Path(args.vs).resolve()), "after": str(SRC)}
    procs = {}
    for name, tree in trees.items():
        env = dict(os.environ, TEMEX_DATA=str(data_dir()))
        env[_TREE_ENV] = tree
        cmd = [sys.executable, "-m", "bench.perf.bench_speed", "--worker",
               "--repeat", str(args.repeat)] + (["--quick"] if args.quick else [])
        procs[name] = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, cwd=REPO,
                                       stdout=subprocess.PIPE, text=True)

    def ask(name: str, request: str) -> Any:
        p = procs[name]
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write(request + "\n")
        p.stdin.flush()
        return json.loads(p.stdout.readline())

    order = ["before", "after"]
    rows: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for k in range(len(sites(data_dir(), args.quick)) if _want(args, "pages") else 0):
        for name in order:
            for row, (t, base, n) in ask(name, f"site {k}").items():
                acc = rows[name].setdefault(row, [0.0, 0.0, 0])
                acc[0] += t
                acc[1] += base
                acc[2] += n
        order.reverse()
    extract = ({name: ask(name, "extract") for name in ("before", "after")}
               if _want(args, "extract") else {"before": (0, 0, 0), "after": (0, 0, 0)})
    batch: dict[str, list[Any]] = {"before": [], "after": []}
    if not args.no_batch and _want(args, "batch"):
        for w in args.workers:
            for name in ("before", "after") if w == 1 else ("after", "before"):
                batch[name] += ask(name, f"batch {w}")
    start = ({name: ask(name, "startup") for name in ("after", "before")}
             if _want(args, "startup") else {})
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    if "Lexbor parse" in rows["after"]:
        n = int(rows["after"]["Lexbor parse"][2])
        print(f"Pages: {n} ({', '.join(DATASETS)}); before = {trees['before']}, after = "
              f"{trees['after']}; Lexbor parse "
              f"{1000 * rows['before']['Lexbor parse'][0] / n:.2f} / "
              f"{1000 * rows['after']['Lexbor parse'][0] / n:.2f} ms/page (before / after run).\n")
    else:
        print(f"before = {trees['before']}, after = {trees['after']}\n")
    print("| path | before: ms/page | before: x Lexbor | after: ms/page | after: x Lexbor "
          "| after / before | after: pages/s per core |")
    print("|---|---|---|---|---|---|---|")
    for row in rows["after"]:
        if row not in rows["before"]:
            continue
        (tb, bb, nb), (ta, ba, na) = rows["before"][row], rows["after"][row]
        print(f"| {row} | {1000 * tb / nb:.2f} | {tb / bb:.2f} | {1000 * ta / na:.2f} | "
              f"{ta / ba:.2f} | {ta / tb:.2f} | {na / ta:.0f} |")
    (tb, bb, kb), (ta, ba, ka) = extract["before"], extract["after"]
    if ka and kb:
        print(f"| `extract_files` key page + `--pages-dir` (big9, {ka} sites; x Lexbor parse "
              f"of the key page) | {1000 * tb / kb:.1f} | {tb / bb:.1f} | {1000 * ta / ka:.1f} | "
              f"{ta / ba:.1f} | {ta / tb:.2f} | |")
    for (name_b, sb, bb, pb, rb), (_, sa, ba, pa, ra) in zip(batch["before"], batch["after"]):
        label = name_b.split(" (")[0]
        print(f"| {label} ({pa} pages; worker peak RSS {rb:.0f} / {ra:.0f} MB) | "
              f"{1000 * sb / pb:.2f} | {sb / bb:.2f} | {1000 * sa / pa:.2f} | {sa / ba:.2f} | "
              f"{sa / sb:.2f} | {pa / sa:.0f} |")
    if start:
        (hb, _), (ha, ea) = start["before"], start["after"]
        print(f"| `temex --help` CPU ms (`python -c pass`: {1000 * ea:.0f} ms) | {1000 * hb:.0f} "
              f"| | {1000 * ha:.0f} | | {ha / hb:.2f} | |")
    return 0


def _want(args: argparse.Namespace, group: str) -> bool:
    return not args.only or group in args.only


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="6 pages per site, 3 sites per batch set")
    ap.add_argument("--repeat", type=int, default=3, help="passes per page (minimum kept)")
    ap.add_argument("--no-batch", action="store_true")
    ap.add_argument("--only", action="append", choices=("pages", "extract", "batch", "startup"),
                    help="with --vs: only these groups of rows (repeat the flag for more)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                    help="with --vs: the batch rows' worker counts (default 1 2)")
    ap.add_argument("--vs", metavar="OTHER_SRC",
                    help="another tree's src/ folder: every row for it and for this tree in "
                         "one run, interleaved (before/after columns)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    if args.vs:
        return side_by_side(args)
    data = data_dir()
    all_sites = sites(data, args.quick)
    rows = page_paths(all_sites, args.repeat)
    peak_pages = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    n = rows["Lexbor parse"][2]
    unit = rows["Lexbor parse"][0] / n
    print(f"Pages: {n} ({', '.join(DATASETS)}); Lexbor parse {1000 * unit:.2f} ms/page "
          f"in this run; peak RSS of this process {peak_pages:.0f} MB.\n")
    print("| path | ms/page | x Lexbor parse (same pages) | pages/s per core |")
    print("|---|---|---|---|")
    for name, (t, base, k) in rows.items():
        print(f"| {name} | {1000 * t / k:.2f} | {t / base:.2f} | {k / t:.0f} |")
    t, b, k = extract_rows(data, args.repeat)
    if k:
        print(f"| `extract_files` key page + `--pages-dir` (big9, {k} sites; x Lexbor parse "
              f"of the key page) | {1000 * t / k:.1f} | {t / b:.1f} | |")
    if not args.no_batch:
        for name, secs, base, pages, rss in batch_rows(data, args.quick):
            print(f"| {name}; worker peak RSS {rss:.0f} MB | {1000 * secs / pages:.2f} | "
                  f"{secs / base:.2f} | {pages / secs:.0f} |")
    help_cpu, empty = startup(max(3, args.repeat))
    print(f"| `temex --help` (fresh interpreter; `python -c pass` {1000 * empty:.0f} ms) | "
          f"{1000 * help_cpu:.0f} | {help_cpu / unit:.0f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
