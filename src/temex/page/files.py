"""Reading page files: the one guarded reader of HTML files, folder listings,
and the test that a parsed file can serve as a page at all."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from ..errors import PageLoadError, ParseError
from .dom import DEFAULT_MAX_BYTES, Document, parse

__all__ = ["HTML_SUFFIXES", "MAX_REFRESH_HOPS", "html_files", "load_file", "read_page",
           "real_path", "refresh_href", "stub_href", "unusable"]

HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def read_page(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of an HTML file, refused before reading when they cannot be a
    page: not a regular file (a FIFO would block the run forever, a device
    never ends) raises :class:`PageLoadError`; over ``max_bytes`` raises
    :class:`ParseError` without reading it. Other OSErrors (missing, vanished,
    symlink loop) pass through."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise PageLoadError(errno.EINVAL, "not a regular file", str(path))
        if st.st_size > max_bytes:
            raise ParseError(f"{path}: {st.st_size} bytes is over the limit of {max_bytes}")
        data = fh.read(st.st_size + 1)  # (read(n) allocates n bytes first)
        if len(data) > st.st_size:  # grew while we read it
            data += fh.read(max_bytes + 1 - len(data))
    if len(data) > max_bytes:  # grew while we read it
        raise ParseError(f"{path}: over the limit of {max_bytes} bytes")
    return data


def real_path(path: str | os.PathLike[str]) -> Path:
    """``Path.resolve`` that never raises: Python 3.11 raises RuntimeError on
    a symlink loop; the loop then stays unresolved and fails when read."""
    return Path(os.path.realpath(path))


def load_file(path: str | os.PathLike[str]) -> Document:
    """Read and parse one HTML file. Raises OSError or ParseError."""
    return parse(read_page(path), url=str(path))


def html_files(folder: Path) -> list[Path]:
    """All HTML files under ``folder``, sorted (deterministic)."""
    out = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for f in sorted(files):
            if f.lower().endswith(HTML_SUFFIXES):
                out.append(Path(root) / f)
    return out


_FEED_TAGS = frozenset({"rss", "feed", "rdf:rdf", "channel", "urlset", "sitemapindex"})


#: ``content`` of ``<meta http-equiv=refresh>``: a delay, then the target
#: (``0; URL='/new/'``, ``0;url=/new/``, ``/new/``).
_REFRESH_URL = re.compile(r"^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?['\"]?([^'\"]+)", re.IGNORECASE)


#: Meta-refresh redirect stubs followed from a key page, at most (live:
#: :func:`temex.site.loading.load_key`; a file: :func:`temex.api.follow_key_stubs`).
MAX_REFRESH_HOPS = 5


def refresh_href(doc: Document) -> str | None:
    """The target of the page's ``<meta http-equiv=refresh>`` as written
    (relative to the page), or None: no such element, or one that only
    reloads the page after a delay (``content="30"``)."""
    for i in range(doc.body if doc.body >= 0 else len(doc)):
        if doc.tag[i] == "meta":
            a = {k.lower(): v for k, v in doc.attrs[i]}
            if a.get("http-equiv", "").lower() == "refresh":
                m = _REFRESH_URL.match(a.get("content", ""))
                if m and not m.group(1).strip().isdigit():
                    return m.group(1).strip()
    return None


def stub_href(doc: Document, reason: str | None) -> str | None:
    """The meta-refresh target (as written) of a page that :func:`unusable`
    turned down for ``reason``, when it is a redirect stub, or an empty
    body with a meta refresh (a stub as well); else None."""
    if reason and reason.startswith(("redirect stub", "empty page")):
        return refresh_href(doc)
    return None


def unusable(doc: Document) -> str | None:
    """Why a parsed page cannot serve as a candidate, or None: no body, an
    empty body, an RSS/Atom feed or sitemap saved as HTML, or a redirect stub
    (``<meta http-equiv=refresh>`` with next to nothing in the body)."""
    b = doc.body
    if b < 0:
        return "no page body"
    if any(doc.tag[i] in _FEED_TAGS for i in range(b, min(len(doc), b + 4))):
        return "a feed or sitemap, not a page"
    if doc.size[b] < 2 and not doc.text[b]:
        return "empty page"
    for i in range(b):
        if doc.tag[i] == "meta" and dict(doc.attrs[i]).get("http-equiv", "").lower() == "refresh":
            if doc.size[b] < 10:
                return "redirect stub (meta refresh)"
    return None
