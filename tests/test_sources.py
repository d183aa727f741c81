"""Page sources: HttpSource against a local fault server, the address guard,
the disk cache and MirrorSource. Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import asyncio
import gzip
import socket
import struct
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from _webtools import running

from temex.site.explore import explore
from temex.site.sources.base import FetchResult, SyncSource
from temex.site.sources.http import HttpSource
from temex.site.sources.mirror import MirrorSource
from temex.site.sources.netguard import AddressRefused, check_address

pytestmark = pytest.mark.timeout(60)

PAGE = b"<html><head><title>t</title></head><body><nav><a href='/site/a.html'>A</a></nav><p>ok</p></body></html>"
BOMB = gzip.compress(b"\0" * (20 * 1024 * 1024))
MENU = ["f-slow", "f-reset", "f-404", "f-500", "f-loop", "f-big", "f-bomb", "f-image",
        "private/p", "a", "b", "c"]


def _site_page(name: str) -> bytes:
    items = "".join(f"<li><a href='/site/{m}.html'>{m}</a></li>" for m in MENU if m != name)
    return (f"<html><body><ul class='menu'>{items}</ul><main><p>page {name}</p></main>"
            f"</body></html>").encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    log: list[str] = []

    def log_message(self, *a: object) -> None:
        pass

    def _send(self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8",
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, where: str) -> None:
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        p = self.path
        Handler.log.append(p)
        if p == "/robots.txt":
            return self._send(200, b"User-agent: *\nDisallow: /site/private/\n", "text/plain")
        if p == "/ok":
            return self._send(200, PAGE)
        if p in ("/site/f-slow.html", "/slow"):
            time.sleep(2.0)
            try:
                return self._send(200, PAGE)
            except OSError:
                return None
        if p in ("/site/f-reset.html", "/reset"):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.connection.close()
            return None
        if p in ("/site/f-404.html", "/404"):
            return self._send(404, b"<html><body>nope</body></html>")
        if p in ("/site/f-500.html", "/500"):
            return self._send(500, b"<html><body>boom</body></html>")
        if p in ("/site/f-loop.html", "/loop1"):
            return self._redirect("/loop2")
        if p == "/loop2":
            return self._redirect("/loop1")
        if p == "/redir":
            return self._redirect("/ok#frag")
        if p in ("/site/f-big.html", "/big"):  # 50 MB, no Content-Length, streamed
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            chunk = b"<p>" + b"x" * 65530 + b"</p>"
            try:
                for _ in range(50 * 16):
                    self.wfile.write(chunk)
            except OSError:
                pass
            return None
        if p == "/bigcl":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(50 * 1024 * 1024))
            self.end_headers()
            return None
        if p in ("/site/f-bomb.html", "/bomb"):
            return self._send(200, BOMB, headers={"Content-Encoding": "gzip"})
        if p == "/gzip":
            return self._send(200, gzip.compress(PAGE), headers={"Content-Encoding": "gzip"})
        if p in ("/site/f-image.html", "/image"):
            return self._send(200, b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "image/png")
        if p == "/latin1":  # header lies (utf-8); bytes and meta are windows-1252
            body = ("<html><head><meta charset='windows-1252'></head><body><p>caf\xe9 "
                    "cr\xe8me</p></body></html>").encode("cp1252")
            return self._send(200, body, "text/html; charset=utf-8")
        if p == "/to-meta":
            return self._redirect("http://169.254.169.254/latest/meta-data/")
        if p == "/to-ten":
            return self._redirect("http://10.0.0.1/")
        if p.startswith("/site/") and p.endswith(".html"):
            name = p[len("/site/"):-len(".html")]
            if name in MENU or name == "key":
                return self._send(200, _site_page(name))
        return self._send(404, b"<html><body>404</body></html>")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running(Handler) as base:
        yield base


def fetch(src: HttpSource, url: str) -> FetchResult:
    with SyncSource(src) as s:
        return s.get(url)


def fast_source(**kw: object) -> HttpSource:
    opts: dict[str, object] = dict(timeout=3.0, connect_timeout=1.0, read_timeout=0.5,
                                   max_bytes=1024 * 1024)
    opts.update(kw)
    return HttpSource(**opts)  # type: ignore[arg-type]


@pytest.mark.parametrize("path, reason", [
    ("/slow", "timeout"),
    ("/reset", None),  # "connection reset" or "server disconnected": both are fine
    ("/404", "HTTP 404"),
    ("/500", "HTTP 500"),
    ("/loop1", "redirect loop"),
    ("/big", "too large"),
    ("/bigcl", "too large"),
    ("/bomb", "decompression bomb"),
    ("/image", "not HTML (content type image/png)"),
])
def test_fault_gives_one_line_reason(server: str, path: str, reason: str | None) -> None:
    t0 = time.perf_counter()
    res = fetch(fast_source(), server + path)
    assert not res.ok and res.body == b""
    assert "\n" not in (res.error or "")
    if reason:
        assert reason in (res.error or ""), res.error
    else:
        assert any(w in (res.error or "") for w in ("reset", "disconnected", "incomplete"))
    assert time.perf_counter() - t0 < 5


def test_ok_gzip_redirect_and_user_agent(server: str) -> None:
    src = fast_source()
    with SyncSource(src) as s:
        ok = s.get(server + "/gzip")
        red = s.get(server + "/redir")
    assert ok.ok and ok.body == PAGE
    assert red.ok and red.final_url == server + "/ok" and red.redirects == [server + "/ok"]
    assert src.n_loads == 2 and src.n_network == 2 and src.n_cache_hits == 0


def test_wrong_charset_header_still_decodes(server: str) -> None:
    from temex.page.dom import parse
    res = fetch(fast_source(), server + "/latin1")
    assert res.ok and res.charset == "utf-8"
    doc = parse(res.body, res.final_url, declared_encoding=res.charset)
    assert "café crème" in " ".join(doc.text)


def test_robots_disallow_and_opt_out(server: str) -> None:
    Handler.log.clear()
    res = fetch(fast_source(), server + "/site/private/p.html")
    assert res.error == "robots.txt disallows this URL"
    assert "/site/private/p.html" not in Handler.log and "/robots.txt" in Handler.log
    res = fetch(fast_source(respect_robots=False), server + "/site/private/p.html")
    assert res.ok


def test_cache_second_run_uses_no_network(server: str, tmp_path: Path) -> None:
    first = fast_source(cache_dir=tmp_path)
    a = explore(server + "/site/key.html", n=2, source=first, order="document")
    second = fast_source(cache_dir=tmp_path)
    Handler.log.clear()
    b = explore(server + "/site/key.html", n=2, source=second, order="document")
    assert a.cs == b.cs and a.loads == b.loads
    assert second.n_network == 0 and b.network_loads == 0 and b.cache_hits == b.loads
    assert not [p for p in Handler.log if p.startswith("/site/") and "f-" not in p]


def test_explore_goes_on_past_every_fault(server: str) -> None:
    ex = explore(server + "/site/key.html", n=2, max_loads=20, order="document",
                 source=fast_source(), concurrency=4)
    assert ex.complete and [u.rsplit("/", 1)[1] for u in ex.cs] == ["a.html", "b.html"]
    reasons = {e.page.rsplit("/", 1)[1]: e.error for e in ex.errors}
    assert "timeout" in reasons["f-slow.html"]
    assert "HTTP 404" in reasons["f-404.html"] and "HTTP 500" in reasons["f-500.html"]
    assert "redirect loop" in reasons["f-loop.html"]
    assert "too large" in reasons["f-big.html"]
    assert "decompression bomb" in reasons["f-bomb.html"]
    assert "not HTML" in reasons["f-image.html"]
    assert "robots.txt" in reasons["p.html"]
    assert ex.loads == 3  # key + a + b; failures are requests, not loads
    assert ex.requests == 3 + len(ex.errors)


# -- address guard -------------------------------------------------------------
@pytest.mark.parametrize("host", ["127.0.0.1", "10.0.0.1", "10.255.1.2", "169.254.169.254",
                                  "0.0.0.0", "::1", "fe80::1", "224.0.0.1", "192.168.1.1"])
def test_check_address_refuses_internal(host: str) -> None:
    with pytest.raises(AddressRefused):
        check_address(host)


def test_check_address_accepts_public_and_allow_list() -> None:
    assert check_address("93.184.216.34", resolve=False) == ["93.184.216.34"]
    assert check_address("127.0.0.1", allow=["127.0.0.0/8"]) == ["127.0.0.1"]
    with pytest.raises(AddressRefused):
        check_address("example.invalid", resolve=False)


def test_guard_refuses_first_url_before_connecting(server: str) -> None:
    Handler.log.clear()
    res = fetch(fast_source(allow_private=False), server + "/ok")
    assert res.error and res.error.startswith("refused:") and "127.0.0.1" in res.error
    assert Handler.log == []  # not even robots.txt


@pytest.mark.parametrize("path, bad", [("/to-meta", "169.254.169.254"), ("/to-ten", "10.0.0.1")])
def test_guard_refuses_redirect_into_private(server: str, path: str, bad: str) -> None:
    # only the test server is allow-listed: the redirect target is refused before any
    # connection, so nothing but 127.0.0.1 is ever contacted
    src = fast_source(allow_private=False, guard_allow=["127.0.0.1"], respect_robots=False)
    res = fetch(src, server + path)
    assert res.error and res.error.startswith("refused:") and bad in res.error


def test_unreachable_host_is_one_line() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = fetch(fast_source(respect_robots=False), f"http://127.0.0.1:{port}/")
    assert res.error and res.error.startswith("cannot connect")


def test_source_reusable_across_event_loops(server: str) -> None:
    src = fast_source()
    assert asyncio.run(src.get(server + "/ok")).ok
    asyncio.run(src.aclose())
    assert asyncio.run(src.get(server + "/ok")).ok
    asyncio.run(src.aclose())


# -- MirrorSource --------------------------------------------------------------
def test_mirror_source(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_bytes(PAGE)
    (tmp_path / "x.png").write_bytes(b"\x89PNG")
    src = MirrorSource(tmp_path)
    with SyncSource(src) as s:
        assert s.get("http://h/a/").body == PAGE
        assert s.get("http://h/a").ok
        assert "404" in (s.get("http://h/missing/").error or "")
        assert "not HTML" in (s.get("http://h/x.png").error or "")
        assert not s.get("http://h/../../etc/passwd").ok
    with SyncSource(MirrorSource(tmp_path, host="h")) as s:
        assert "outside" in (s.get("http://other/a/").error or "")
    assert src.n_loads == 2 and src.n_errors == 3
