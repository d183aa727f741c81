"""URL kinds: a URL with its variable parts abstracted, so that the pages of
one kind (the posts of a blog, the topics of a forum, the messages of an
archive) share one pattern. Used to choose candidate pages of the
key page's kind (:mod:`temex.site.pool`, :mod:`temex.site.explore`), to
tell series navigation, links to the neighbouring pages of the key page's
own kind (:func:`temex.template.rules.head_zone.head_zone`), and to tell
which compared pages are the key page's peers (:func:`kind_peer`: the
kind vote of :class:`temex.template.detectors.vote.VoteDetector`)."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

__all__ = ["FOLDER_PAGES", "folder_of", "kind_peer", "url_kind", "url_pattern"]

_DIGITS = re.compile(r"[0-9]+")
_HASHLIKE = re.compile(r"(?i)\b(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b")


def url_pattern(path: str) -> str:
    """A URL path (or mirrored file path) with its variable parts abstracted:
    hash-like hex runs become ``*``, digit runs ``#``, a slug
    segment (three or more words joined by ``-``) ``*`` (its extension
    kept), query values ``*``: ``showthread.php?t=4331`` and
    ``showthread.php-t=5888.html`` give the pattern of their kind,
    ``forumdisplay.php-f=#.html`` another; ``/products/blue-pillow-case.html``
    and ``/products/white-bed-sheet.html`` one."""
    base, _, query = path.partition("?")
    segments = []
    for seg in _DIGITS.sub("#", _HASHLIKE.sub("*", base)).split("/"):
        stem, dot, ext = seg.rpartition(".") if "." in seg else (seg, "", "")
        if len([w for w in stem.split("-") if w]) >= 3:
            seg = "*" + dot + ext
        segments.append(seg)
    base = "/".join(segments)
    if query:
        keys = sorted(kv.split("=", 1)[0] for kv in query.split("&") if kv)
        base += "?" + "&".join(k + "=*" for k in keys)
    return base


def url_kind(url: str, base: str = "") -> str:
    """:func:`url_pattern` of ``url`` (resolved against ``base`` when given)
    without its scheme, host and fragment, its query kept:
    ``url_kind("0101.html", "/archive/0100.html")`` is ``/archive/#.html``."""
    parts = urlsplit(urljoin(base, url) if base else url)
    return url_pattern(parts.path + ("?" + parts.query if parts.query else ""))


#: Last path segments that name a folder's own page (``/en/index.html`` is
#: the page of ``/en/``).
FOLDER_PAGES = frozenset({"index.html", "index.htm", "index.php", "index.shtml",
                          "default.htm", "default.html", "default.asp", "default.aspx"})


def folder_of(path: str) -> str:
    """``path`` as the folder it is the page of: ``/en/index.html`` and
    ``/en/`` give ``/en/``; a page that is no folder's page keeps its name."""
    head, _, last = path.rpartition("/")
    if last.lower() in FOLDER_PAGES or not last:
        return head + "/"
    return path


def _sibling_key(page: str) -> tuple[str, str]:
    """The folder of a :func:`folder_of` page as a pattern, and what the page
    is in it (``/`` a folder's page, else its extension)."""
    head, _, last = page.rstrip("/").rpartition("/")
    shape = "/" if page.endswith("/") else last.rpartition(".")[2] if "." in last else ""
    return url_pattern(head), shape


def kind_peer(key_url: str, url: str) -> bool:
    """Whether the page at ``url`` is of the key page's kind by its address,
    the rule by which candidates are ordered (:mod:`temex.site.pool`,
    :func:`temex.site.link_order.kind_front`) told of a page already loaded:
    the same :func:`url_kind`; or a sibling, a page of the same shape in a
    folder of the same pattern (``/post/a/`` and ``/post/b/index.html``,
    ``/2024/05/a.html`` and ``/2023/11/b.html``); or the folder's own page
    beside a key page that is a file (``/list/`` beside ``/list/date.html``).
    Works on URLs and on mirrored file paths alike; the site's root page has
    no siblings (``/about/`` is no peer of ``/``), and a page without an
    address (parsed from a string) is no one's peer."""
    if not key_url or not url:
        return False
    if url_kind(url) == url_kind(key_url):
        return True
    key_page = folder_of(urlsplit(key_url).path)
    page = folder_of(urlsplit(url).path)
    if not key_page.strip("/"):
        return False
    if _sibling_key(page) == _sibling_key(key_page):
        return True
    return not key_page.endswith("/") and page == key_page.rpartition("/")[0] + "/"
