"""Pages of a live site as Documents: :func:`load_document` (fetched,
parsed, usable or a :class:`~temex.errors.PageError`) and :func:`load_key`
(the key page, reached through meta-refresh stubs as a browser does).
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from ..errors import PageError, ParseError
from ..page.dom import Document, parse
from ..page.files import MAX_REFRESH_HOPS, stub_href, unusable
from .duplicates import same_page_url
from .sources.base import PageSource

__all__ = ["load_document", "load_key"]


async def _fetched(source: PageSource, url: str) -> Document | PageError:
    """``url`` fetched with ``source`` and parsed, usable or not."""
    res = await source.get(url)
    if not res.ok:
        return PageError(url, res.error or "failed")
    try:
        return parse(res.body, url=res.final_url or url, declared_encoding=res.charset)
    except ParseError as e:
        return PageError(url, str(e))


async def load_document(source: PageSource, url: str) -> Document | PageError:
    """Fetch ``url`` with ``source`` and parse it; failures become PageError."""
    doc = await _fetched(source, url)
    if isinstance(doc, PageError):
        return doc
    reason = unusable(doc)
    if reason:
        return PageError(url, reason)
    return doc


async def load_key(source: PageSource, url: str) -> tuple[Document | PageError, list[str]]:
    """The key page at ``url``, a redirect stub followed as a browser does:
    a page that is a ``<meta http-equiv=refresh>`` naming another address
    and next to nothing else (generated manuals keep one per old anchor) is
    not the page the reader gets, its target is. At most
    :data:`MAX_REFRESH_HOPS` stubs, never back to one passed (a loop is an
    error), each through ``source`` (its address guard included). Returns
    the page, or why it cannot be had, and the stubs passed, in order."""
    passed: list[str] = []
    at = url
    while True:
        doc = await _fetched(source, at)
        if isinstance(doc, PageError) and passed:  # say where the stub sent us
            return PageError(url, f"its meta refresh to {at}: {doc.error}"), passed
        if isinstance(doc, PageError):
            return doc, passed
        reason = unusable(doc)
        if not reason:
            return doc, passed
        href = stub_href(doc, reason)
        target = urljoin(doc.url or at, href) if href else ""
        if not target or urlsplit(target).scheme not in ("http", "https", urlsplit(at).scheme):
            return PageError(url, f"its meta refresh to {at}: {reason}" if passed else reason), \
                passed
        passed.append(doc.url or at)
        seen = {same_page_url(u) for u in [url, *passed]}
        if same_page_url(target) in seen:
            return PageError(url, f"meta-refresh redirect loop back to {target}"), passed
        if len(passed) > MAX_REFRESH_HOPS:
            return PageError(url, f"more than {MAX_REFRESH_HOPS} meta-refresh redirects"), passed
        at = target
