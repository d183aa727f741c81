"""The page level's fallback on the rules (``ContentParams.page_fallback``).

    .venv/bin/python -m bench.eval.bench_page_fallback [--data DIR] [--per-site 40]

For every page of the four content datasets and ``--per-site`` pages of each
shared site (a fixed random sample), each page alone (no site evidence):
token F1 against gold (the dataset's .txt, or ``temex.evaluate.gold_text``)
when the rules replace the scorer's choice wherever the scorer keeps fewer
than ``a`` of the characters the rules keep, for ``a`` in the grid (0 = the
scorer alone), and for the rules alone. Then the choice of ``a`` leaving one
group (dataset or site) out: among the grid values that lower no content
dataset left in by more than ``--tol`` against the scorer alone (the scorer's
home ground, where it wins by grouped cross-validation), the largest mean
over the groups left in; scored on the group left out.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from bench.common import data_dir  # noqa: E402
from temex.content.extract import Content, ContentParams, extract_content  # noqa: E402
from temex.evaluate import NoGoldError, gold_text, load_site  # noqa: E402
from temex.page.dom import parse  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402

GRID = (0.0, 0.1, 0.3, 0.5, 0.7)
DATASETS = ("big9", "cleanportaleval", "dragnet", "cleaneval")


def kept_chars(c: Content) -> int:
    return sum(c.blocks.chars[b] for b in c.chosen) if c.blocks is not None else 0


def page_row(doc, gold: str) -> tuple[list[float], float]:  # type: ignore[no-untyped-def]
    """F1 per grid value, and of the rules alone."""
    scorer = extract_content(doc, params=ContentParams(page_fallback=0))
    rules = extract_content(doc, params=ContentParams(scorer=False))
    fs, fr = token_prf(scorer.text(), gold)[2], token_prf(rules.text(), gold)[2]
    if scorer.stats.get("scorer") != "page":  # tiny page: the rules chose anyway
        return [fs] * len(GRID), fr
    ks, kr = kept_chars(scorer), kept_chars(rules)
    return [fr if (kr and ks < a * kr) else fs for a in GRID], fr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="shared data folder")
    ap.add_argument("--per-site", type=int, default=40, help="pages per shared site")
    ap.add_argument("--tol", type=float, default=0.002,
                    help="largest loss allowed on a content dataset")
    args = ap.parse_args()
    data = data_dir(args.data)
    rows: dict[str, list[tuple[list[float], float]]] = {}
    for ds in DATASETS:
        root = data / "content" / ds
        if not (root / "manifest.jsonl").is_file():
            continue
        for line in (root / "manifest.jsonl").read_text("utf-8").splitlines():
            m = json.loads(line)
            doc = parse((root / m["html"]).read_bytes(), url="http://x/" + m["html"])
            gold = (root / m["gold"]).read_text("utf-8", "replace")
            rows.setdefault(ds, []).append(page_row(doc, gold))
    rng = random.Random(0)
    for folder in sorted((data / "sites").iterdir()):
        if not (folder / "site.json").is_file():
            continue
        site = load_site(folder)
        files = sorted(site.root.rglob("*.html"))
        rng.shuffle(files)
        for f in files[: args.per_site]:
            doc = parse(f.read_bytes(), url=str(f))
            try:
                gold = gold_text(doc, site.content_selector, site.template_selector)
            except NoGoldError:
                continue
            rows.setdefault("site " + site.name, []).append(page_row(doc, gold))
    mean = {g: [sum(r[0][k] for r in rs) / len(rs) for k in range(len(GRID))]
            for g, rs in rows.items()}
    rules = {g: sum(r[1] for r in rs) / len(rs) for g, rs in rows.items()}

    def choose(left_out: str) -> int:
        inside = [g for g in mean if g != left_out]
        ok = [k for k in range(len(GRID))
              if all(mean[g][k] >= mean[g][0] - args.tol for g in inside if g in DATASETS)]
        return max(ok, key=lambda k: (sum(mean[g][k] for g in inside), -k))

    print("Token F1, each page alone; a = share of the rules' characters under which the "
          "rules replace the scorer's choice\n")
    print("| group | pages | " + " | ".join(f"a={a}" for a in GRID)
          + " | rules alone | a chosen leaving it out | F1 left out |")
    print("|---|---:|" + "---:|" * (len(GRID) + 3))
    for g in mean:
        k = choose(g)
        print(f"| {g} | {len(rows[g])} | " + " | ".join(f"{x:.3f}" for x in mean[g])
              + f" | {rules[g]:.3f} | {GRID[k]} | {mean[g][k]:.3f} |")
    k_all = choose("")
    print(f"\nChosen on all groups: a = {GRID[k_all]} "
          f"(shipped: ContentParams.page_fallback = {ContentParams().page_fallback})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
