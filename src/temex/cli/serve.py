"""``temex serve`` and the URL flags of ``temex extract`` (``--render``...).

Wired into :mod:`temex.cli` with::

    from .cli_serve import add_serve_parser, add_url_arguments, extract_url_command, run_serve
    add_serve_parser(sub)            # in build_parser, after the other commands
    add_url_arguments(ex)            # on the extract sub-parser
    # in cmd_extract, for http(s) targets:
    return extract_url_command(args, write)   # write(text, output)
    # in main: commands["serve"] = run_serve
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Callable

__all__ = [
    "add_serve_parser",
    "add_url_arguments",
    "extract_url_command",
    "loopback_hosts",
    "run_serve",
]


def add_serve_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="run the web app (page + JSON API)",
        description="Serve a page where a person enters a URL and sees its template "
                    "(TeMex toggle view), and the JSON API under it. See docs/WEB.md.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--allow-private", action="store_true",
                   help="let the server fetch private, loopback and link-local addresses "
                        "(local use only; refused by default)")
    p.add_argument("--max-jobs", type=int, default=2, help="jobs running at once (default 2)")
    p.add_argument("--max-loads", type=int, default=30,
                   help="cap on pages loaded per job (default 30)")
    p.add_argument("--job-timeout", type=float, default=120.0,
                   help="seconds per job (default 120)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    return p


def loopback_hosts(host: str) -> list[str] | None:
    """Host-header allow-list for a server bound to loopback (None = any)."""
    try:
        loop = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loop = host == "localhost"
    return ["127.0.0.1", "localhost", "::1", "[::1]"] if loop else None


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from .web.app import create_app
    except ImportError as e:
        print(f"temex: serve needs starlette and uvicorn ({e.name} is missing): "
              "pip install 'temex[web]'", file=sys.stderr)
        return 1
    from .web.security import Limits

    limits = Limits(allow_private=args.allow_private, max_jobs=args.max_jobs,
                    max_loads=args.max_loads, job_timeout=args.job_timeout)
    app = create_app(limits, allowed_hosts=loopback_hosts(args.host))
    if args.allow_private:
        print("temex: --allow-private: the server may fetch private and loopback addresses",
              file=sys.stderr)
    print(f"temex: serving on http://{args.host}:{args.port}/", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def add_url_arguments(p: argparse.ArgumentParser) -> None:
    """Flags of ``temex extract URL``: ``--render``, ``--no-private`` and, unless
    another module (``temex.cli_explore.add_explore_arguments``) added them
    already, ``--max-loads``. The CS size is ``--cs-size`` when present, else
    ``-n/--n-pages``."""
    have = set(p._option_string_actions)
    g = p.add_argument_group("URL targets (rendering and address guard)")
    g.add_argument("--render", action="store_true",
                   help="load pages through headless Chromium so JavaScript-built pages "
                        "have their real DOM (needs playwright and /usr/bin/chromium)")
    if "--max-loads" not in have:
        g.add_argument("--max-loads", type=int, default=10,
                       help="most pages requested, key page included (default 10)")
    g.add_argument("--no-private", action="store_true",
                   help="refuse private/loopback/link-local addresses, as the server does")


def extract_url_command(args: argparse.Namespace,
                        write: Callable[[str, str | None], None]) -> int:
    """``temex extract URL``: explore, extract, write ``args.format``."""
    from .web.jobs import UrlOptions, extract_url, output
    from .web.security import Limits

    n = getattr(args, "cs_size", None) or args.n_pages
    opts = UrlOptions(url=args.target, n=n, max_loads=args.max_loads,
                      method=args.method, equality=args.equality, threshold=args.threshold,
                      render=args.render, order=getattr(args, "order", "menu"),
                      same_host=getattr(args, "same_host", False))
    limits = Limits(allow_private=not args.no_private, max_loads=max(args.max_loads, 2),
                    max_n=max(n, 1), job_timeout=600.0,
                    page_timeout=getattr(args, "timeout", 20.0))

    def progress(ev: dict[str, object]) -> None:
        if ev.get("type") == "page" and ev.get("status") != "loaded":
            print(f"temex: {ev.get('url')}: {ev.get('status')}", file=sys.stderr)

    result = extract_url(opts, limits, progress)
    write(output(result, args.format), args.output)
    return 0
