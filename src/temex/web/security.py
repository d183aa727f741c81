"""Security model of ``temex serve``: the server fetches URLs for its users.

* **Address guard** — by default a URL is refused unless its host resolves only
  to public addresses: loopback, RFC 1918 / unique-local, link-local (cloud
  metadata ``169.254.169.254``), unspecified, multicast and reserved addresses
  are refused. The check runs before any connection, on the URL a user gives
  and (in :class:`temex.site.sources.http.HttpSource` and
  :class:`temex.site.sources.browser.BrowserSource`) on every redirect and request.
  The rule itself is :func:`temex.site.sources.netguard.check_address`;
  ``--allow-host HOST[:PORT]`` makes one exception (``--demo``: the demo
  server's own address and port), ``--allow-private`` lifts it for local use.
* **Caps per job** — pages loaded, CS size, bytes per page, seconds per job.
* **Concurrency** — at most ``max_jobs`` jobs run at once; a request beyond
  that gets HTTP 429 (:class:`JobSlots`).
* **Isolation of shown pages** — pages and HTML outputs are served with
  ``Content-Security-Policy: sandbox`` (opaque origin, no scripts) and shown in
  an ``<iframe sandbox>`` without ``allow-scripts``/``allow-same-origin``.
"""

from __future__ import annotations

import threading

from ..site.runner import Limits
from ..site.sources.netguard import UrlRefused, check_url

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
