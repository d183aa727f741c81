"""MirrorSource: pages from a local folder mirror of a site (offline runs).

URL paths map to files as a static web server maps them (``/a/`` →
``a/index.html``, ``/a`` → ``a`` or ``a/index.html``); the host is ignored
unless ``host`` is given. Query strings are ignored (a static mirror has one
file per path). Only ``.html``/``.htm``/``.xhtml`` files are pages.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from yarl import URL

from .base import FetchResult, PageSource

__all__ = ["MirrorSource"]

_SUFFIX_TYPES = {".html": "text/html", ".htm": "text/html",
                 ".xhtml": "application/xhtml+xml"}


class MirrorSource(PageSource):
    """Serve ``http(s)://<any host>/<path>`` from ``root``.

    Parameters
    ----------
    root : path
        Web root of the mirror (e.g. ``sites/<name>/www/<serve_root>``).
    host : str, optional
        When given, URLs of other hosts fail with "outside the mirror".
    max_bytes : int
        Files larger than this fail with "too large".

    Cost: one ``stat`` and one read per page.
    """

    def __init__(self, root: str | Path, host: str | None = None,
                 max_bytes: int = 10 * 1024 * 1024) -> None:
        super().__init__()
        self.root = Path(root).resolve()
        self.host = host.lower() if host else None
        self.max_bytes = max_bytes

    def url_for(self, path: str, host: str = "mirror.invalid") -> str:
        """A URL this source serves for a URL path (``/a/b/``)."""
        return f"http://{self.host or host}{path}"

    def file_for(self, url: str) -> Path | None:
        """The file behind ``url`` (None when outside the mirror)."""
        u = URL(url)
        path = unquote(u.raw_path or "/")
        target = (self.root / path.lstrip("/")).resolve()
        try:
            target.relative_to(self.root)
        except ValueError:
            return None
        if path.endswith("/") or target.is_dir():
            target = target / "index.html"
        return target

    async def _fetch(self, url: str) -> FetchResult:
        u = URL(url)
        if u.scheme not in ("http", "https", "file"):
            return FetchResult(url, url, error=f"unsupported scheme {u.scheme!r}")
        if self.host and u.scheme != "file" and (u.host or "") != self.host:
            return FetchResult(url, url, error=f"outside the mirror (host {u.host})")
        f = self.file_for(url)
        if f is None:
            return FetchResult(url, url, error="outside the mirror (path escapes root)")
        mime = _SUFFIX_TYPES.get(f.suffix.lower())
        if not f.is_file():
            return FetchResult(url, url, status=404, error="HTTP 404 (no such file in mirror)")
        if mime is None:
            return FetchResult(url, url, status=200,
                               error=f"not HTML (file type {f.suffix or 'none'})")
        size = f.stat().st_size
        if size > self.max_bytes:
            return FetchResult(url, url, status=200,
                               error=f"too large ({size} bytes > {self.max_bytes})")
        body = f.read_bytes()  # small local file: a thread hop costs more
        return FetchResult(url, url, status=200, body=body, media_type=mime)
