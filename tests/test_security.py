"""The server's address guard, caps and concurrency limit.

Only 127.0.0.1 is ever contacted: refused addresses are refused before any
connection, which a recorder of socket connections checks.
"""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _webtools import (
    DEMO_WWW,
    HAVE_CHROMIUM,
    NO_CHROMIUM,
    ConnectRecorder,
    request,
    serve_app,
    static_site,
    wait_job,
)

from temex.site.runner import Limits, UrlOptions
from temex.site.sources.http import HttpSource
from temex.site.sources.netguard import UrlRefused, check_url
from temex.web.app import create_app
from temex.web.jobs import JobManager

REFUSED = ["http://127.0.0.1/", "http://127.0.0.1:8000/x", "http://10.0.0.1/",
           "http://10.255.1.2:8080/admin", "http://169.254.169.254/latest/meta-data/",
           "http://[::1]/", "http://localhost/", "http://192.168.1.1/", "http://0.0.0.0/",
           "http://[::ffff:127.0.0.1]/", "http://172.16.0.1/", "http://100.100.100.200/"]


@pytest.mark.parametrize("url", REFUSED)
def test_check_url_refuses_private_before_connecting(url, monkeypatch):
    rec = ConnectRecorder(monkeypatch)
    with pytest.raises(UrlRefused, match="refused"):
        check_url(url)
    assert rec.addresses == []


@pytest.mark.parametrize("url", ["ftp://example.org/", "file:///etc/passwd", "javascript:1",
                                 "http://user:pw@example.org/", "http:///nohost", "",
                                 "http://example.org:99999/"])
def test_check_url_refuses_bad_urls(url):
    with pytest.raises(UrlRefused):
        check_url(url, allow_private=True)


EMBEDDED_V4 = ["2002:7f00:1::", "2002:a9fe:a9fe::", "2002:c0a8:101::1", "2002:a00:1::",
               "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::a00:1", "::127.0.0.1",
               "::ffff:0:7f00:1", "::ffff:a9fe:a9fe", "2001:0:4136:e378:8000:63bf:80ff:fffe"]


@pytest.mark.parametrize("addr", EMBEDDED_V4)
def test_guard_checks_ipv4_embedded_in_ipv6(addr, monkeypatch):
    """6to4, NAT64, IPv4-compatible/mapped/translated and Teredo addresses
    lead to their embedded IPv4 host: a private one is refused."""
    rec = ConnectRecorder(monkeypatch)
    with pytest.raises(UrlRefused, match="refused"):
        check_url(f"http://[{addr}]/")
    assert rec.addresses == []


def test_guard_accepts_6to4_of_a_public_address():
    from temex.site.sources.netguard import is_public_address
    assert is_public_address("2002:808:808::1")  # 6to4 of 8.8.8.8
    assert is_public_address("2606:4700::1111")


def test_allow_private_lifts_the_address_rule(monkeypatch):
    rec = ConnectRecorder(monkeypatch)
    assert check_url("http://127.0.0.1:9/x", allow_private=True) == "http://127.0.0.1:9/x"
    assert check_url("http://10.0.0.1/", allow=("10.0.0.0/8",)) == "http://10.0.0.1/"
    assert rec.addresses == []


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/",
                                    "http://10.0.0.1/", "http://127.0.0.2/"])
def test_http_source_refuses_a_redirect_into_private_addresses(target, monkeypatch):
    with static_site(DEMO_WWW) as site:
        rec = ConnectRecorder(monkeypatch)
        src = HttpSource(allow_private=False, guard_allow=("127.0.0.1/32",),
                         respect_robots=False)

        async def go():
            async with src:
                return await src.get(f"{site}/redirect?to={target}")

        res = asyncio.run(go())
    assert not res.ok and "refused" in res.error, res.error
    assert rec.hosts() <= {"127.0.0.1"}, rec.addresses


@pytest.fixture(scope="module")
def guarded_app():
    """The app as deployed (no --allow-private), except that 127.0.0.1 is on
    the explicit allow-list so a local site can redirect into refused ranges."""
    limits = Limits(allow_private=False, guard_allow=("127.0.0.1/32",), max_loads=5)
    with serve_app(create_app(limits)) as base:
        yield base


@pytest.fixture(scope="module")
def default_app():
    with serve_app(create_app(Limits())) as base:
        yield base


@pytest.mark.parametrize("url", ["http://127.0.0.1:1/", "http://10.0.0.1/",
                                 "http://169.254.169.254/latest/meta-data/"])
