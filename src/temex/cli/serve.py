"""``temex serve``: the web app (page and JSON API) on one address."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import (
    EXIT_FAILED,
    UsageError,
    add_guard_arguments,
    at_least,
    guard_settings,
    positive_float,
    positive_int,
    require,
)

__all__ = ["add_parser", "loopback_hosts", "run_serve"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="run the web app (page + JSON API)",
        description="Serve a page where a person enters a URL and sees its template "
                    "(TeMex toggle view), and the JSON API under it. See docs/WEB.md.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=at_least(0), default=8000, help="port (default 8000)")
    add_guard_arguments(p, "the server")
    p.add_argument("--demo", action="store_true",
                   help="also serve the demo site shipped with temex on 127.0.0.1 and offer "
                        "it as the example on the start page (the server may fetch that "
                        "address and port, nothing else of this machine)")
    p.add_argument("--max-jobs", type=positive_int, default=2,
                   help="jobs running at once (default 2)")
    p.add_argument("--max-loads", type=at_least(2), default=30,
                   help="cap on pages loaded per job (default 30)")
    p.add_argument("--job-timeout", type=positive_float, default=120.0,
                   help="seconds per job (default 120)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run_serve)
    return p


def loopback_hosts(host: str) -> list[str] | None:
    """Host-header allow-list for a server bound to loopback (None = any)."""
    import ipaddress

    try:
        loop = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loop = host == "localhost"
    return ["127.0.0.1", "localhost", "::1", "[::1]"] if loop else None


def port_in_use(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be bound now (None when it can)."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return f"cannot resolve {host} ({e.strerror})"
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            s.bind(addr)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is already in use; choose another with --port"
            return f"cannot listen on {host}:{port} ({e.strerror or e})"
    return None


def run_serve(args: argparse.Namespace) -> int:
    if args.port > 65535:
        raise UsageError(f"--port {args.port}: ports go up to 65535")
    require("starlette", "web", "the web app")
    require("uvicorn", "web", "the web app")
    import uvicorn

    from ..web.app import create_app

    busy = port_in_use(args.host, args.port)
    if busy:
        print(f"temex serve: {busy}", file=sys.stderr)
        return EXIT_FAILED
    import contextlib

    from ..site.runner import Limits

    allowed = loopback_hosts(args.host)
    allow_private, guard_allow = guard_settings(args)
    with contextlib.ExitStack() as stack:
        example = None
        if args.demo:
            from ..demo import DEMO_SITE
            from ..evaluate import load_site
            from ..site.sources.localserve import serve_folder

            site = load_site(DEMO_SITE)
            base = stack.enter_context(serve_folder(site.root))
            example = base + site.key_pages[0]
            demo_address = base.split("//", 1)[1]  # 127.0.0.1:PORT
            guard_allow += (demo_address,)
            print(f"temex serve: --demo: the demo site is served at {base}/; the server may "
                  f"fetch {demo_address} and no other address of this machine", file=sys.stderr)
        limits = Limits(allow_private=allow_private, guard_allow=guard_allow,
                        max_jobs=args.max_jobs, max_loads=args.max_loads,
                        job_timeout=args.job_timeout)
        app = create_app(limits, allowed_hosts=allowed, example_url=example)
        if allow_private:
            print("temex serve: --allow-private: the server may fetch private, loopback and "
                  "link-local addresses", file=sys.stderr)
        for entry in args.allow_host:
            print(f"temex serve: --allow-host: the server may fetch {entry}", file=sys.stderr)
        print(f"temex serve: serving on http://{args.host}:{args.port}/", file=sys.stderr)
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
