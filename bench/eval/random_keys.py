"""Random key pages: node-level accuracy on pages nobody chose.

``temex eval`` scores the five key pages each shared site names in its
site.json; those pages were in view while every rule was written. A user's
key page is any page. For each shared site (``$TEMEX_DATA/sites``) this
takes ``--n`` pages at random (a fixed seed; a
page counts when the site's content selector matches it), extracts each
offline exactly as ``temex eval`` does (``temex.evaluate.evaluate_site``:
candidates from the site's folder, the default options) and prints, per
site, the pooled and mean template / content F1 and the worst page, then the
pages under 0.8 either way.

With ``--vs OTHER_SRC`` the same pages are scored by another tree too (its
``src`` folder, e.g. main's from ``git worktree add``), each tree in its own
process, and the table shows both, followed by every page whose figures
moved (docs/journal/2026-11-29-core-random-key-pages-venv-bin-python.md).

Usage: .venv/bin/python -m bench.eval.random_keys [--n 30] [--seed 1] [--sites a,b]
       [--json FILE] [--vs OTHER_SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import REPO, SRC, data_dir


def site_folders(data: Path, only: set[str]) -> list[Path]:
    return [f for f in sorted((data / "sites").iterdir())
            if (f / "site.json").is_file() and (not only or f.name in only)]


def score_pages(data: Path, n: int, seed: int, only: set[str]) -> list[dict]:
    """Per chosen page: site, page and the four node counts (tp, fp, fn, tn),
    or the error."""
    from temex.evaluate import NoGoldError, evaluate_site, gold_mask, load_site
    from temex.page.dom import parse
    from temex.page.files import html_files
    from temex.template.detectors import ExtractOptions

    rows = []
    for folder in site_folders(data, only):
        site = load_site(folder)
        files = html_files(site.root)
        random.Random(seed).shuffle(files)
        keys: list[str] = []
        for f in files:
            if len(keys) >= n:
                break
            try:
                gold_mask(parse(f.read_bytes(), url=str(f)), site.content_selector,
                          site.template_selector)
            except (NoGoldError, ValueError, OSError):
                continue
            keys.append("/" + f.relative_to(site.root).as_posix())
        for r in evaluate_site(site, ExtractOptions(), key_pages=keys):
            s = r.scores
            rows.append({"site": site.name, "page": r.key_page, "error": r.error,
                         "counts": None if s is None else [s.tp, s.fp, s.fn, s.tn]})
    return rows


def f1s(counts: list[int]) -> tuple[float, float]:
    from temex.evaluate import Scores

    s = Scores(*counts)
    return s.template[2], s.content[2]


def site_line(rows: list[dict]) -> tuple[str, str, str]:
    """Pooled and mean F1 (template / content) of one site's pages, and its
    worst page."""
    from temex.evaluate import Scores

    ok = [r for r in rows if r["counts"] is not None]
    if not ok:
        return "-", "-", "-"
    pooled = Scores(0, 0, 0, 0)
    for r in ok:
        pooled = pooled + Scores(*r["counts"])
    pairs = [f1s(r["counts"]) for r in ok]
    mean_t = sum(p[0] for p in pairs) / len(pairs)
    mean_c = sum(p[1] for p in pairs) / len(pairs)
    worst = min(ok, key=lambda r: min(f1s(r["counts"])))
    wt, wc = f1s(worst["counts"])
    return (f"{pooled.template[2]:.3f} / {pooled.content[2]:.3f}",
            f"{mean_t:.3f} / {mean_c:.3f}", f"`{worst['page']}` {wt:.3f} / {wc:.3f}")


def run_other(src: str, args: argparse.Namespace, data: Path) -> list[dict]:
    """The same pages scored by the tree whose ``src`` is ``src``, in a child
    process."""
    with tempfile.TemporaryDirectory(prefix="temex-random-keys-") as tmp:
        out = Path(tmp) / "rows.json"
        cmd = [sys.executable, "-m", "bench.eval.random_keys", "--n", str(args.n),
               "--seed", str(args.seed), "--json", str(out), "--quiet", "--data", str(data)]
        if args.sites:
            cmd += ["--sites", args.sites]
        env = dict(os.environ, TEMEX_BENCH_SRC=str(Path(src).resolve()))
        subprocess.run(cmd, env=env, check=True, cwd=REPO)
        return json.loads(out.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=30, help="pages per site (default 30)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sites", default="", help="comma-separated site names (default all)")
    ap.add_argument("--data", default="", help="the shared data folder")
    ap.add_argument("--json", default="", help="write every page's counts to this file")
    ap.add_argument("--vs", default="", metavar="OTHER_SRC",
                    help="score the same pages with another tree's src too")
    ap.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, os.environ.get("TEMEX_BENCH_SRC") or str(SRC))
    data = data_dir(args.data)
    only = {s for s in args.sites.split(",") if s}
    rows = score_pages(data, args.n, args.seed, only)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if args.quiet:
        return 0
    before = run_other(args.vs, args, data) if args.vs else None
    by_site: dict[str, list[dict]] = {}
    for r in rows:
        by_site.setdefault(r["site"], []).append(r)
    old_site: dict[str, list[dict]] = {}
    for r in before or []:
        old_site.setdefault(r["site"], []).append(r)
    print(f"Random key pages: {args.n} per site (seed {args.seed}), offline, default options; "
          "F1 template / content.\n")
    if before is None:
        print("| site | pages | pooled | mean | worst page |\n|---|---:|---|---|---|")
        for name, rs in by_site.items():
            pooled, mean, worst = site_line(rs)
            print(f"| {name} | {len(rs)} | {pooled} | {mean} | {worst} |")
    else:
        print("| site | pages | before: pooled | after: pooled | before: mean | after: mean |\n"
              "|---|---:|---|---|---|---|")
        for name, rs in by_site.items():
            pb, mb, _ = site_line(old_site.get(name, []))
            pa, ma, _ = site_line(rs)
            print(f"| {name} | {len(rs)} | {pb} | {pa} | {mb} | {ma} |")
    errors = [r for r in rows if r["counts"] is None]
    low = [(r, f1s(r["counts"])) for r in rows if r["counts"] is not None]
    low = [(r, f) for r, f in low if min(f) < 0.8]
    print(f"\nPages under 0.8 either way: {len(low)} of {len(rows)}; errors: {len(errors)}")
    for r, (t, c) in sorted(low, key=lambda x: min(x[1])):
        print(f"- {r['site']} `{r['page']}` {t:.3f} / {c:.3f}")
    for r in errors:
        print(f"- {r['site']} `{r['page']}` error: {r['error']}")
    if before is not None:
        old = {(r["site"], r["page"]): r for r in before}
        moved = []
        for r in rows:
            o = old.get((r["site"], r["page"]))
            if o is None or o["counts"] == r["counts"]:
                continue
            a = f1s(r["counts"]) if r["counts"] else (0.0, 0.0)
            b = f1s(o["counts"]) if o["counts"] else (0.0, 0.0)
            moved.append((r, b, a))
        up = sum(1 for _, b, a in moved if sum(a) > sum(b))
        print(f"\nPages moved: {len(moved)} ({up} up, {len(moved) - up} down)")
        for r, b, a in moved:
            print(f"- {r['site']} `{r['page']}` {b[0]:.3f} / {b[1]:.3f} -> {a[0]:.3f} / {a[1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
