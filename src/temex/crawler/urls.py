"""URL normalisation, crawl scope and output paths of ``temex crawl``.

Normalisation (on top of :func:`temex.site.links.normalize_url`: lower-case
scheme and host, default port dropped, ``.``/``..`` resolved, fragment
dropped, a final ``index.html`` dropped):

* tracking parameters (``utm_*``, ``fbclid``, ``gclid``...) and session ids
  (``jsessionid``, ``phpsessid``, ``sid``...; also ``;jsessionid=`` path
  parameters) removed, the other query parameters sorted;
* the *key* of a URL (what two URLs must share to be one page) also drops a
  final ``/`` (``/a`` and ``/a/`` are one page; the URL fetched is the first
  form seen, a redirect between the two is followed).

No rule is specific to a site.
"""

from __future__ import annotations

import re
from hashlib import blake2b
from urllib.parse import parse_qsl, quote, unquote, urlencode

from yarl import URL

from ..site.links import _is_resource, normalize_url

__all__ = [
    "TRACKING_PARAMS",
    "canonical",
    "default_scope",
    "in_scope",
    "is_resource",
    "output_path",
    "url_key",
]

#: Query parameters that never change a page (tracking and session ids),
#: lower case; names ending in ``*`` are prefixes.
TRACKING_PARAMS = frozenset({
    "utm_*", "fbclid", "gclid", "dclid", "gclsrc", "msclkid", "yclid", "igshid", "mc_cid",
    "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok", "vero_id", "oly_enc_id",
    "oly_anon_id", "wickedid", "jsessionid", "phpsessid", "aspsessionid*", "sid", "sessionid",
    "session_id", "cfid", "cftoken", "zenid", "oscsid", "sessid"})
_PREFIXES = tuple(p[:-1] for p in TRACKING_PARAMS if p.endswith("*"))
_PATH_SESSION = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*", re.IGNORECASE)


def _tracking(name: str) -> bool:
    n = name.lower()
    return n in TRACKING_PARAMS or n.startswith(_PREFIXES)


def canonical(href: str, base: str = "") -> str | None:
    """Absolute normalised URL of ``href`` (resolved against ``base``), or
    None for non-http(s) and unparsable links."""
    url = normalize_url(href, base or href)
    if url is None:
        return None
    u = URL(url)
    path = u.raw_path
    if ";" in path:
        path = _PATH_SESSION.sub("", path)
    query = u.raw_query_string
    if query:
        pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True)
                 if not _tracking(k)]
        query = urlencode(sorted(pairs), quote_via=quote, safe="/:@!$'()*,;~")
    if path == u.raw_path and query == u.raw_query_string:
        return url
    try:
        return str(URL.build(scheme=u.scheme, host=u.raw_host or "", port=u.explicit_port,
                             path=path or "/", query_string=query, encoded=True))
    except ValueError:
        return url


def url_key(url: str) -> str:
    """What identifies a page: the canonical URL without a final ``/`` (except
    the root's)."""
    u = URL(url)
    path = u.raw_path
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    key = f"{u.scheme}://{u.raw_authority}{path}"
    return key + ("?" + u.raw_query_string if u.raw_query_string else "")


def default_scope(start: str) -> str:
    """The default scope of a crawl from ``start``: its scheme, host, port and
    folder (``http://h/docs/intro.html`` → ``http://h/docs/``)."""
    u = URL(start)
    path = u.raw_path or "/"
    folder = path if path.endswith("/") else path.rsplit("/", 1)[0] + "/"
    return f"{u.scheme}://{u.raw_authority}{folder}"


def in_scope(url: str, scope: str) -> bool:
    """Whether ``url`` (canonical) lies under the URL prefix ``scope``; the
    scope's own folder without its final ``/`` is in it too."""
    return url.startswith(scope) or (scope.endswith("/") and url == scope[:-1])


def is_resource(url: str) -> bool:
    """A link to a non-page resource (image, PDF, archive...) by its suffix."""
    try:
        return _is_resource(URL(url))
    except ValueError:
        return True


_UNSAFE = re.compile(r"[^\w.\-~]+", re.UNICODE)
_PAGE_SUFFIX = re.compile(r"\.(?:html?|xhtml|shtml|php\d?|aspx?|jsp|cfm)$", re.IGNORECASE)


def _segment(s: str) -> str:
    s = _UNSAFE.sub("_", unquote(s)).strip("._") or "_"
    if len(s) > 100:
        s = s[:80] + "_" + blake2b(s.encode(), digest_size=4).hexdigest()
    return s


def output_path(url: str, suffix: str = ".md") -> str:
    """Relative file path (``/``-separated) of a page's output, mirroring its
    URL path: ``/a/b/`` → ``a/b/index.md``, ``/a/b.html`` → ``a/b.md``, a query
    adds a short hash (``a/b_q1a2b3c4d.md``). Never absolute, never ``..``."""
    u = URL(url)
    raw = u.raw_path or "/"
    parts = [p for p in raw.split("/")[1:]]
    if not parts or parts[-1] == "":
        name = "index"
        parts = parts[:-1]
    else:
        name = _PAGE_SUFFIX.sub("", parts[-1]) or "index"
        parts = parts[:-1]
    folders = [_segment(p) for p in parts if p]
    name = _segment(name)
    if u.raw_query_string:
        name += "_q" + blake2b(u.raw_query_string.encode(), digest_size=4).hexdigest()
    return "/".join(folders + [name + suffix])
