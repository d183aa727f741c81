"""One address guard, on by default, in every command that fetches:
``temex extract URL``, ``candidates``, ``crawl``, ``serve`` (its
JSON API) and the library entries.

Every test runs the real command in a subprocess against a real server on
127.0.0.1 that logs each request and redirects (``/redirect?to=URL``) to
private, loopback and link-local addresses. Where a refused address could
answer, a *trap* listens there (127.0.0.2, or 127.0.0.1 on another port, ::1)
and counts the connections it accepts: a refusal is only a refusal when the
trap stays at zero. Host names are resolved in process by
``tests/fakedns/sitecustomize.py`` (names under ``.test``; no DNS traffic).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from _webtools import DEMO_WWW, HAVE_CHROMIUM, NO_CHROMIUM, request, running, temex_serve
from conftest import REPO
from fakedns.sitecustomize import fake_getaddrinfo

from temex.site.sources.browser import Blackhole
from temex.site.sources.http import HttpSource
from temex.site.sources.netguard import (
    AddressRefused,
    BadAllowEntry,
    UrlRefused,
    check_address,
    check_url,
    parse_allow,
)

FAKEDNS = REPO / "tests" / "fakedns"


# -- servers ------------------------------------------------------------------

class _Handler(SimpleHTTPRequestHandler):
    """The demo site, ``/redirect?to=URL`` (302), and a log of every path."""

    log: list[str]

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.log.append(self.path)
        u = urlsplit(self.path)
        if u.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", parse_qs(u.query).get("to", ["/"])[0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()


@contextmanager
def site(root: Path = DEMO_WWW) -> Iterator[tuple[str, list[str]]]:
    """Serve ``root`` on 127.0.0.1; yields (base URL, request log)."""
    log: list[str] = []
    handler = functools.partial(type("H", (_Handler,), {"log": log}), directory=str(root))
    with running(handler) as base:
        yield base, log


class Trap(Blackhole):
    """A listener at a refused address that counts accepted connections
    (the guarded browser's own blackhole, bound elsewhere)."""


@pytest.fixture
def traps() -> Iterator[list[Trap]]:
    """Listeners on 127.0.0.2, on another port of 127.0.0.1 and on ::1."""
    made = [Trap("127.0.0.2"), Trap("127.0.0.1")]
    try:
        made.append(Trap("::1"))
    except OSError:  # no IPv6 loopback here
        pass
    try:
        yield made
    finally:
        for t in made:
            t.close()


#: Redirect targets that must be refused (no trap can listen on these).
UNREACHABLE = ["http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/",
               "http://192.168.1.1/", "http://[fd00::1]/", "http://[fe80::1]/",
               "http://0.0.0.0/", "http://[::ffff:10.0.0.1]/", "http://[2002:a9fe:a9fe::]/",
               "http://[64:ff9b::a00:1]/", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"]


def temex(*args: str, hosts: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m temex ARGS`` with the names of ``hosts`` (``name=address,...``)
    resolved in the child by tests/fakedns."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(FAKEDNS), str(REPO / "src"),
                                         env.get("PYTHONPATH", "")])
    env["TEMEX_TEST_HOSTS"] = hosts
    return subprocess.run([sys.executable, "-m", "temex", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


def hostport(base: str) -> str:
    return base.split("//", 1)[1]


def redirect(base: str, to: str) -> str:
    return f"{base}/redirect?to={quote(to, safe='')}"


# -- 1. on by default, in every command -----------------------------------------

def _url_command(cmd: str, url: str, tmp_path: Path, *extra: str, hosts: str = ""
                 ) -> subprocess.CompletedProcess[str]:
    if cmd == "crawl":
        return temex("crawl", url, "-o", str(tmp_path / "crawl"), "-q", *extra, hosts=hosts)
    return temex(cmd, url, "-n", "2", "--max-loads", "3", "-q", *extra, hosts=hosts)


@pytest.mark.parametrize("cmd", ["extract", "candidates", "crawl"])
def test_every_command_refuses_a_loopback_site_by_default(cmd: str, tmp_path: Path) -> None:
    with site() as (base, log):
        r = _url_command(cmd, base + "/about/", tmp_path)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert f"temex {cmd}: refused: 127.0.0.1 is not a public address" in r.stderr, r.stderr
    assert "--allow-host" in r.stderr and r.stderr.count("\n") == 1
    assert log == []  # nothing was sent, robots.txt included
    assert not (tmp_path / "crawl").exists()


@pytest.mark.parametrize("cmd", ["extract", "candidates", "crawl"])
def test_every_command_refuses_a_name_that_resolves_to_a_private_address(
        cmd: str, tmp_path: Path) -> None:
    """A public-looking name whose DNS answer is loopback: refused after
    resolution, before connecting (the server would have answered)."""
    with site() as (base, log):
        port = base.rsplit(":", 1)[1]
        r = _url_command(cmd, f"http://intranet.test:{port}/about/", tmp_path,
                         hosts="intranet.test=127.0.0.1")
    assert r.returncode == 1, r.stderr
    assert "intranet.test resolves to 127.0.0.1, not a public address" in r.stderr, r.stderr
    assert log == []


@pytest.mark.parametrize("address", ["::1", "::ffff:127.0.0.1", "2002:7f00:1::1",
                                     "64:ff9b::7f00:1", "fc00::1", "fe80::1", "0.0.0.0",
                                     "169.254.169.254", "100.100.100.200", "10.1.2.3"])
def test_dns_answers_of_every_refused_form_are_refused(address: str, tmp_path: Path) -> None:
    r = temex("extract", "http://site.test/", "-q", hosts=f"site.test={address}")
    assert r.returncode == 1 and "site.test resolves to" in r.stderr, r.stderr
    assert "not a public address" in r.stderr


def test_one_refused_answer_among_public_ones_refuses_the_name(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo(
        {"mixed.test": ["93.184.216.34", "10.0.0.7"]}))
    with pytest.raises(UrlRefused, match="mixed.test resolves to 10.0.0.7"):
        check_url("http://mixed.test/")


def test_dns_rebinding_between_check_and_connect_is_refused(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The name answers a public address to the check, then loopback to the
    connection: the resolver of the connection refuses it, so the loopback
    server (which would answer) sees nothing."""
    def rebinding(port: Any) -> list[str]:
        # the guard's checks ask without a port, the connection with one
        return ["93.184.216.34"] if port is None else ["127.0.0.1"]

    with site() as (base, log):
        port = base.rsplit(":", 1)[1]
        monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo({"rebind.test": rebinding}))
        src = HttpSource(allow_private=False, respect_robots=False)

        async def go():  # type: ignore[no-untyped-def]
            async with src:
                return await src.get(f"http://rebind.test:{port}/about/")

        res = asyncio.run(go())
    assert not res.ok and "refused: rebind.test resolves to 127.0.0.1" in (res.error or ""), \
        res.error
    assert log == []


def test_library_entries_are_guarded_by_default() -> None:
    import temex
    from temex.errors import PageLoadError

    with site() as (base, log):
        with pytest.raises(PageLoadError, match="refused"):
            temex.explore(base + "/about/", n=2)
        with pytest.raises(UrlRefused):
            list(temex.crawl(base + "/"))
        from temex.site.runner import UrlOptions, extract_url
        with pytest.raises(UrlRefused):
            extract_url(UrlOptions(url=base + "/about/"))
    assert log == []


# -- 3. a narrow allowance: one host:port, nothing else ---------------------------

@pytest.mark.parametrize("cmd", ["extract", "candidates"])
def test_allow_host_reaches_the_site_and_no_other_address(cmd: str, tmp_path: Path,
                                                          traps: list[Trap]) -> None:
    with site() as (base, log):
        ok = _url_command(cmd, base + "/about/", tmp_path, "--allow-host", hostport(base))
        assert ok.returncode == 0, ok.stderr
        for target in [t.url for t in traps] + UNREACHABLE:
            r = _url_command(cmd, redirect(base, target), tmp_path, "--allow-host",
                             hostport(base))
            assert r.returncode == 1, (target, r.stderr)
            assert f"temex {cmd}:" in r.stderr and "refused" in r.stderr, (target, r.stderr)
    assert [t.accepted for t in traps] == [0] * len(traps)
    assert any(p.startswith("/redirect") for p in log)


def test_crawl_with_allow_host_follows_no_redirect_into_private_ranges(
        tmp_path: Path, traps: list[Trap]) -> None:
    """A local crawl allowed its own server, whose pages
    redirect to 10.0.0.1, link-local, another loopback port and ::1."""
    www = tmp_path / "www"
    www.mkdir()
    targets = [t.url for t in traps] + UNREACHABLE
    links = "".join(f'<li><a href="/redirect?to={quote(t, safe="")}">r{k}</a></li>'
                    for k, t in enumerate(targets))
    (www / "index.html").write_text(
        f"<html><head><title>Home</title></head><body><nav><ul>{links}</ul></nav>"
        "<main><h1>Home</h1><p>A page whose links redirect elsewhere.</p></main></body></html>")
    with site(www) as (base, log):
        r = temex("crawl", base + "/", "-o", str(tmp_path / "out"), "-q", "--no-sitemaps",
                  "--allow-host", hostport(base))
    rows = [json.loads(line) for line in
            (tmp_path / "out" / "index.jsonl").read_text().splitlines()]
    failed = {row["url"]: row.get("error") or "" for row in rows if row.get("error")}
    assert len(failed) == len(targets), (r.stderr, rows)
    assert all("refused" in e for e in failed.values()), failed
    assert [t.accepted for t in traps] == [0] * len(traps)
    assert r.returncode in (0, 4), r.stderr


def test_allow_private_is_the_explicit_way_to_every_private_address(tmp_path: Path) -> None:
    with site() as (base, _log):
        r = _url_command("extract", base + "/about/", tmp_path, "--allow-private")
        old = _url_command("extract", base + "/about/", tmp_path, "--no-private",
                           "--allow-host", hostport(base))  # the old flag: still accepted
    assert r.returncode == 0, r.stderr
    assert old.returncode == 0, old.stderr


@pytest.mark.parametrize("entry, allowed, refused", [
    ("127.0.0.1:8000", [("127.0.0.1", 8000)], [("127.0.0.1", 8001), ("127.0.0.2", 8000)]),
    ("127.0.0.1", [("127.0.0.1", 1), ("127.0.0.1", 65535)], [("127.0.0.2", 80)]),
    ("[::1]:8000", [("::1", 8000)], [("::1", 80), ("127.0.0.1", 8000)]),
    ("10.0.0.0/8", [("10.9.9.9", 80)], [("192.168.0.1", 80), ("169.254.169.254", 80)]),
    ("localhost:8000", [("127.0.0.1", 8000)], [("127.0.0.1", 9000), ("10.0.0.1", 8000)]),
])
def test_allow_entries(entry: str, allowed: list[tuple[str, int]],
                       refused: list[tuple[str, int]]) -> None:
    for host, port in allowed:
        check_address(host, [entry], port=port)
    for host, port in refused:
        with pytest.raises(AddressRefused):
            check_address(host, [entry], port=port)


@pytest.mark.parametrize("entry", ["", "127.0.0.1:0", "127.0.0.1:http", "[::1", "a b",
                                   "no-such-host.test"])
def test_bad_allow_entries_are_usage_errors(entry: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo({}))
    parse_allow.cache_clear()
    with pytest.raises(BadAllowEntry):
        parse_allow(entry)
    r = temex("candidates", "http://example.test/", "--allow-host", entry)
    assert r.returncode == 2 and "--allow-host" in r.stderr, r.stderr


# -- serve: the API, and --demo (item 2) -----------------------------------------

@contextmanager
def serve(*args: str, hosts: str = "") -> Iterator[str]:
    """The real ``temex serve`` in a subprocess, names resolved by the fake
    DNS (``TEMEX_TEST_HOSTS``); yields its base URL."""
    yield from temex_serve(*args, env={"TEMEX_TEST_HOSTS": hosts}, path=(FAKEDNS,))


def _job(app: str, url: str) -> tuple[int, dict[str, Any]]:
    status, _, raw = request("POST", f"{app}/api/extract", {"url": url, "max_loads": 4})
    body = json.loads(raw)
    if status != 202:
        return status, body
    deadline = time.time() + 60
    while time.time() < deadline:
        _, _, raw = request("GET", f"{app}/api/jobs/{body['id']}")
        job = json.loads(raw)
        if job["status"] in ("done", "failed"):
            return status, job
        time.sleep(0.1)
    raise AssertionError("job did not finish")


def test_serve_demo_allows_its_own_address_and_port_only(traps: list[Trap]) -> None:
    with site() as (other, log), serve("--demo") as app:
        _, _, raw = request("GET", f"{app}/api/health")
        example = json.loads(raw)["example"]
        status, job = _job(app, example)
        assert status == 202 and job["status"] == "done", job
        for url in [other + "/about/", app + "/", *(t.url for t in traps)]:
            status, body = _job(app, url)
            assert status == 400 and "refused" in body["error"], (url, body)
    assert log == [] and [t.accepted for t in traps] == [0] * len(traps)


def test_serve_api_refuses_names_and_redirects_into_private_addresses(
        traps: list[Trap]) -> None:
    with site() as (base, log), serve("--allow-host", hostport(base),
                                      hosts="intranet.test=127.0.0.1") as app:
        port = base.rsplit(":", 1)[1]
        status, body = _job(app, f"http://intranet.test:{port}/about/")
        # the name resolves to the allowed address and port: allowed, as the address is
        assert status == 202 and body["status"] == "done", body
        status, body = _job(app, "http://intranet.test:1/")
        assert status == 400 and "intranet.test resolves to 127.0.0.1" in body["error"], body
        for target in [t.url for t in traps] + UNREACHABLE[:3]:
            status, job = _job(app, redirect(base, target))
            assert status == 202 and job["status"] == "failed", (target, job)
            assert "refused" in job["error"], (target, job)
    assert [t.accepted for t in traps] == [0] * len(traps)
    assert log


@pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)
def test_extract_render_with_allow_host_reaches_no_other_address(
        tmp_path: Path, traps: list[Trap]) -> None:
    www = tmp_path / "www"
    www.mkdir()
    imgs = "".join(f'<img src="{t.url}pixel.png">' for t in traps)
    for name in ("index", "a", "b"):
        (www / f"{name}.html").write_text(
            f"<html><head><title>{name}</title></head><body><nav><a href='/index.html'>i</a> "
            f"<a href='/a.html'>a</a> <a href='/b.html'>b</a></nav><main><p>Page {name}.</p>"
            f"{imgs}</main><footer>foot</footer></body></html>")
    with site(www) as (base, _log):
        r = temex("extract", base + "/index.html", "--render", "-q", "--max-loads", "3",
                  "--allow-host", hostport(base), timeout=180)
    assert r.returncode in (0, 3), r.stderr
    assert [t.accepted for t in traps] == [0] * len(traps)
