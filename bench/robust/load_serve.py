"""Bounded load test of ``temex serve`` on loopback (docs/WEB.md).

Builds a site of ``--pages`` pages of about ``--page-kb`` KB each (a shared
menu and footer, then ``<div><p>`` items), serves it on 127.0.0.1, starts
``temex serve --allow-private`` on 127.0.0.1 in a subprocess and:

1. posts ``--jobs`` jobs (``n`` CS pages each), ``--burst`` at a time, so some
   are refused with 429 and retried after ``Retry-After``;
2. waits for every job, reads one output and one view of each;
3. samples the server's RSS (``/proc/PID/status``) before, at its peak and
   after, and counts jobs still kept and jobs evicted (404);
4. optionally (``--body-mb``) streams a request body of that size and reports
   when the 413 came and how much the server's RSS grew; sends ~14 KB of
   nested JSON (expects 400).

Nothing but 127.0.0.1 is contacted; every loop is bounded. Prints Markdown.

    .venv/bin/python -m bench.robust.load_serve --jobs 6 --n 3 --page-kb 4000
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench.common import SRC
from temex.site.sources.localserve import serve_folder


def rss_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    vals = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            k, v = line.split(":", 1)
            vals[k] = int(v.split()[0]) / 1024
    return vals.get("VmRSS", 0.0), vals.get("VmHWM", 0.0)


def make_site(root: Path, pages: int, page_kb: int) -> None:
    nav = "".join(f'<a href="p{k}.html">Page {k}</a> ' for k in range(pages))
    for k in range(pages):
        items, size, i = [], 0, 0
        while size < page_kb * 1024:
            item = (f"<div><p>Item {i} of page {k}: some words that make the item "
                    f"{(i * 7919 + k) % 1000}</p></div>")
            items.append(item)
            size += len(item)
            i += 1
        html = (f"<!DOCTYPE html><html><head><title>Page {k}</title></head><body>"
                f"<header><nav>{nav}</nav></header><main><h1>Page {k}</h1>"
                + "".join(items) + "</main><footer>Footer of the site</footer></body></html>")
        (root / f"p{k}.html").write_text(html)


def call(method: str, url: str, body: object = None, timeout: float = 60
         ) -> tuple[int, dict[str, str], bytes]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stream_body(port: int, mb: int) -> tuple[str, float, int]:
    """POST a body of ``mb`` MB (declared), sending 64 KiB at a time until the
    server answers; returns (status line, seconds, bytes sent)."""
    t0 = time.perf_counter()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall((f"POST /api/extract HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {mb << 20}\r\n\r\n"
                   ).encode())
        s.setblocking(False)
        chunk = b"0" * 65536
        got = b""
        while sent < mb << 20:
            try:
                got += s.recv(4096)
            except BlockingIOError:
                pass
            except OSError:
                break
            if got:
                break
            try:
                sent += s.send(chunk)
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                break
        s.setblocking(True)
        s.settimeout(30)
        while b"\r\n" not in got:
            part = s.recv(4096)
            if not part:
                break
            got += part
    return got.split(b"\r\n", 1)[0].decode(), time.perf_counter() - t0, sent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=10)
    ap.add_argument("--page-kb", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=6)
    ap.add_argument("--burst", type=int, default=3, help="jobs posted at once")
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--max-jobs", type=int, default=2)
    ap.add_argument("--body-mb", type=int, default=0, help="also stream a body this big")
    ap.add_argument("--deadline", type=float, default=1800, help="give up after seconds")
    args = ap.parse_args(argv)
    stop_at = time.monotonic() + args.deadline

    with tempfile.TemporaryDirectory() as tmp:
        make_site(Path(tmp), args.pages, args.page_kb)
        page_bytes = (Path(tmp) / "p0.html").stat().st_size
        with serve_folder(tmp) as site:
            port = free_port()
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(
                [str(SRC), *sys.path])}
            proc = subprocess.Popen(
                [sys.executable, "-m", "temex", "serve", "--allow-private", "--port", str(port),
                 "--max-jobs", str(args.max_jobs), "--log-level", "warning"],
                env=env, stderr=subprocess.DEVNULL)
            base = f"http://127.0.0.1:{port}"
            try:
                for _ in range(200):
                    try:
                        if call("GET", f"{base}/api/health", timeout=2)[0] == 200:
                            break
                    except OSError:
                        time.sleep(0.1)
                rss0, _ = rss_mb(proc.pid)
                peak = [rss0]
                sampling = True

                def sample() -> None:
                    while sampling:
                        peak.append(rss_mb(proc.pid)[0])
                        time.sleep(0.2)

                threading.Thread(target=sample, daemon=True).start()
                t0 = time.perf_counter()
                accepted: list[str] = []
                refused = 0
                todo = args.jobs
                while todo and time.monotonic() < stop_at:
                    for _ in range(min(args.burst, todo)):
                        status, headers, raw = call("POST", f"{base}/api/extract", {
                            "url": f"{site}/p{len(accepted) % args.pages}.html",
                            "n": args.n, "max_loads": args.n * 2 + 2})
                        if status == 202:
                            accepted.append(json.loads(raw)["id"])
                            todo -= 1
                        elif status == 429:
                            refused += 1
                        else:
                            raise SystemExit(f"unexpected {status}: {raw[:200]!r}")
                    time.sleep(float(headers.get("Retry-After", "1")) if refused else 0.5)
                results = {}
                for jid in accepted:
                    while time.monotonic() < stop_at:
                        status, _, raw = call("GET", f"{base}/api/jobs/{jid}")
                        d = json.loads(raw) if status == 200 else {"status": "evicted"}
                        if d["status"] in ("done", "failed", "evicted"):
                            results[jid] = d
                            break
                        time.sleep(0.5)
                wall = time.perf_counter() - t0
                outputs_ok = sum(
                    call("GET", f"{base}/api/jobs/{j}/output/content")[0] == 200
                    and call("GET", f"{base}/api/jobs/{j}/view/template")[0] == 200
                    for j, d in results.items() if d["status"] == "done")
                time.sleep(1.0)
                sampling = False
                rss1, hwm = rss_mb(proc.pid)
                _, health, _ = call("GET", f"{base}/api/health")
                statuses = [d["status"] for d in results.values()]
                print("| page | jobs | n | accepted | 429 | done | failed | evicted "
                      "| outputs read | wall (s) | RSS before (MB) | peak (MB) "
                      "| after (MB) |")
                print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
                print(f"| {page_bytes / 1e6:.1f} MB | {args.jobs} | {args.n} | {len(accepted)} "
                      f"| {refused} | {statuses.count('done')} | {statuses.count('failed')} "
                      f"| {statuses.count('evicted')} | {outputs_ok} | {wall:.0f} "
                      f"| {rss0:.0f} | {max(max(peak), hwm):.0f} | {rss1:.0f} |")
                for d in results.values():
                    if d["status"] == "failed":
                        print(f"failed: {d.get('error')}")
                if args.body_mb:
                    before = rss_mb(proc.pid)[0]
                    line, secs, sent = stream_body(port, args.body_mb)
                    after = rss_mb(proc.pid)[0]
                    print(f"\n| body | answer | s | bytes sent before the answer "
                          f"| RSS growth (MB) |\n|---|---|---|---|---|\n"
                          f"| {args.body_mb} MB | {line} | {secs:.3f} | {sent} "
                          f"| {after - before:.1f} |")
                nested = b"[" * 7000 + b"]" * 7000
                req = urllib.request.Request(f"{base}/api/extract", data=nested, method="POST",
                                             headers={"Content-Type": "application/json"})
                try:
                    code = urllib.request.urlopen(req, timeout=10).status
                except urllib.error.HTTPError as e:
                    code = e.code
                print(f"\nnested JSON (14 KB): HTTP {code}")
            finally:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
