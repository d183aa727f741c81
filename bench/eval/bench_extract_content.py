"""What ``temex extract -f content`` prints, against the template's difference.

    .venv/bin/python -m bench.eval.bench_extract_content [--data DIR] [--per-site 2] [--variants]

``temex extract KEY -f content`` (and ``-f markdown``, ``-f html``, the JSON
report's ``content``) does not print the whole non-template part of the key
page: :func:`temex.content.extract.content_text` narrows it to the main block
with the rules, the template mask counting as boilerplate. This bench scores
three texts of the same fitted models, token F1 against the gold text
(:func:`temex.page.tokens.token_prf`), mean over key pages per group:

``extract -f content``
    what the command prints (the rules inside the template mask);
``non-template text``
    the template's difference: every text block outside the template
    (:func:`temex.content.render.content_text`);
``page level``
    the page alone (``extract_content(doc)``, the scorer), for reference.

Groups: the seven shared sites (their key pages, offline candidates as
``temex eval``; gold: :func:`temex.evaluate.gold_text`) and the four content
datasets (``--per-site`` key pages of every site folder with 3 or more
pages, spread over the folder; 4 candidates chosen by
:func:`temex.site.pool.choose_pages`; gold: the page's ``.txt``).

``--paths`` prints instead, for the content datasets, the mean token F1 of
every page of the site folders with 3 or more pages in folder mode
(``temex content DIR``: a site index of all the folder's pages) and on the
batch path (the folder fitted as ``bench_site_content.py`` fits it); the
shared sites' figures for the same paths are ``bench_site_content.py``'s.

``--variants`` adds the middle ways tried: two unions (the rules' choice plus
every non-template block inside the rules' region, or inside its parent) and
the difference filtered by the page model's probability (0.02, 0.1, 0.5).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from bench.common import data_dir
from temex.api import ExtractOptions, extract_files
from temex.content import extract as main_content
from temex.content.extract import ContentParams, rule_signals
from temex.content.render import content_text as non_template_text
from temex.content.scorer import block_features, load_model
from temex.evaluate import gold_text, load_site, url_to_file
from temex.page.tokens import token_prf
from temex.template.detectors import get_detector
from temex.template.model import TemplateModel

#: thresholds of the page-model filter rows
THRESHOLDS = (0.02, 0.1, 0.5)
#: the rows of ``--variants``, in table order
VARIANTS = ("rules + non-template in region", "rules + non-template in region's parent",
            *(f"non-template with page-model p >= {t}" for t in THRESHOLDS))


def scores(model: TemplateModel, gold: str, variants: bool) -> dict[str, float]:
    """Token F1 of each text of one fitted model."""
    def f1(text: str) -> float:
        return token_prf(text, gold)[2]

    doc = model.key
    # what extract -f content prints (content.extract.content_text(model))
    masked = main_content.extract_content(doc, None, model.template)
    out = {"extract -f content": f1(masked.text()),
           "non-template text": f1(non_template_text(model)),
           "page level": f1(main_content.extract_content(doc).text())}
    blocks, region = masked.blocks, masked.region
    if not variants:
        return out
    if blocks is None or not len(blocks):
        for name in VARIANTS:
            out[name] = out["non-template text" if "page-model" in name
                            else "extract -f content"]
        return out
    # a block is template when its element or all of its pieces are (as in
    # extract_content)
    tmpl = [model.template[nd] or all(model.template[i] for i in blocks.pieces[b])
            for b, nd in enumerate(blocks.node)]
    for name, lift in zip(VARIANTS[:2], (0, 1)):
        if region is None or region < 0:
            out[name] = out["extract -f content"]
            continue
        root = doc.parent[region] if lift and doc.parent[region] >= 0 else region
        end = root + doc.size[root]
        keep = set(masked.chosen) | {b for b, nd in enumerate(blocks.node)
                                     if root <= nd < end and not tmpl[b]}
        out[name] = f1(main_content.Content(doc, blocks, sorted(keep), region, "", {}).text())
    # the page model's probability as a filter on the difference
    rule = rule_signals(doc, blocks, [False] * len(blocks), ContentParams())
    probs = load_model()["page"].probabilities(doc, blocks, block_features(doc, blocks, rule))
    for name, t in zip(VARIANTS[2:], THRESHOLDS):
        keep = [b for b in range(len(blocks)) if probs[b] >= t and not tmpl[b]]
        out[name] = f1(main_content.Content(doc, blocks, keep, -1, "", {}).text())
    return out


def site_rows(data: Path, variants: bool) -> list[tuple[str, dict[str, float]]]:
    rows = []
    for folder in sorted((data / "sites").iterdir()):
        if not (folder / "site.json").is_file():
            continue
        site = load_site(folder)
        for kp in site.key_pages:
            try:
                model = extract_files(url_to_file(site.root, kp), pages_dir=site.root,
                                      options=ExtractOptions())
                gold = gold_text(model.key, site.content_selector, site.template_selector)
            except (OSError, ValueError) as e:  # NoGoldError is a ValueError
                print(f"skipped {site.name} {kp}: {e}", file=sys.stderr)
                continue
            rows.append((site.name, scores(model, gold, variants)))
    return rows


def dataset_rows(data: Path, per_site: int, variants: bool
                 ) -> list[tuple[str, dict[str, float]]]:
    from bench.eval.bench_core import content_key_pages

    root = data / "content"
    datasets = sorted(p for p in root.iterdir() if (p / "manifest.jsonl").is_file())
    return [(ds_name, scores(get_detector("vote").fit(key, pages).model_, gold, variants))
            for ds_name, key, pages, gold in content_key_pages(datasets, per_site, 3)
            if pages]


def path_rows(data: Path) -> list[str]:
    """``--paths``: folder mode and batch path on the content datasets."""
    from bench.eval import bench_site_content as site_bench
    from temex.template.site_index import SiteIndex

    lines = ["| dataset | pages | folder | batch |", "|---|---:|---:|---:|"]
    root = data / "content"
    for ds in sorted(p for p in root.iterdir() if (p / "manifest.jsonl").is_file()):
        folder_f1: list[float] = []
        batch_f1: list[float] = []
        for folder in sorted(p for p in ds.iterdir() if p.is_dir()):
            if len(list(folder.glob("*.html"))) < 3:
                continue
            site = site_bench.load_content_site(folder)
            index = SiteIndex([p.doc for p in site.pages], hashed=True)
            folder_f1 += [token_prf(main_content.extract_content(p.doc, index).text(),
                                    p.gold)[2] for p in site.pages]
            batch_f1 += site_bench.batch_f1(site, ContentParams())
        if not folder_f1:  # no site folder of 3 pages or more (one page a site)
            continue
        lines.append(f"| {ds.name} | {len(folder_f1)} | {statistics.mean(folder_f1):.4f} "
                     f"| {statistics.mean(batch_f1):.4f} |")
    return lines


def table(rows: list[tuple[str, dict[str, float]]], groups: list[str]) -> str:
    names = list(rows[0][1])
    mean: Callable[[str, str], float] = lambda g, k: statistics.mean(
        s[k] for g2, s in rows if g2 == g)
    lines = ["| text | " + " | ".join(groups) + " | worst |",
             "|---" * (len(groups) + 2) + "|"]
    for k in names:
        vals = [mean(g, k) for g in groups]
        lines.append(f"| {k} | " + " | ".join(f"{v:.3f}" for v in vals) + f" | {min(vals):.3f} |")
    counts = [sum(1 for g2, _ in rows if g2 == g) for g in groups]
    lines.append("| key pages | " + " | ".join(map(str, counts)) + " | |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="shared data folder")
    ap.add_argument("--per-site", type=int, default=2,
                    help="content datasets: key pages per site folder")
    ap.add_argument("--variants", action="store_true", help="also the middle ways tried")
    ap.add_argument("--paths", action="store_true",
                    help="instead: folder mode and batch path on the content datasets")
    args = ap.parse_args()
    data = data_dir(args.data)
    if args.paths:
        print("\n".join(path_rows(data)))
        return 0
    rows = site_rows(data, args.variants) + dataset_rows(data, args.per_site, args.variants)
    groups = list(dict.fromkeys(g for g, _ in rows))
    print(table(rows, groups))
    return 0


if __name__ == "__main__":
    sys.exit(main())
