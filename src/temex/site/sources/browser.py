"""BrowserSource: pages rendered by headless Chromium (Playwright), so pages
built by JavaScript are seen with their real DOM (``temex extract --render``,
the ``render`` option of ``temex serve``).

It has the shape of the other page sources (:class:`temex.site.sources.base.PageSource`):
``await source.get(url)`` returns a :class:`~temex.site.sources.base.FetchResult`
whose body is the rendered HTML (``page.content()`` after the ``load`` event and
a short wait for the network to go quiet).

The browser is Debian's ``/usr/bin/chromium`` (``TEMEX_CHROMIUM`` overrides);
nothing is downloaded. It is started on the first page and closed by
:meth:`aclose` (``explore`` calls it at the end of a run).

Address guard (``allow_private=False``): every request the page makes is
intercepted; its host is checked with
:func:`temex.site.sources.netguard.check_address` *before* anything connects, and
redirects are followed by hand so each hop is checked too (Chromium does not
route the targets of redirects). Service workers are blocked, WebSockets are
checked the same way, WebRTC is kept off non-proxied UDP.

Interception alone is not enough: Chromium opens TCP connections of its own
before a request reaches the interception layer (preconnects for frames,
objects, form submits, refreshes, ``location=``). With the guard on, every
request is fetched by Playwright's driver after the check (``route.fetch``),
so Chromium itself needs no network: it is started with a proxy that is a
local socket accepting and closing connections (:class:`Blackhole`),
loopback included (``<-loopback>``), so nothing it opens by itself reaches
any other address.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
from pathlib import Path
from typing import Any, cast
from urllib.parse import urljoin, urlsplit

from .base import FetchResult, PageSource
from .cache import DiskCache
from .netguard import AddressRefused, Unresolvable, check_address, default_port

__all__ = ["CHROMIUM_ARGS", "BrowserSource", "BrowserUnavailable", "chromium_path",
           "render_unavailable"]

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage",
                 "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"]
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_LOCAL_SCHEMES = ("data:", "blob:", "about:")


class BrowserUnavailable(RuntimeError):
    """Playwright or a Chromium binary is missing."""


def render_unavailable() -> str:
    """Why pages cannot be rendered here, in one line ("" when they can):
    the playwright package or the Chromium binary is missing."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install 'temex[render]')"
    if chromium_path() is None:
        return "Chromium is not installed (apt-get install chromium, or set TEMEX_CHROMIUM)"
    return ""


