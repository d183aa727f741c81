"""Security model of ``temex serve``: the server fetches URLs for its users.

* **Address guard** — by default a URL is refused unless its host resolves only
  to public addresses: loopback, RFC 1918 / unique-local, link-local (cloud
  metadata ``169.254.169.254``), unspecified, multicast and reserved addresses
  are refused. The check runs before any connection, on the URL a user gives
  and (in :class:`temex.sources.http.HttpSource` and
  :class:`temex.web.browser.BrowserSource`) on every redirect and request.
  The rule itself is :func:`temex.sources.netguard.check_address`;
  ``--allow-private`` lifts it for local use.
* **Caps per job** — pages loaded, CS size, bytes per page, seconds per job.
* **Concurrency** — at most ``max_jobs`` jobs run at once; a request beyond
  that gets HTTP 429 (:class:`JobSlots`).
* **Isolation of shown pages** — pages and HTML outputs are served with
  ``Content-Security-Policy: sandbox`` (opaque origin, no scripts) and shown in
  an ``<iframe sandbox>`` without ``allow-scripts``/``allow-same-origin``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..errors import PageLoadError
from ..sources.netguard import AddressRefused, check_address

__all__ = [
    "APP_CSP",
    "SANDBOX_CSP",
    "JobSlots",
    "Limits",
    "UrlRefused",
    "check_url",
    "security_headers",
]

#: Header for every shown page and HTML output: no scripts, opaque origin.
SANDBOX_CSP = ("sandbox; script-src 'none'; object-src 'none'; frame-ancestors 'self'; "
               "form-action 'none'")
#: Header for the app's own page.
APP_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
           "frame-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
           "frame-ancestors 'none'; form-action 'self'")


class UrlRefused(PageLoadError):
    """A URL the server will not fetch (bad form or refused address)."""


@dataclass
class Limits:
    """Caps applied to every job of the server (and to ``temex extract``
    URLs through :func:`temex.web.jobs.extract_url`)."""

    max_loads: int = 30          #: pages requested per job, key page included
    max_n: int = 8               #: largest CS size a user may ask for
    max_bytes: int = 5 * 1024 * 1024  #: bytes per page (raw and decompressed)
    page_timeout: float = 20.0   #: seconds per page
    job_timeout: float = 120.0   #: seconds per job
    max_jobs: int = 2            #: jobs running at once (HTTP 429 beyond)
    keep_jobs: int = 50          #: finished jobs kept in memory
    max_url_length: int = 2048
    allow_private: bool = False  #: lift the address rule (``--allow-private``)
    guard_allow: tuple[str, ...] = field(default_factory=tuple)  #: explicit allow-list


def check_url(url: str, allow_private: bool = False, allow: tuple[str, ...] = (),
              *, max_length: int = 2048) -> str:
    """Validate a URL a user asks the server to fetch; returns it stripped.

    Refuses non-http(s) schemes, credentials in the URL, over-long URLs and —
    unless ``allow_private`` — hosts resolving to any non-public address
    (:func:`temex.sources.netguard.check_address`, after DNS resolution).
    Nothing is connected to. Raises :class:`UrlRefused` with a one-line reason.
    """
    url = (url or "").strip()
    if not url:
        raise UrlRefused("no URL given")
    if len(url) > max_length:
        raise UrlRefused(f"URL longer than {max_length} characters")
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError on a bad port
    except ValueError as e:
        raise UrlRefused(f"bad URL ({e})") from None
    if parts.scheme not in ("http", "https"):
        raise UrlRefused(f"only http and https URLs can be fetched (got {parts.scheme!r})")
    if not parts.hostname:
        raise UrlRefused("the URL has no host")
    if parts.username or parts.password:
        raise UrlRefused("URLs with credentials are not accepted")
    del port
    if not allow_private:
        try:
            check_address(parts.hostname, allow)
        except AddressRefused as e:
            raise UrlRefused(f"refused: {e} (only public addresses are fetched; "
                             "temex serve --allow-private lifts this for local use)") from None
    return url


class JobSlots:
    """A non-blocking counting semaphore: :meth:`try_acquire` is False when
    ``size`` jobs already run (the app answers 429)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._sem = threading.BoundedSemaphore(self.size)
        self._lock = threading.Lock()
        self.running = 0

    def try_acquire(self) -> bool:
        ok = self._sem.acquire(blocking=False)
        if ok:
            with self._lock:
                self.running += 1
        return ok

    def release(self) -> None:
        with self._lock:
            self.running -= 1
        self._sem.release()


def security_headers(csp: str) -> dict[str, str]:
    return {"Content-Security-Policy": csp, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer"}