def test_api_refuses_private_urls_by_default(default_app, url):
    status, _, raw = request("POST", f"{default_app}/api/extract", {"url": url})
    assert status == 400
    err = json.loads(raw)["error"]
    # said in the web's terms: a web user cannot pass the command line's flags
    assert err.startswith("refused: ") and err.count("refused") == 1
    assert err.endswith("this server fetches public addresses only") and "--" not in err


def _post_partial(base: str, headers: str, chunks: list[bytes]) -> bytes:
    """Send a POST whose body is never finished; return what the server
    answers within 5 s (b"" when it waits for the rest of the body)."""
    import socket
    import time
    host, port = base.rsplit("/", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(("POST /api/extract HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Content-Type: application/json\r\n" + headers + "\r\n").encode())
        try:
            for c in chunks:
                s.sendall(c)
        except OSError:  # the server answered and closed: fine
            pass
        got = b""
        deadline = time.monotonic() + 5
        while b"\r\n" not in got and time.monotonic() < deadline:
            try:
                part = s.recv(4096)
            except socket.timeout:
                break
            if not part:
                break
            got += part
        return got


@pytest.mark.parametrize("mode", ["content-length", "chunked"])
def test_body_limit_is_enforced_while_the_body_streams(default_app, mode):
    """A huge body is refused with 413 without reading it: the
    body here is never finished, so a server that waits for it answers nothing."""
    part = b"[" + b" " * 4094 + b"\n"
    if mode == "content-length":
        got = _post_partial(default_app, "Content-Length: 400000000\r\n", [part] * 16)
    else:
        chunk = f"{len(part):x}\r\n".encode() + part + b"\r\n"
        got = _post_partial(default_app, "Transfer-Encoding: chunked\r\n", [chunk] * 16)
    assert got.startswith(b"HTTP/1.1 413"), got[:200]


def test_deeply_nested_json_is_a_400(default_app):
    """~14 KB of nested JSON: a clear 400, not a RecursionError 500."""
    for body in (b"[" * 7000 + b"]" * 7000, b'{"url": ' + b"[" * 7000 + b"]" * 7000 + b"}"):
        status, _, raw = request("POST", f"{default_app}/api/extract", None,
                                 headers={"Content-Type": "application/json"}, data=body)
        assert status == 400, raw
        assert "nested" in json.loads(raw)["error"]


def test_api_job_fails_on_redirect_into_metadata_address(guarded_app):
    with static_site(DEMO_WWW) as site:
        for target in ("http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/"):
            status, _, raw = request("POST", f"{guarded_app}/api/extract",
                                     {"url": f"{site}/redirect?to={target}"})
            assert status == 202, raw
            job = wait_job(guarded_app, json.loads(raw)["id"])
            assert job["status"] == "failed"
            assert "refused" in job["error"] and target.split("/")[2] in job["error"]


def test_api_validates_options(guarded_app):
    base = guarded_app
    cases = [({"url": 5}, 400), ({"url": "http://x.org/", "n": "3"}, 400),
             ({"url": "http://x.org/", "method": "magic"}, 400),
             ({"url": "http://x.org/", "surprise": 1}, 400),
             ({"url": "http://x.org/", "max_loads": 1}, 400)]
    for body, code in cases:
        status, _, raw = request("POST", f"{base}/api/extract", body)
        assert status == code, (body, raw)
        assert "error" in json.loads(raw)
    status, _, _ = request("POST", f"{base}/api/extract", None,
                           {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    status, _, _ = request("GET", f"{base}/api/jobs/nope")
    assert status == 404


def test_caps_are_applied():
    limits = Limits(max_loads=7, max_n=3)
    o = UrlOptions(url="http://x.org/", n=50, max_loads=1000).capped(limits)
    assert (o.n, o.max_loads) == (3, 7)


def test_too_many_jobs_get_429():
    gate = threading.Event()

    def runner(opts, limits, progress):
        gate.wait(10)
        raise UrlRefused("stopped by the test")

    limits = Limits(allow_private=True, max_jobs=1)
    app = create_app(limits, manager=JobManager(limits, runner=runner))
    with serve_app(app) as base:
        body = {"url": "http://127.0.0.1:9/"}
        s1, _, raw1 = request("POST", f"{base}/api/extract", body)
        s2, h2, raw2 = request("POST", f"{base}/api/extract", body)
        gate.set()
        assert s1 == 202 and s2 == 429, (raw1, raw2)
        assert h2.get("retry-after")
        job = wait_job(base, json.loads(raw1)["id"])
        assert job["status"] == "failed" and "stopped by the test" in job["error"]
        s3, _, _ = request("POST", f"{base}/api/extract", body)  # slot released
        assert s3 == 202


def test_loopback_server_checks_the_host_header():
    from temex.cli.serve import loopback_hosts
    app = create_app(Limits(), allowed_hosts=loopback_hosts("127.0.0.1"))
    with serve_app(app) as base:
        ok, _, _ = request("GET", f"{base}/api/health")
        bad, _, _ = request("GET", f"{base}/api/health", headers={"Host": "evil.example"})
    assert ok == 200 and bad == 400
    assert loopback_hosts("0.0.0.0") is None


@pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)
def test_browser_source_refuses_private_requests_and_redirects(tmp_path):
    from temex.site.sources.browser import BrowserSource
    (tmp_path / "index.html").write_text(
        '<!DOCTYPE html><html><body><p>hello</p>'
        '<img src="http://10.0.0.1/pixel.png"><img src="http://169.254.169.254/x.png">'
        '</body></html>')
    with static_site(tmp_path) as site:
        src = BrowserSource(allow_private=False, guard_allow=("127.0.0.1/32",), settle=0.3)

        async def go():
            async with src:
                page = await src.get(f"{site}/index.html")
                redirected = await src.get(f"{site}/redirect?to=http://169.254.169.254/")
                private = await src.get("http://10.0.0.1/")
                return page, redirected, private

        page, redirected, private = asyncio.run(go())
    assert page.ok and b"hello" in page.body
    assert any("10.0.0.1" in u for u in src.refused)
    assert any("169.254.169.254/x.png" in u for u in src.refused)
    assert not redirected.ok and "refused" in redirected.error, redirected.error
    assert not private.ok and "refused" in private.error


NAVIGATIONS = {
    "iframe": '<iframe src="{t}/iframe"></iframe>',
    "object": '<object data="{t}/object" type="text/html"></object>',
    "embed": '<embed src="{t}/embed" type="text/html">',
    "form": '<form id="f" action="{t}/form" method="post"><input name="a" value="1"></form>'
            '<script>document.getElementById("f").submit()</script>',
    "refresh": '<meta http-equiv="refresh" content="0;url={t}/refresh">',
    "location": '<script>location = "{t}/location"</script>',
    "window": '<script>window.open("{t}/open")</script>',
    "link": '<link rel="preconnect" href="{t}"><link rel="prefetch" href="{t}/prefetch">'
            '<a href="{t}/a" id="a">a</a><script>document.getElementById("a").click()</script>',
}


@pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)
def test_rendered_navigations_never_connect_to_refused_addresses(tmp_path):
    """With the guard on, nothing the rendered page does (frames, objects,
    form submits, meta refresh, location=, window.open, preconnect) opens a
    TCP connection to a refused address: a listener there counts accepts."""
    import socket
    import time

    from temex.site.sources.browser import BrowserSource
    trap = socket.socket()
    trap.bind(("127.0.0.2", 0))
    trap.listen(64)
    trap.settimeout(0.1)
    target = f"http://127.0.0.2:{trap.getsockname()[1]}"
    accepted: list[str] = []
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            try:
                conn, _ = trap.accept()
            except OSError:
                continue
            accepted.append("connect")
            conn.close()

    counter = threading.Thread(target=count, daemon=True)
    counter.start()
    for name, body in NAVIGATIONS.items():
        (tmp_path / f"{name}.html").write_text(
            f"<!DOCTYPE html><html><head><title>{name}</title></head><body><p>{name}</p>"
            + body.format(t=target) + "</body></html>")
    try:
        with static_site(tmp_path) as site:
            src = BrowserSource(allow_private=False, guard_allow=("127.0.0.1/32",), settle=0.5,
                                timeout=10)

            async def go():
                async with src:
                    return [await src.get(f"{site}/{name}.html") for name in NAVIGATIONS]

            results = asyncio.run(go())
            time.sleep(0.5)
    finally:
        stop.set()
        counter.join(2)
        trap.close()
    assert accepted == [], f"{len(accepted)} connection(s) to a refused address"
    assert all(r.ok or "refused" in (r.error or "") for r in results), \
        [r.error for r in results]