def chromium_path() -> str | None:
    """The Chromium binary to launch: ``$TEMEX_CHROMIUM``, else
    ``/usr/bin/chromium``, else ``chromium`` / ``chromium-browser`` on PATH."""
    env = os.environ.get("TEMEX_CHROMIUM")
    if env:
        return env if os.path.exists(env) else None
    if os.path.exists("/usr/bin/chromium"):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Blackhole:
    """A socket on ``host`` (127.0.0.1) that accepts connections and closes
    them: the proxy of a guarded browser, so Chromium's own connections end
    here (and, in the tests, a trap at a refused address). ``accepted``
    counts them; ``url`` is its address."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        fam = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(fam, socket.SOCK_STREAM)
        self.sock.bind((host, 0))
        self.sock.listen(128)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.url = (f"http://[{host}]:{self.port}/" if fam == socket.AF_INET6
                    else f"http://{host}:{self.port}/")
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True,
                                        name="temex-browser-blackhole")
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


class BrowserSource(PageSource):
    """Fetch pages by rendering them in headless Chromium.

    Parameters
    ----------
    timeout : float
        Seconds per page load (navigation and rendering).
    settle : float
        Extra seconds to wait for the network to go idle after ``load``.
    max_bytes : int
        Largest rendered HTML accepted.
    max_redirects : int
        Redirect hops followed per page (and per request of the page).
    allow_private : bool
        When False, refuse every request whose host resolves to a non-public
        address (default True, like :class:`~temex.site.sources.http.HttpSource`;
        the server passes False unless started with ``--allow-private``).
    guard_allow : tuple of str
        Addresses/networks accepted anyway (explicit allow-list).
    executable : str, optional
        Chromium binary (default :func:`chromium_path`).
    respect_robots : bool
        Obey robots.txt before rendering a page (default False here; the URL
        runner passes the user's choice). robots.txt is fetched over plain
        HTTP by :class:`~temex.site.sources.http.HttpSource` under the same
        address guard.
    cache_dir : str or Path, optional
        On-disk cache of rendered pages (:class:`~temex.site.sources.cache.DiskCache`).

    Cost: one browser start per run (about 1 s), then one page load with all
    its resources per URL.
    """

    def __init__(self, *, timeout: float = 20.0, settle: float = 1.5,
                 max_bytes: int = 5 * 1024 * 1024, max_redirects: int = 5,
                 allow_private: bool = True, guard_allow: tuple[str, ...] = (),
                 executable: str | None = None, concurrency: int = 2,
                 respect_robots: bool = False, cache_dir: str | Path | None = None) -> None:
        super().__init__()
        self.respect_robots = respect_robots
        self.cache = DiskCache(cache_dir) if cache_dir else None
        self._robots: Any = None  # HttpSource reading robots.txt, made on first use
        self.timeout = timeout
        self.settle = settle
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.allow_private = allow_private
        self.guard_allow = tuple(guard_allow)
        self.executable = executable
        self.refused: list[str] = []  #: URLs the guard refused (for reports/tests)
        self._pw: Any = None
        self._browser: Any = None
        self._context: Any = None
        self._lock: asyncio.Lock | None = None
        self._sem: asyncio.Semaphore | None = None
        self._concurrency = max(1, concurrency)
        self._checked: dict[tuple[str, int | None], str | None] = {}
        self._pending: dict[int, str] = {}  # id(page) -> checked redirect target
        self._blackhole: Blackhole | None = None

    # -- guard -------------------------------------------------------------------
    async def _refusal(self, url: str) -> str | None:
        """None when ``url`` may be requested, else the reason."""
        if url.startswith(_LOCAL_SCHEMES):
            return None
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
            return f"unsupported URL {url[:100]!r}"
        if self.allow_private:
            return None
        host = parts.hostname
        try:
            port = parts.port or default_port(parts.scheme)
        except ValueError:
            return f"bad port in {url[:100]!r}"
        if (host, port) not in self._checked:
            try:
                await asyncio.to_thread(check_address, host, self.guard_allow, port=port)
                self._checked[host, port] = None
            except Unresolvable as e:
                self._checked[host, port] = str(e)
            except AddressRefused as e:
                self._checked[host, port] = f"refused: {e}"
        reason = self._checked[host, port]
        if reason:
            self.refused.append(url)
        return reason

    async def _route(self, route: Any) -> None:
        """Check a request (and each redirect hop) before anything connects."""
        req = route.request
        url = req.url
        try:
            if await self._refusal(url):
                await route.abort("blockedbyclient")
                return
            if self.allow_private:
                await route.continue_()
                return
            main = req.is_navigation_request() and req.frame == req.frame.page.main_frame
            target = url
            for _ in range(self.max_redirects + 1):
                resp = await route.fetch(url=target, max_redirects=0,
                                         timeout=self.timeout * 1000)
                if resp.status not in _REDIRECTS:
                    await route.fulfill(response=resp)
                    return
                loc = resp.headers.get("location")
                if not loc:
                    await route.fulfill(response=resp)
                    return
                nxt = urljoin(target, loc)
                if await self._refusal(nxt):
                    await route.abort("blockedbyclient")
                    return
                if main:
                    # Let _load navigate to the checked target, so the page
                    # keeps its real URL (relative links resolve correctly).
                    self._pending[id(req.frame.page)] = nxt
                    await route.abort("aborted")
                    return
                target = nxt
            await route.abort("failed")
        except Exception:  # noqa: BLE001 - page closed meanwhile, etc.
            try:
                await route.abort("failed")
            except Exception:  # noqa: BLE001, S110
                pass

    async def _ws_route(self, ws: Any) -> None:
        if await self._refusal(ws.url):
            await ws.close()
        else:
            ws.connect_to_server()

    # -- browser -------------------------------------------------------------------
    async def _ensure(self) -> Any:
        if self._lock is None:
            self._lock = asyncio.Lock()
            self._sem = asyncio.Semaphore(self._concurrency)
        async with self._lock:
            if self._context is not None:
                return self._context
            try:
                from playwright.async_api import async_playwright
            except ImportError as e:  # pragma: no cover - depends on the environment
                raise BrowserUnavailable("rendering needs the 'playwright' package: "
                                         "pip install 'temex[render]'") from e
            exe = self.executable or chromium_path()
            if not exe:
                raise BrowserUnavailable("rendering needs Chromium (apt-get install chromium, "
                                         "or set TEMEX_CHROMIUM)")
            self._pw = await async_playwright().start()
            try:
                args = list(CHROMIUM_ARGS)
                if not self.allow_private:
                    self._blackhole = Blackhole()
                    args += [f"--proxy-server=http://127.0.0.1:{self._blackhole.port}",
                             "--proxy-bypass-list=<-loopback>"]
                self._browser = await self._pw.chromium.launch(executable_path=exe,
                                                               args=args)
                self._context = await self._browser.new_context(
                    service_workers="block", java_script_enabled=True,
                    user_agent=None, accept_downloads=False)
                await self._context.route("**/*", self._route)
                if not self.allow_private and hasattr(self._context, "route_web_socket"):
                    await self._context.route_web_socket("**/*", self._ws_route)
            except Exception:
                await self.aclose()
                raise
            return self._context

    async def _fetch(self, url: str) -> FetchResult:
        reason = await self._refusal(url)
        if not reason and self.respect_robots:
            reason = await self._robots_refusal(url)
        if reason:
            return FetchResult(url, url, error=reason)
        if self.cache is not None:
            hit = self.cache.get(url)
            if hit is not None:
                return hit
        res = await self._render(url)
        if self.cache is not None and res.ok:
            self.cache.put(res)
        return res

    async def _robots_refusal(self, url: str) -> str | None:
        if self._robots is None:
            from .http import HttpSource

            self._robots = HttpSource(timeout=self.timeout, allow_private=self.allow_private,
                                      guard_allow=self.guard_allow)
        reason: str | None = await self._robots.robots_refusal(url)
        return reason

    async def _render(self, url: str) -> FetchResult:
        ctx = await self._ensure()
        assert self._sem is not None
        async with self._sem:
            page = await ctx.new_page()
            try:
                return await self._load(page, url)
            finally:
                await page.close()

    async def _load(self, page: Any, url: str) -> FetchResult:
        from playwright.async_api import Error as PwError
        from playwright.async_api import TimeoutError as PwTimeout

        current, redirects = url, cast("list[str]", [])
        for _ in range(self.max_redirects + 1):
            self._pending.pop(id(page), None)
            try:
                resp = await page.goto(current, wait_until="load",
                                       timeout=self.timeout * 1000)
            except PwTimeout:
                return FetchResult(url, current, error="timeout (render)", redirects=redirects)
            except PwError as e:
                nxt = self._pending.pop(id(page), None)
                if nxt:
                    current = nxt
                    redirects.append(current)
                    continue
                msg = str(e).splitlines()[0].replace("Page.goto: ", "")
                if self.refused and "ERR_BLOCKED_BY_CLIENT" in msg:
                    msg = f"refused: {self.refused[-1]} resolves to a non-public address"
                return FetchResult(url, current, error=msg, redirects=redirects)
            break
        else:
            return FetchResult(url, current, error=f"too many redirects (more than "
                               f"{self.max_redirects})", redirects=redirects)
        status = resp.status if resp is not None else 200
        if status >= 400:
            return FetchResult(url, page.url, status=status,
                               error=f"HTTP {status} {resp.status_text if resp else ''}".strip(),
                               redirects=redirects)
        ctype = ((await resp.header_value("content-type")) or "") if resp else ""
        mime = ctype.split(";")[0].strip().lower()
        if mime and mime not in ("text/html", "application/xhtml+xml"):
            return FetchResult(url, page.url, status=status, media_type=mime,
                               error=f"not HTML (content type {mime})", redirects=redirects)
        try:
            await page.wait_for_load_state("networkidle", timeout=self.settle * 1000)
        except PwTimeout:
            pass  # a page that keeps polling: take its DOM as it is now
        html = await page.content()
        body = html.encode("utf-8")
        if len(body) > self.max_bytes:
            return FetchResult(url, page.url, status=status,
                               error=f"too large (rendered HTML over {self.max_bytes} bytes)",
                               redirects=redirects)
        return FetchResult(url, page.url, status=status, body=body, charset="utf-8",
                           media_type="text/html", redirects=redirects)

    async def aclose(self) -> None:
        """Close the browser (counters stay; the next ``get`` starts a new one)."""
        for obj, meth in ((self._context, "close"), (self._browser, "close"),
                          (self._pw, "stop")):
            if obj is not None:
                try:
                    await getattr(obj, meth)()
                except Exception:  # noqa: BLE001, S110 - already gone
                    pass
        self._context = self._browser = self._pw = None
        if self._blackhole is not None:
            self._blackhole.close()
            self._blackhole = None
        if self._robots is not None:
            await self._robots.aclose()
        self._lock = None
        self._sem = None
