"""Helpers of the web tests: sites and the app served on 127.0.0.1 free ports,
a recorder of outgoing connections, a JavaScript-built test site."""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

REPO = Path(__file__).resolve().parents[1]
DEMO_WWW = REPO / "src" / "temex" / "demo" / "greenleaf" / "www"
CHROMIUM = "/usr/bin/chromium"
#: The guard's allow-list of in-process tests: 127.0.0.1 (every port), where
#: their servers listen; every other private address stays refused.
LOOPBACK = ("127.0.0.1",)
HAVE_CHROMIUM = (os.path.exists(CHROMIUM)
                 and importlib.util.find_spec("playwright") is not None)
NO_CHROMIUM = (f"{CHROMIUM} or the playwright package is missing "
               "(apt-get install chromium; pip install playwright) - browser tests skipped")


def shared_site() -> tuple[Path, str] | None:
    """(www folder, key page path) of one shared site, if the data is present."""
    from temex.evaluate.data import find_data

    data = find_data()
    site = data / "sites" / "hackingthe.cloud" if data is not None else None
    if site is None or not (site / "site.json").is_file():
        return None
    meta = json.loads((site / "site.json").read_text())
    return site / "www" / meta.get("serve_root", "."), meta["key_pages"][0]


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, plus ``/redirect?to=URL`` (302 to URL) for guard tests."""

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        u = urlsplit(self.path)
        if u.path == "/redirect":
            to = parse_qs(u.query).get("to", ["/"])[0]
            self.send_response(302)
            self.send_header("Location", to)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()


@contextlib.contextmanager
def running(handler: Any) -> Iterator[str]:
    """A threaded HTTP server of ``handler`` on a free port of 127.0.0.1, in
    a thread; yields its base URL (no trailing slash), shuts it down after."""
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)


@contextlib.contextmanager
def static_site(root: Path) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1; yields the base URL (no trailing slash)."""
    with running(functools.partial(_Handler, directory=str(root))) as base:
        yield base


@contextlib.contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """Run an ASGI app with uvicorn in a thread on 127.0.0.1; yields its URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    deadline = time.time() + 10
    while not server.started and time.time() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        t.join(10)
        sock.close()


def request(method: str, url: str, body: Any = None,
            headers: dict[str, str] | None = None,
            data: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    hdrs = dict(headers or {})
    if body is not None:
        data = json.dumps(body).encode()
        hdrs.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def wait_job(base: str, job_id: str, timeout: float = 30) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        _, _, raw = request("GET", f"{base}/api/jobs/{job_id}")
        d = json.loads(raw)
        if d["status"] in ("done", "failed"):
            return d
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s")


class ConnectRecorder:
    """Records every address a Python socket connects to (monkeypatched
    ``socket.socket.connect`` / ``connect_ex``)."""

    def __init__(self, monkeypatch: Any) -> None:
        self.addresses: list[Any] = []
        orig_connect, orig_ex = socket.socket.connect, socket.socket.connect_ex
        rec = self

        def connect(self_: socket.socket, address: Any) -> Any:
            rec.addresses.append(address)
            return orig_connect(self_, address)

        def connect_ex(self_: socket.socket, address: Any) -> Any:
            rec.addresses.append(address)
            return orig_ex(self_, address)

        monkeypatch.setattr(socket.socket, "connect", connect)
        monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)

    def hosts(self) -> set[str]:
        return {a[0] for a in self.addresses if isinstance(a, tuple)}


JS_TEMPLATE = """
(function () {
  var pages = [["/", "Home"], ["/a.html", "Alpha"], ["/b.html", "Beta"], ["/c.html", "Gamma"]];
  var header = document.createElement("header");
  header.className = "js-header";
  var h = document.createElement("div");
  h.className = "brand";
  h.textContent = "Scripted Site";
  header.appendChild(h);
  var nav = document.createElement("nav");
  nav.className = "js-menu";
  var ul = document.createElement("ul");
  pages.forEach(function (p) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = p[0];
    a.textContent = p[1];
    li.appendChild(a);
    ul.appendChild(li);
  });
  nav.appendChild(ul);
  header.appendChild(nav);
  document.body.insertBefore(header, document.body.firstChild);
  var footer = document.createElement("footer");
  footer.className = "js-footer";
  footer.textContent = "Scripted Site footer - all rights reserved";
  document.body.appendChild(footer);
})();
"""

_JS_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title} | Scripted Site</title></head>
<body>
<main class="content"><h1>{title}</h1>
<p>{text}</p></main>
<script src="/tpl.js"></script>
</body></html>
"""


def make_js_site(root: Path) -> Path:
    """Four pages whose header, menu and footer are inserted by a script."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "tpl.js").write_text(JS_TEMPLATE)
    texts = {"index.html": ("Home", "Welcome to the scripted site, built at load time."),
             "a.html": ("Alpha", "Alpha is the first letter and this page's own text."),
             "b.html": ("Beta", "Beta tells a different story about betas."),
             "c.html": ("Gamma", "Gamma rays and other unrelated content here.")}
    for name, (title, text) in texts.items():
        (root / name).write_text(_JS_PAGE.format(title=title, text=text))
    return root


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def temex_serve(*args: str, env: dict[str, str] | None = None,
                path: tuple[Path, ...] = ()) -> Iterator[str]:
    """The real ``temex serve ARGS`` in a subprocess on a free port; yields
    its base URL once ``/api/health`` answers ``ok``, stops it after.
    ``env``: variables added to the environment; ``path``: folders put first
    on its ``PYTHONPATH`` (before this tree's ``src``)."""
    port = free_port()
    child = dict(os.environ, **(env or {}))
    child["PYTHONPATH"] = os.pathsep.join([*map(str, path), str(REPO / "src"),
                                           child.get("PYTHONPATH", "")])
    p = subprocess.Popen([sys.executable, "-m", "temex", "serve", "--port", str(port),
                          "--log-level", "warning", *args], env=child,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=2) as r:
                    health = json.loads(r.read())
                break
            except OSError:
                if p.poll() is not None or time.time() > deadline:
                    raise RuntimeError("temex serve did not start: "
                                       + (p.stderr.read().decode() if p.stderr else "")) from None
                time.sleep(0.1)
        assert health["status"] == "ok"
        yield base
    finally:
        p.terminate()
        p.wait(10)
        if p.stderr:
            p.stderr.close()


def screenshot_dirs(tmp_path: Path) -> list[Path]:
    """Where a browser test writes its screenshots: ``tmp_path``, and the
    folder ``TEMEX_SCREENSHOTS`` names (relative to the repository) when set,
    as the docs' screenshots are made."""
    dirs = [tmp_path]
    extra = os.environ.get("TEMEX_SCREENSHOTS")
    if extra:
        p = Path(extra)
        dirs.append(p if p.is_absolute() else REPO / p)
    for d in dirs:
        d.mkdir(parents=True, exist_ok=True)
    return dirs
