"""Main content on the shared *sites*: the learned scorer against the rules.

For every page of each site in ``../shared/data/sites`` that has gold, the main
text is extracted three ways and scored (token F1) against the gold text of
the site's selectors: ``page`` (the page alone, the scorer), ``scorer site``
(a site index of the site's first 24 pages, as ``temex batch`` builds it, and
the scorer's site model forced) and ``rules site`` (the same index, the rules;
what ships for 2+ other pages, ``ContentParams.site_rules_min``).

Run from a clone::

    .venv/bin/python bench/bench_site_content.py [SITE ...]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

# run from a clone as written in the docs: this clone's src/ first
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from temex.cli.eval import default_data_dir  # noqa: E402
from temex.content.extract import ContentParams, extract_content  # noqa: E402
from temex.content.text import text_lines  # noqa: E402
from temex.errors import ParseError  # noqa: E402
from temex.evaluate import NoGoldError, gold_mask, load_site  # noqa: E402
from temex.page.dom import parse  # noqa: E402
from temex.page.files import html_files  # noqa: E402
from temex.page.tokens import token_prf  # noqa: E402
from temex.template.site_index import SiteIndex  # noqa: E402

SAMPLE = 24  # pages in the site index, as temex batch's default --sample


def site_scores(folder: Path) -> dict[str, float]:
    site = load_site(folder)
    docs = []
    for f in html_files(site.root):
        try:
            docs.append(parse(f.read_bytes(), url=str(f)))
        except (OSError, ParseError):
            continue
    index = SiteIndex(docs[:SAMPLE], hashed=True)
    forced = replace(ContentParams(), site_rules_min=10**9)  # the scorer's site model
    f1: dict[str, list[float]] = {"page": [], "scorer site": [], "rules site": []}
    for d in docs:
        try:
            g = gold_mask(d, site.content_selector, site.template_selector)
        except NoGoldError:
            continue
        gold = "\n".join(text_lines(d, [x is False for x in g], markdown=False))
        member = index.member(d)
        for name, c in (("page", extract_content(d)),
                        ("scorer site", extract_content(d, index, params=forced, member=member)),
                        ("rules site", extract_content(d, index, member=member))):
            f1[name].append(token_prf(c.text(), gold)[2])
    return {k: sum(v) / len(v) for k, v in f1.items() if v}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="*", help="site folder names (default: every shared site)")
    args = ap.parse_args()
    data = default_data_dir()
    if data is None:
        print("shared data not found (set TEMEX_DATA)", file=sys.stderr)
        return 1
    names = args.sites or sorted(p.name for p in (data / "sites").iterdir()
                                   if (p / "site.json").is_file())
    print("| site | page (scorer) | site, scorer | site, rules (shipped) |")
    print("|---|---:|---:|---:|")
    for name in names:
        s = site_scores(data / "sites" / name)
        print(f"| {name} | {s['page']:.3f} | {s['scorer site']:.3f} | {s['rules site']:.3f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
