"""URL kinds: a URL with its variable parts abstracted, so that the pages of
one kind (the posts of a blog, the topics of a forum, the messages of an
archive) share one pattern (issue 9). Used to choose candidate pages of the
key page's kind (:mod:`temex.site.pool`, :mod:`temex.site.explore`) and to
tell series navigation, links to the neighbouring pages of the key page's
own kind (:func:`temex.template.detectors.rules.head_zone`)."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

__all__ = ["url_kind", "url_pattern"]

_DIGITS = re.compile(r"[0-9]+")
_HASHLIKE = re.compile(r"(?i)\b(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b")


def url_pattern(path: str) -> str:
    """A URL path (or mirrored file path) with its variable parts abstracted
    (issue 9): hash-like hex runs become ``*``, digit runs ``#``, a slug
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
