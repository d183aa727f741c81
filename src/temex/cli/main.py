"""The ``temex`` command line.

Commands::

    temex extract TARGET [--pages FILE ...] [--pages-dir DIR] -f FORMAT [-o OUT]
    temex eval [SITE ...] [--data DIR] [-n N]
    temex demo [-o DIR]

The command line parses flags, builds one options object
(:class:`temex.api.ExtractOptions`), calls the library and maps the result to
an exit code: 0 success, 1 the work failed (one-line reason on stderr),
2 bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .api import DEFAULT_N_PAGES, ExtractOptions, extract_files
from .cli_batch import BATCH_COMMANDS, add_batch_parsers
from .cli_content import add_content_parser
from .cli_explore import add_candidates_parser, add_explore_arguments, explore_from_args, is_url
from .cli_serve import add_serve_parser, add_url_arguments, extract_url_command, run_serve
from .detectors import DEFAULT_REGION, get_detector
from .equality import DEFAULT_EQUALITY, EQUALITIES
from .errors import TemexError
from .explore import DEFAULT_N as DEFAULT_CS_SIZE
from .render import FORMATS, render

__all__ = ["build_parser", "main"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _add_method_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("extraction")
    g.add_argument("--method", choices=["vote", "intersect", "rtdm", "chunks"], default="vote",
                   help="vote: TeMex majority vote (default); intersect: ETDM paper Alg. 2; "
                        "rtdm: RTDM-TD (Vieira et al.); chunks: text-chunk document frequency")
    g.add_argument("--equality", choices=sorted(EQUALITIES), default=DEFAULT_EQUALITY,
                   help=f"node equality relation (default: {DEFAULT_EQUALITY})")
    g.add_argument("--threshold", type=float, default=0.5,
                   help="vote: a node is template when more than this share of the "
                        "pages map it (default 0.5: a strict majority)")
    g.add_argument("-n", "--n-pages", type=int, default=None, metavar="N",
                   help=f"candidate pages to compare (default {DEFAULT_N_PAGES} from a "
                        f"folder; {DEFAULT_CS_SIZE} for a URL, the complete subdigraph size)")
    g.add_argument("--no-evidence", action="store_true",
                   help="count every mapped node as template (the papers' behaviour)")
    g.add_argument("--region", type=float, default=DEFAULT_REGION,
                   help=f"content-region coverage in (0, 1] (default {DEFAULT_REGION})")
    g.add_argument("--no-region", action="store_true", help="turn the content-region rule off")
    g.add_argument("--region-threshold", type=float, default=0.67,
                   help="vote inside the content region: more than this share of the pages "
                        "(default 0.67)")


def _options(args: argparse.Namespace) -> ExtractOptions:
    return ExtractOptions(method=args.method, equality=args.equality,
                          threshold=args.threshold,
                          n_pages=args.n_pages if args.n_pages else DEFAULT_N_PAGES,
                          evidence=not args.no_evidence,
                          region=None if args.no_region else args.region,
                          region_threshold=args.region_threshold)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="temex", description="Site-level web template extraction.")
    parser.add_argument("--version", action="version", version=f"temex {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    ex = sub.add_parser("extract", help="extract the template of a key page",
                        description="Extract the template of TARGET: a URL (the site is "
                                    "explored for pages sharing its template) or a local "
                                    "HTML file (with --pages or --pages-dir).")
    ex.add_argument("target", help="key page: http(s) URL or local HTML file")
    src = ex.add_argument_group("candidate pages")
    src.add_argument("--pages", nargs="+", default=[], metavar="FILE",
                     help="pages of the same site to compare with")
    src.add_argument("--pages-dir", metavar="DIR",
                     help="folder (local mirror) to choose candidate pages from")
    _add_method_arguments(ex)
    add_explore_arguments(ex, cs_size=False)
    out = ex.add_argument_group("output")
    out.add_argument("-f", "--format", choices=FORMATS, default="annotated",
                     help="output format (default: annotated)")
    out.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    add_url_arguments(ex)

    ev = sub.add_parser("eval", help="score extraction against the gold of shared sites",
                        description="Node-level P/R/F1 (template and content) per site "
                                    "and key page, offline candidates (temex.pool rule).")
    ev.add_argument("sites", nargs="*", metavar="SITE",
                    help="site folders (with site.json); default: every site under --data")
    ev.add_argument("--data", metavar="DIR",
                    help="folder of sites (default: $TEMEX_DATA/sites or ../shared/data/sites)")
    _add_method_arguments(ev)

    add_candidates_parser(sub)

    demo = sub.add_parser("demo", help="run temex on the demo site shipped with it")
    demo.add_argument("-o", "--output", metavar="DIR", default="temex-demo",
                      help="folder for the outputs (default: ./temex-demo)")
    add_serve_parser(sub)
    add_content_parser(sub)
    add_batch_parsers(sub)
    return parser


def _write(text: str, output: str | None) -> None:
    if output:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def cmd_extract(args: argparse.Namespace) -> int:
    if is_url(args.target):
        args.cs_size = args.n_pages or DEFAULT_CS_SIZE
        if args.render:  # pages rendered by Chromium: the web app's job runner
            return extract_url_command(args, _write)
        return _extract_url(args)
    model = extract_files(args.target, pages=args.pages, pages_dir=args.pages_dir,
                          options=_options(args))
    for e in model.errors:
        print(f"temex: skipped {e['page']}: {e['error']}", file=sys.stderr)
    if not model.pages:
        print("temex: no usable candidate pages (give --pages or --pages-dir)",
              file=sys.stderr)
        return EXIT_FAILED
    _write(render(model, args.format), args.output)
    return EXIT_OK


def _extract_url(args: argparse.Namespace) -> int:
    from .explore import fit_exploration

    exploration = explore_from_args(args)
    for e in exploration.errors:
        print(f"temex: skipped {e.page}: {e.error}", file=sys.stderr)
    if not exploration.pages:
        print(f"temex: no page of the site shares links with {args.target} "
              f"({exploration.loads} loads); if its links are built by JavaScript, "
              "try --render", file=sys.stderr)
        return EXIT_FAILED
    options = _options(args)
    model = fit_exploration(exploration, get_detector(options.method,
                                                      **options.detector_params()))
    _write(render(model, args.format), args.output)
    return EXIT_OK


def default_data_dir() -> Path | None:
    env = os.environ.get("TEMEX_DATA")
    candidates = [Path(env)] if env else []
    here = Path.cwd()
    candidates += [here / ".." / "shared" / "data", here / "shared" / "data",
                   Path(__file__).resolve().parents[2].parent / "shared" / "data"]
    for c in candidates:
        if (c / "sites").is_dir():
            return c.resolve()
    return None


def cmd_eval(args: argparse.Namespace) -> int:
    from .evaluate import evaluate_site, format_table, load_site

    folders = [Path(s) for s in args.sites]
    if not folders:
        data = Path(args.data) if args.data else default_data_dir()
        if data is None:
            print("temex: no data folder found; give SITE folders or --data",
                  file=sys.stderr)
            return EXIT_FAILED
        base = data / "sites" if (data / "sites").is_dir() else data
        folders = sorted(p for p in base.iterdir() if (p / "site.json").is_file())
    results = []
    for f in folders:
        results.extend(evaluate_site(load_site(f), _options(args)))
    sys.stdout.write(format_table(results))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """Serve the shipped demo site on 127.0.0.1, extract the template of one of
    its pages by URL (link analysis, complete subdigraph, ETDM vote) exactly as
    for a live site, write every output format and score it against the demo
    site's gold."""
    from .demo import DEMO_SITE
    from .evaluate import evaluate_site, format_table, gold_mask, load_site, score_nodes
    from .explore import explore, fit_exploration
    from .sources.http import HttpSource
    from .sources.localserve import serve_folder

    site = load_site(DEMO_SITE)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with serve_folder(site.root) as base:
        url = base + site.key_pages[0]
        print(f"demo site served at {base}/ (from {site.root})")
        exploration = explore(url, source=HttpSource(respect_robots=False))
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    commands = {"extract": cmd_extract, "eval": cmd_eval, "demo": cmd_demo,
                "serve": run_serve, **BATCH_COMMANDS}
    try:
        if args.command in commands:
            return commands[args.command](args)
        return int(args.func(args))
    except TemexError as e:
        print(f"temex: {e}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as e:
        print(f"temex: {e.strerror or e}: {getattr(e, 'filename', '') or ''}".rstrip(": "),
              file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
