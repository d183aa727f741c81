"""``temex batch INPUT... -o OUTDIR``: strip templates from whole collections
(folders, WARC, JSONL) on a local process pool or a Dask cluster
(:mod:`temex.batch`)."""

from __future__ import annotations

import argparse
from typing import Any

from .common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PARTIAL,
    UsageError,
    add_comments_argument,
    add_quiet_arguments,
    fraction,
    is_stdio,
    os_reason,
    positive_int,
    require,
    say,
)

__all__ = ["add_parser", "cmd_batch"]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    b: argparse.ArgumentParser = sub.add_parser("batch", help="strip templates from whole collections",
                       description="Index folders of HTML, WARC and JSONL files, group "
                                   "pages by site and template, fit once per template, "
                                   "strip every page. Resumable.")
    b.add_argument("inputs", nargs="*", metavar="INPUT",
                   help="folders, HTML files, .warc(.gz), .jsonl")
    b.add_argument("-i", "--input-file", metavar="FILE",
                   help="also read INPUTs from FILE (- : stdin), one a line; blank lines and "
                        "lines starting with # skipped")
    b.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder")
    b.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local process pool (default) or a Dask cluster")
    b.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address (default: start a LocalCluster)")
    b.add_argument("-j", "--workers", type=positive_int, default=None,
                   help="worker processes (default: CPU count)")
    b.add_argument("--sample", type=positive_int, default=24,
                   help="pages per site read to cluster and fit (default 24)")
    b.add_argument("-n", "--n-pages", type=positive_int, default=4,
                   help="pages compared with each cluster's key page (default 4)")
    b.add_argument("--cluster-threshold", type=fraction(), default=0.5,
                   help="structure similarity to join a template cluster (default 0.5)")
    b.add_argument("--chunk", type=int, default=200,
                   help="a site of more records is fitted once, then stripped in chunks of "
                        "this many records spread over the workers (default 200)")
    b.add_argument("--template", metavar="FILE",
                   help="use this saved template for every site instead of fitting")
    b.add_argument("--output-format", choices=("jsonl", "warc"), default="jsonl",
                   help="rows as JSONL (default) or WARC conversion records")
    b.add_argument("--no-markdown", action="store_true", help="omit the markdown field")
    add_comments_argument(b)
    b.add_argument("--template-stats", action="store_true",
                   help="add stats.template_nodes: the elements of the page's template "
                        "(costs a full template match with the content-region rule)")
    add_quiet_arguments(b)
    b.set_defaults(func=cmd_batch)
    return b


def cmd_batch(args: argparse.Namespace) -> int:
    from ..batch.pipeline import BatchOptions, run_batch

    if is_stdio(args.output):
        raise UsageError("-o -: batch writes a folder (rows per site, resume marks); "
                         "give a folder")
    if any(is_stdio(i) for i in args.inputs):
        raise UsageError("- (stdin) is not an input of batch; give folders, WARC or JSONL files")
    if args.input_file is not None:
        from .extract import read_url_list

        args.inputs = [*args.inputs, *read_url_list(args.input_file)]
    if not args.inputs:
        raise UsageError("give INPUTs (folders, HTML, WARC or JSONL files) or -i FILE")
    for inp in args.inputs:
        reason = not_an_input(inp)
        if reason:
            raise UsageError(reason)
    if args.engine == "dask":
        require("distributed", "dask", "--engine dask")
    if any(i.lower().endswith((".warc", ".warc.gz", ".arc.gz")) for i in args.inputs):
        require("fastwarc", "batch", "reading WARC")

    opt = BatchOptions(sample=args.sample, n_pages=args.n_pages,
                       cluster_threshold=args.cluster_threshold, chunk=args.chunk,
                       output_format=args.output_format, markdown=not args.no_markdown,
                       template=args.template, template_stats=args.template_stats,
                       comments=args.comments)
    from .progress import Progress

    with Progress(None, "batch", "pages", quiet=args.quiet) as bar:
        def tick(done: int, total: int) -> None:
            if bar.total != total:
                bar.set_total(total)
            bar.update(done)

        # per page: the bar (terminal) or a plain line every few seconds; the
        # per-site lines of the pipeline only where there is no bar
        summary = run_batch(args.inputs, args.output, opt, engine=args.engine,
                            workers=args.workers, scheduler=args.scheduler,
                            progress=not args.quiet and bar.bar is None,
                            tick=None if args.quiet else tick)
    if not summary["records"]:  # said even with --quiet
        say(f"no pages found in {', '.join(args.inputs)} (folders are searched for "
            ".html/.htm/.xhtml/.shtml and WARC files; JSONL needs .jsonl)", "batch")
        return EXIT_FAILED
    if summary["records"] and not summary["pages"]:  # said even with --quiet
        say(f"none of the {summary['records']} records could be stripped "
            f"(reasons in {args.output}/sites/*.jsonl)", "batch")
        return EXIT_FAILED
    if summary["errors"]:  # said even with -q: done, with failures
        if not args.quiet_errors:
            say(f"done with failures: {summary['errors']} of {summary['records']} records "
                f"failed (reasons in {args.output}/sites/*.jsonl and "
                f"{args.output}/index_errors.jsonl); exit 4", "batch")
        return EXIT_PARTIAL
    return EXIT_OK


def not_an_input(path: str) -> str | None:
    """Why ``path`` cannot be an input of batch (None when it can): batch
    reads folders, HTML, WARC and JSONL files; any other file (a list of
    URLs, a PDF) is refused before any work instead of being stored as a
    page. A file without an HTML suffix is HTML when it starts with ``<``."""
    from pathlib import Path

    from ..batch.readers import HTML_SUFFIXES

    p = Path(path)
    if not p.exists() or p.is_dir():
        return None  # a missing input is reported per input by the run
    name = p.name.lower()
    if name.endswith(HTML_SUFFIXES + (".warc", ".warc.gz", ".arc.gz", ".jsonl", ".ndjson")):
        return None
    try:
        with p.open("rb") as f:
            head = f.read(1024)
    except OSError as e:
        return f"{path}: cannot read ({os_reason(e)})"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return None
    return (f"{path}: not an HTML, WARC or JSONL file nor a folder; batch strips local pages "
            "(to fetch a list of URLs: temex extract -i FILE)")
