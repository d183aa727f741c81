"""The site level without a template mask (``ContentParams.site_page``).

    .venv/bin/python -m bench.eval.bench_site_page --cv-models FOLDS.json [--data DIR]

With a site index of 2 or more other pages (folder mode, ``temex content DIR``)
the site level chooses from two lists of blocks: the page level's (the scorer,
page model) less the blocks whose text repeats on the site's other pages, and
the rules' with site evidence. The page level's is kept unless it holds less
than ``x`` of the characters of the rules'; then both together
(:func:`temex.content.extract.site_page_blocks`). ``x`` = 0 is the rules alone
(as before the site level read the page scorer).

Groups: the four content datasets (the site index of each site folder, as
``bench_content.py``; the page level by the grouped-CV fold model that never
saw the page's site group, ``train_content_model.py --cv 5 --fold-models``),
and the seven shared sites (the site index of the first 24 pages with gold, as
``bench_site_content.py``'s folder column; the shipped model, never trained
on them). Pages whose site holds fewer than 3 pages count with their page-level
F1 in every column (the choice does not apply to them). Token F1 of the main
text, mean over pages.

The choice of ``x`` leaving one group out: among the grid values that keep every
content dataset left in at or above its page level (up to ``--tol``), the
best worst margin over the rules alone on the groups left in (ties: the
higher mean); scored on the group left out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from bench.common import data_dir  # noqa: E402
from temex.content.extract import (  # noqa: E402
    Content,
    ContentParams,
    extract_content,
    repeated_text,
    site_page_blocks,
)
from temex.content.folder import index_folder  # noqa: E402
from temex.errors import ParseError  # noqa: E402
from temex.evaluate import NoGoldError, gold_text, load_site  # noqa: E402
from temex.page.dom import Document, parse  # noqa: E402
from temex.page.files import html_files  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402
from temex.template.site_index import SiteIndex  # noqa: E402

GRID = (0.0, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)
DATASETS = ("big9", "cleanportaleval", "dragnet", "cleaneval")
PARAMS = ContentParams()


def page_row(doc: Document, gold: str, index: SiteIndex, member: bool,
             models: dict | None) -> tuple[float, list[float]]:
    """F1 of the page level, and of the site level per grid value."""
    page = extract_content(doc, params=PARAMS, models=models)
    fp = token_prf(page.text(), gold)[2]
    others = index.n_pages - (1 if member else 0)
    blocks = page.blocks
    if others < PARAMS.site_rules_min or blocks is None or not len(blocks) \
            or sum(blocks.chars) < PARAMS.small_page:
        return fp, [fp] * len(GRID)
    rules = extract_content(doc, index, params=replace(PARAMS, site_page=0), member=member)
    boiler = repeated_text(doc, blocks, index, PARAMS, member)
    out = []
    for x in GRID:
        if x == 0:
            out.append(token_prf(rules.text(), gold)[2])
            continue
        chosen, _ = site_page_blocks(blocks.chars, page.chosen, rules.chosen, boiler, x)
        out.append(token_prf(Content(doc, blocks, chosen).text(), gold)[2])
    return fp, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="shared data folder")
    ap.add_argument("--cv-models", type=Path, metavar="JSON",
                    help="fold models of train_content_model.py --cv 5 --fold-models (without: "
                         "the shipped model, in sample on the content datasets)")
    ap.add_argument("--tol", type=float, default=0.0001,
                    help="how far a content dataset may fall below its page level")
    ap.add_argument("--sample", type=int, default=24, help="shared sites: pages in the index")
    args = ap.parse_args()
    data = data_dir(args.data)
    group_fold: dict[str, int] = {}
    folds: list[dict] = []
    if args.cv_models:
        from bench.eval.bench_content import load_cv_models
        from temex.evaluate.training import group_of
        group_fold, folds = load_cv_models(args.cv_models)
    rows: dict[str, list[tuple[float, list[float]]]] = {}
    for ds in DATASETS:
        root = data / "content" / ds
        if not root.is_dir():
            continue
        for site in sorted(p for p in root.iterdir() if p.is_dir()):
            files = sorted(site.glob("*.html"))
            index = index_folder(files)[0]
            models = folds[group_fold[group_of(site.name)]] if folds else None
            for f in files:
                gold = f.with_suffix(".txt").read_text(encoding="utf-8")
                doc = parse(f.read_bytes(), url=str(f))
                rows.setdefault(ds, []).append(page_row(doc, gold, index, True, models))
        print(f"  {ds}: {len(rows.get(ds, []))} pages", file=sys.stderr, flush=True)
    for folder in sorted((data / "sites").iterdir()):
        if not (folder / "site.json").is_file():
            continue
        site = load_site(folder)
        docs, golds = [], []
        for f in html_files(site.root):
            try:
                d = parse(f.read_bytes(), url=str(f))
                golds.append(gold_text(d, site.content_selector, site.template_selector))
            except (OSError, ParseError, NoGoldError):
                continue
            docs.append(d)
        index = SiteIndex(docs[: args.sample], hashed=True)
        rows[site.name] = [page_row(d, g, index, index.member(d), None)
                           for d, g in zip(docs, golds)]
        print(f"  {site.name}: {len(docs)} pages", file=sys.stderr, flush=True)
    page = {g: statistics.mean(r[0] for r in rs) for g, rs in rows.items()}
    mean = {g: [statistics.mean(r[1][k] for r in rs) for k in range(len(GRID))]
            for g, rs in rows.items()}

    def choose(left_out: str) -> int:
        inside = [g for g in mean if g != left_out]
        ok = [k for k in range(len(GRID)) if all(
            mean[g][k] >= page[g] - args.tol for g in inside if g in DATASETS)] or [0]
        return max(ok, key=lambda k: (min(mean[g][k] - mean[g][0] for g in inside),
                                      statistics.mean(mean[g][k] for g in inside)))

    print("Token F1, mean over pages; x = 0: the rules with site evidence alone; x > 0: the "
          "page level less repeated text, with the rules' blocks added where it keeps under "
          "x of their characters\n")
    print("| group | pages | page | " + " | ".join(f"x={x}" for x in GRID)
          + " | x chosen leaving it out | F1 left out |")
    print("|---|---:|---:|" + "---:|" * (len(GRID) + 2))
    for g in mean:
        k = choose(g)
        print(f"| {g} | {len(rows[g])} | {page[g]:.4f} | "
              + " | ".join(f"{x:.4f}" for x in mean[g]) + f" | {GRID[k]} | {mean[g][k]:.4f} |")
    k_all = choose("")
    print(f"\nChosen on all groups: x = {GRID[k_all]} "
          f"(shipped: ContentParams.site_page = {PARAMS.site_page})")
    print(json.dumps({"page": page, "site": mean, "grid": GRID}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
