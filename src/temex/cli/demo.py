"""``temex demo``: the whole job on the demo site shipped in the package."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_OK

__all__ = ["add_parser", "cmd_demo"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    demo: argparse.ArgumentParser = sub.add_parser(
        "demo", help="run temex on the demo site shipped with it",
        description="Serve the demo site shipped inside temex (greenleaf, 6 pages) on "
                    "127.0.0.1, extract the template of one page by URL exactly as for a "
                    "live site (link analysis, complete subdigraph, ETDM vote), write every "
                    "output format to DIR, score it against the site's gold and print the "
                    "offline evaluation of every key page. Needs no network.")
    demo.add_argument("-o", "--output", metavar="DIR", default="temex-demo",
                      help="folder for the outputs: template.html, annotated.html, "
                           "content.txt, content.md, report.json (default: ./temex-demo)")
    demo.set_defaults(func=cmd_demo)
    return demo


def cmd_demo(args: argparse.Namespace) -> int:
    """Serve the shipped demo site on 127.0.0.1, extract the template of one of
    its pages by URL (link analysis, complete subdigraph, ETDM vote) exactly as
    for a live site, write every output format and score it against the demo
    site's gold."""
    from ..content.render import render
    from ..demo import DEMO_SITE
    from ..evaluate import evaluate_site, format_table, gold_mask, load_site, score_nodes
    from ..site.explore import explore, fit_exploration
    from ..site.sources.http import HttpSource
    from ..site.sources.localserve import serve_folder
    from ..template.detectors import ExtractOptions

    if args.output == "-":
        from .common import UsageError
        raise UsageError("-o -: demo writes five files; give a folder")
    site = load_site(DEMO_SITE)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with serve_folder(site.root) as base:
        url = base + site.key_pages[0]
        print(f"demo site served at {base}/ (from {site.root})")
        # the address guard as everywhere: this loopback address and port only
        source = HttpSource(respect_robots=False, allow_private=False,
                            guard_allow=(base.split("//", 1)[1],))
        exploration = explore(url, source=source)
        model = fit_exploration(exploration)
    for fmt, name in (("template", "template.html"), ("annotated", "annotated.html"),
                      ("content", "content.txt"), ("markdown", "content.md"),
                      ("json", "report.json")):
        (out / name).write_text(render(model, fmt), encoding="utf-8")
    counts = model.counts()
    scores = score_nodes(model.template, gold_mask(model.key, site.content_selector,
                                                   site.template_selector))
    print(f"key page:  {url}")
    print(f"pages sharing its template (complete subdigraph): "
          f"{', '.join(u.replace(base, '') for u in exploration.cs)}")
    print(f"loads:     {model.loads} (key page included)")
    print(f"template:  {counts['template_nodes']} of {counts['body_nodes']} body elements; "
          f"F1 against the gold: template {scores.template[2]:.3f}, "
          f"content {scores.content[2]:.3f}")
    print("content:\n  " + render(model, "content").strip().replace("\n", "\n  "))
    print(f"outputs in {out}/: template.html annotated.html content.txt content.md report.json")
    print("\nOffline evaluation of every key page of the demo site (temex eval):")
    sys.stdout.write(format_table(evaluate_site(site, ExtractOptions())))
    return EXIT_OK
