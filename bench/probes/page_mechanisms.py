"""The page level's region mechanisms, each turned off in turn, by grouped
cross-validation: does each still pay under the shipped scorer?

    .venv/bin/python -m bench.probes.page_mechanisms --cv-models FOLDS.json [--data DIR]

Every page of the six content datasets and 40 pages of each shared site (the
pages and gold text of ``train_content_model.py --sites 40``) is extracted at
the page level (``extract_content(doc)``, no site evidence) with the fold
model that never saw its site group (``train_content_model.py --cv 5
--fold-models FOLDS.json``), once with the shipped :class:`ContentParams`
and once per variant, each one mechanism off (the ``ContentParams`` field it
sets is in the table). ``comments added`` is the other way: every page keeps
the comment thread after its article (:func:`temex.content.records.comment_thread`,
what the site level adds under a template mask), the data convention of the
shared sites where the content datasets' gold drops comments.

Prints token F1 (mean over pages) per content set, the mean over the shared
sites, the worst site, and the sites that moved by more than 0.002. A
mechanism pays when turning it off lowers a set or a site; one to delete
would raise them (the rule of the content model's generalisation: judged by the worst
left-out group). About 5 minutes on 2 cores (13 runs of 2,619 pages).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from bench.common import data_dir  # noqa: E402
from bench.eval.bench_content import load_cv_models  # noqa: E402
from temex.content.extract import Content, ContentParams, extract_content  # noqa: E402
from temex.content.records import comment_thread  # noqa: E402
from temex.evaluate.content_sets import DATASETS, pages_by_site  # noqa: E402
from temex.evaluate.training import group_of, site_gold_pages  # noqa: E402
from temex.page.dom import parse  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402

#: Variant name: the ContentParams fields it sets (``None``: comments added).
VARIANTS: dict[str, dict | None] = {
    "shipped": {},
    "main element off": {"main_region": 0.0},
    "components off": {"main_components": 0},
    "sections off": {"main_sections": 0},
    "title article off": {"title_article": False},
    "title region off": {"title_region": 0.0},
    "table gaps off": {"table_gaps": False},
    "introduced off": {"introduced": False},
    "code off": {"code_region": False},
    "list region off": {"list_region": 0.0},
    "rules fallback off": {"page_fallback": 0.0},
    "navigation off": {"navigation": False},
    "comments added": None,
}
#: Pages of each shared site (train_content_model.py's ``--sites`` default).
PER_SITE = 40


def pages(data: Path) -> list[tuple[str, str, str, bytes, str]]:
    """``(set, site group, site, html, gold)`` of every content-set page and
    of ``PER_SITE`` pages per shared site (train_content_model.py's choice:
    a fixed shuffle, the first with gold)."""
    out = []
    for ds in DATASETS:
        if not (data / "content" / ds / "manifest.jsonl").is_file():
            continue
        for site, refs in pages_by_site(data, ds).items():
            out += [(ds, group_of(site), site, r.read(), r.gold_text()) for r in refs]
    for site, gold_pages in site_gold_pages(data):
        out += [("sites", group_of(site.name), site.name, raw, gold)
                for _, raw, _, gold in islice(gold_pages, PER_SITE)]
    return out


def page_text(raw: bytes, params: ContentParams, models: dict | None, comments: bool) -> str:
    try:
        d = parse(raw)
        c = extract_content(d, None, None, params, models=models)
        if comments and c.blocks is not None and c.chosen:
            added = comment_thread(d, c.blocks, c.chosen, [False] * len(c.blocks))
            c = Content(d, c.blocks, sorted(added.union(c.chosen)))
        return c.text()
    except Exception:
        return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--cv-models", type=Path, required=True,
                    help="fold models of train_content_model.py --cv 5 --fold-models")
    args = ap.parse_args()
    data = data_dir(args.data)
    group_fold, fold_models = load_cv_models(args.cv_models)
    items = pages(data)
    unseen = sorted({i[1] for i in items if i[1] not in group_fold})
    if unseen:
        print(f"site groups in no fold (scored by the shipped model): {unseen}", file=sys.stderr)
    scores: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for ds, group, site, raw, gold in items:
        # a group no fold holds (none with the script's fold models) is scored
        # by the shipped model
        models = fold_models[group_fold[group]] if group in group_fold else None
        for name, fields in VARIANTS.items():
            params = replace(ContentParams(), **(fields or {}))
            text = page_text(raw, params, models, fields is None)
            scores[name].append(token_prf(text, gold)[2])
    sets = [s for s in DATASETS if any(i[0] == s for i in items)]
    sites = sorted({i[2] for i in items if i[0] == "sites"})

    def by_site(name: str) -> dict[str, float]:
        return {s: statistics.mean(f for i, f in zip(items, scores[name])
                                   if i[0] == "sites" and i[2] == s) for s in sites}

    shipped_sites = by_site("shipped")
    print(f"Page level, grouped CV (fold models {args.cv_models.name}), token F1; "
          f"{len(items)} pages\n")
    print("| variant | " + " | ".join(sets) + " | shared sites (mean) | worst site | "
          "sites moved > 0.002 |")
    print("|---|" + "---:|" * (len(sets) + 2) + "---|")
    for name, fields in VARIANTS.items():
        per_set = [statistics.mean(f for i, f in zip(items, scores[name]) if i[0] == s)
                   for s in sets]
        ps = by_site(name)
        worst = min(ps, key=ps.__getitem__)
        moved = ", ".join(f"{s} {ps[s] - shipped_sites[s]:+.3f}" for s in sites
                          if abs(ps[s] - shipped_sites[s]) > 0.002)
        label = name + ("" if not fields else " (" + ", ".join(
            f"`{k}={v}`" for k, v in fields.items()) + ")")
        print(f"| {label} | " + " | ".join(f"{x:.4f}" for x in per_set)
              + f" | {statistics.mean(ps.values()):.4f} | {worst} {ps[worst]:.3f} | {moved} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
