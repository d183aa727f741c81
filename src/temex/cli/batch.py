"""Command-line pieces for whole collections: ``fit``, ``strip`` and ``batch``.

::

    temex fit SITE_PAGES... -o site.template.json [--method M] [--keys K] [-n N]
    temex strip --template site.template.json PAGES... [-f FORMAT] [-o OUT]
    temex batch INPUT... -o OUTDIR [--engine local|dask] [--scheduler ADDR] [-j N]

Wiring (``temex.cli``): call :func:`add_batch_parsers` on the sub-parsers
object and merge :data:`BATCH_COMMANDS` into the command table. Runners take
the parsed namespace and return the exit code (0 ok, 1 failed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

from .chunks import ChunksDetector
from .content import SiteIndex
from .detectors import IntersectDetector, VoteDetector
from .dom import Document, parse
from .errors import ParseError
from .pool import rank_by_similarity, read_page, unusable
from .render import render
from .rtdm import RTDMDetector
from .saved import SavedTemplate, main_content, strip

__all__ = ["add_batch_parsers", "cmd_fit", "cmd_strip", "cmd_batch", "BATCH_COMMANDS",
           "make_detector", "fit_saved", "DETECTOR_NAMES"]

DETECTOR_NAMES = ("vote", "intersect", "rtdm", "chunks")
STRIP_FORMATS = ("content", "markdown", "annotated", "html", "template", "json")


def make_detector(method: str) -> Any:
    """A detector with default parameters by name (vote, intersect, rtdm, chunks)."""
    return {"vote": VoteDetector, "intersect": IntersectDetector, "rtdm": RTDMDetector,
            "chunks": ChunksDetector}[method]()


def fit_saved(docs: list[Document], method: str = "vote", keys: int = 2, n_pages: int = 4,
              site: str = "") -> SavedTemplate:
    """Fit ``keys`` key pages each against its ``n_pages`` most similar other
    pages and merge them into one :class:`SavedTemplate`. Pages are first
    clustered by structure (:func:`temex.batch.grouping.cluster`); only the
    largest cluster is used (one template per file); the site index
    (:class:`temex.content.SiteIndex`) counts every page given. Cost: ``keys``
    fits."""
    from .batch.grouping import cluster

    index = SiteIndex(docs, hashed=True)  # every page: repeated text for main content
    groups = cluster(docs)
    biggest = max(groups, key=len)
    if len(groups) > 1:
        print(f"temex: pages form {len(groups)} structure clusters; fitting the largest "
              f"({len(biggest)} of {len(docs)} pages)", file=sys.stderr)
    docs = [docs[k] for k in biggest]
    models = []
    for key in docs[:max(1, keys)]:
        others = [d for d in docs if d is not key]
        pages = rank_by_similarity(key, others, n_pages)
        if pages:
            models.append(make_detector(method).fit(key, pages).model_)
    st = SavedTemplate.from_models(models, site=site)
    st.site_index = index
    return st


def _load_pages(paths: list[str]) -> list[Document]:
    docs = []
    for p in paths:
        try:
            doc = parse(read_page(p), url=p)
        except (OSError, ParseError) as e:
            print(f"temex: skipped {p}: {e}", file=sys.stderr)
            continue
        reason = unusable(doc)
        if reason:
            print(f"temex: skipped {p}: {reason}", file=sys.stderr)
            continue
        docs.append(doc)
    return docs


def add_batch_parsers(sub: Any) -> None:
    """Add the ``fit``, ``strip`` and ``batch`` sub-commands."""
    fit = sub.add_parser("fit", help="fit a site template once and save it as JSON",
                         description="Fit the template of a site from some of its pages "
                                     "and save it (docs/TEMPLATE_FORMAT.md).")
    fit.add_argument("pages", nargs="+", metavar="SITE_PAGE", help="HTML files of one site")
    fit.add_argument("-o", "--output", required=True, metavar="FILE",
                     help="where to write the template (e.g. site.template.json)")
    fit.add_argument("--method", choices=DETECTOR_NAMES, default="vote",
                     help="detector (default: vote)")
    fit.add_argument("--keys", type=int, default=2,
                     help="key pages fitted and merged (default 2)")
    fit.add_argument("-n", "--n-pages", type=int, default=4,
                     help="pages compared with each key page (default 4)")
    fit.add_argument("--site", default="", help="site name stored in the template")

    st = sub.add_parser("strip", help="strip a saved template from pages",
                        description="Remove a saved site template from pages the fit "
                                    "never saw, in linear time per page.")
    st.add_argument("pages", nargs="+", metavar="PAGE", help="HTML files")
    st.add_argument("--template", required=True, metavar="FILE", help="saved template JSON")
    st.add_argument("-f", "--format", choices=STRIP_FORMATS, default="content",
                    help="output format (default: content)")
    st.add_argument("-o", "--output", metavar="OUT",
                    help="file (one page) or folder (several pages); default stdout")

    b = sub.add_parser("batch", help="strip templates from whole collections",
                       description="Index folders of HTML, WARC and JSONL files, group "
                                   "pages by site and template, fit once per template, "
                                   "strip every page. Resumable.")
    b.add_argument("inputs", nargs="+", metavar="INPUT", help="folders, .warc(.gz), .jsonl")
    b.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder")
    b.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local process pool (default) or a Dask cluster")
    b.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address (default: start a LocalCluster)")
    b.add_argument("-j", "--workers", type=int, default=None,
                   help="worker processes (default: CPU count)")
    b.add_argument("--sample", type=int, default=24,
                   help="pages per site read to cluster and fit (default 24)")
    b.add_argument("-n", "--n-pages", type=int, default=4,
                   help="pages compared with each cluster's key page (default 4)")
    b.add_argument("--cluster-threshold", type=float, default=0.5,
                   help="structure similarity to join a template cluster (default 0.5)")
    b.add_argument("--template", metavar="FILE",
                   help="use this saved template for every site instead of fitting")
    b.add_argument("--output-format", choices=("jsonl", "warc"), default="jsonl",
                   help="rows as JSONL (default) or WARC conversion records")
    b.add_argument("--no-markdown", action="store_true", help="omit the markdown field")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def cmd_fit(args: argparse.Namespace) -> int:
    docs = _load_pages(args.pages)
    if len(docs) < 2:
        print("temex: fit needs at least 2 usable pages of the site", file=sys.stderr)
        return 1
    saved = fit_saved(docs, args.method, args.keys, args.n_pages, args.site)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    saved.save(args.output)
    print(f"temex: template of {len(saved.keys)} key page(s), {len(saved.texts)} template "
          f"texts, {len(saved.structure)} paths -> {args.output}", file=sys.stderr)
    return 0


_EXT = {"content": ".txt", "markdown": ".md", "annotated": ".html", "html": ".html",
        "template": ".html", "json": ".json"}


def cmd_strip(args: argparse.Namespace) -> int:
    saved = SavedTemplate.load(args.template)
    docs = _load_pages(args.pages)
    if not docs:
        print("temex: no usable pages", file=sys.stderr)
        return 1
    outdir = None
    if args.output and len(args.pages) > 1:
        outdir = Path(args.output)
        outdir.mkdir(parents=True, exist_ok=True)
    for doc in docs:
        if args.format in ("content", "markdown", "html"):
            # main content: template text mask + the saved site index (temex.content)
            main = main_content(saved, doc)
            text = {"content": main.text, "markdown": main.markdown,
                    "html": main.html}[args.format]() + "\n"
        else:
            text = render(strip(saved, doc), args.format)
        if outdir is not None:
            (outdir / (Path(doc.url).stem + _EXT[args.format])).write_text(text, "utf-8")
        elif args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            if len(docs) > 1:
                sys.stdout.write(f"==> {doc.url} <==\n")
            sys.stdout.write(text)
    return 0 if len(docs) == len(args.pages) else 1


def cmd_batch(args: argparse.Namespace) -> int:
    from .batch import BatchOptions, run_batch

    opt = BatchOptions(sample=args.sample, n_pages=args.n_pages,
                       cluster_threshold=args.cluster_threshold,
                       output_format=args.output_format, markdown=not args.no_markdown,
                       template=args.template)
    summary = run_batch(args.inputs, args.output, opt, engine=args.engine,
                        workers=args.workers, scheduler=args.scheduler,
                        progress=not args.quiet)
    if summary["records"] and not summary["pages"]:  # said even with --quiet
        print(f"temex batch: none of the {summary['records']} records could be stripped "
              f"(reasons in {args.output}/sites/*.jsonl)", file=sys.stderr)
        return 1
    return 0


BATCH_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "fit": cmd_fit, "strip": cmd_strip, "batch": cmd_batch}
