"""Folder mode's apply cost: the learned decision against the hand-set choice.

    .venv/bin/python -m bench.perf.folder_decision [--pages 80] [SITE ...]

For each shared site (default: four of different kinds), the site index of
every page under its root (as ``temex content SITE_DIR``), then each of its
first ``--pages`` pages' content with the shipped decision and with
``ContentParams(site_decision=False)``, alternated, three rounds; the
fastest round of each, in ms a page, and their ratio. The fit (the index)
is the same for both and not timed.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from bench.common import DATA_HELP, data_dir
from temex.content.extract import ContentParams, extract_content
from temex.content.folder import index_folder
from temex.evaluate import load_site
from temex.page.dom import parse
from temex.page.files import html_files, read_page

SITES = ("klnet-forum", "americanpillowcase-shop", "cmsis-dv-doxygen", "pyconca2013-conference")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sites", nargs="*", metavar="SITE")
    ap.add_argument("--data", help=DATA_HELP)
    ap.add_argument("--pages", type=int, default=80)
    args = ap.parse_args(argv)
    data = data_dir(args.data)
    paths = {"hand-set": replace(ContentParams(), site_decision=False),
             "decision": ContentParams()}
    total = dict.fromkeys(paths, 0.0)
    print("| site | pages | hand-set ms/page | decision ms/page | ratio |\n|---|---:|---:|---:|---:|")
    for name in args.sites or SITES:
        site = load_site(data / "sites" / name)
        files = html_files(site.root)
        index, _, _ = index_folder(files, site.root)
        docs = [parse(read_page(f), url=str(f)) for f in files[:args.pages]]
        best = dict.fromkeys(paths, float("inf"))
        for _ in range(3):
            for label, params in paths.items():
                t = time.perf_counter()
                for d in docs:
                    extract_content(d, index, None, params)
                best[label] = min(best[label], (time.perf_counter() - t) / len(docs))
        for label in paths:
            total[label] += best[label]
        print(f"| {name} | {len(docs)} | {1000 * best['hand-set']:.1f} | "
              f"{1000 * best['decision']:.1f} | {best['decision'] / best['hand-set']:.2f} |")
    print(f"| **sum** | | {1000 * total['hand-set']:.1f} | {1000 * total['decision']:.1f} | "
          f"{total['decision'] / total['hand-set']:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
