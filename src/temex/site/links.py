"""Links of a page and the order in which to explore them.

Implements, on :class:`temex.page.dom.Document`, the hyperlink analysis of
"Finding webpages sharing a template by hyperlink analysis" (hyperlink paper)
§3.2–3.3:

* :func:`get_links` — getLinks of Alg. 2: the page's distinct links, self-links
  removed. Like the authors' implementation (footnote 3) links to other sites
  are dropped; "same site" means the same registrable domain (public suffix
  list), or the same host with ``same_host=True``. Links to non-HTML resources
  (images, PDFs, archives, media, CSS/JS) and ``mailto:``/``javascript:``/
  ``tel:`` are dropped too: they cannot hold the template.
* :func:`hyperlink` / :func:`hdistance` — Def. 1 and Def. 2.
* :func:`ddistance` — Def. 3 (DOM distance).
* :func:`link_rank` — Def. 4 (link relevance) as a sort key.
* :func:`sort_links` — Alg. 1 (link relevance levels, each ordered by DOM
  relevance, Def. 5).

Departure: in Def. 1 a hyperlink is a sequence of directories; we put the host
first (``[host, dir1, dir2, ...]``) so that a link to another subdomain has a
different head and gets distance ``-|h|``, as Def. 2's last case intends for
"another domain". The resource name (last path segment without a trailing
slash) is ignored, as Def. 1 says.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from yarl import URL

from ..page.dom import Document

__all__ = [
    "NON_HTML_SUFFIXES",
    "Link",
    "base_url",
    "ddistance",
    "get_links",
    "hdistance",
    "hyperlink",
    "link_rank",
    "normalize_url",
    "same_site",
    "site_key",
    "sort_links",
]

#: File suffixes of resources that are not web pages.
NON_HTML_SUFFIXES = frozenset(["jpg", "jpeg", "png", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "heic", "pdf", "ps", "eps", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "csv", "epub", "mobi", "zip", "gz", "tgz", "bz2", "xz", "7z", "rar", "tar", "zst", "dmg", "iso", "exe", "msi", "deb", "rpm", "apk", "jar", "whl", "mp3", "mp4", "m4a", "m4v", "ogg", "oga", "ogv", "wav", "webm", "flac", "avi", "mov", "mkv", "wmv", "mpg", "mpeg", "css", "js", "mjs", "json", "map", "xml", "rss", "atom", "txt", "woff", "woff2", "ttf", "otf", "eot", "wasm"])


@dataclass(frozen=True)
class Link:
    """A distinct link of a page.

    Attributes
    ----------
    url : str
        Absolute, normalised URL (no fragment).
    node : int
        The first ``<a>`` element pointing to it (document order).
    nodes : tuple of int
        All ``<a>`` elements pointing to it.
    text : str
        Text of the first anchor (own text of the anchor and its descendants).
    """

    url: str
    node: int
    nodes: tuple[int, ...]
    text: str


def normalize_url(href: str, base: str | URL) -> str | None:
    """Resolve ``href`` against ``base`` and normalise it with yarl: lower-case
    scheme and host, default port dropped, ``.``/``..`` resolved, fragment
    dropped, a final ``index.html``/``index.htm`` dropped (``/a/index.html`` →
    ``/a/``; our departure: the same page under two names would otherwise be
    two links). Returns None for non-http(s) links and unparsable ones."""
    href = href.strip()
    if not href or href.startswith("#"):
        return None
    low = href[:11].lower()
    if low.startswith(("mailto:", "javascript:", "tel:", "data:", "sms:", "ftp:", "file:")):
        return None
    try:
        b = base if isinstance(base, URL) else URL(base)
        u = b.join(URL(href)) if b.is_absolute() else URL(href)
    except (ValueError, TypeError):
        return None
    if u.scheme not in ("http", "https") or not u.host:
        return None
    u = u.with_fragment(None)
    path = u.raw_path
    if not path:
        u = u.with_path("/")
    elif path.endswith(("/index.html", "/index.htm")):
        # ``/a/index.html`` and ``/a/`` are the same page on (nearly) every server
        u = URL.build(scheme=u.scheme, host=u.raw_host or "", port=u.explicit_port,
                      path=path.rsplit("/", 1)[0] + "/", query_string=u.raw_query_string,
                      encoded=True)
    return str(u)


def base_url(doc: Document) -> str:
    """The base URL of ``doc``: its ``<base href>`` (resolved), else its URL."""
    for i, t in enumerate(doc.tag):
        if t == "base":
            href = dict(doc.attrs[i]).get("href")
            if href:
                resolved = normalize_url(href, doc.url) if doc.url else None
                if resolved:
                    return resolved
            break
        if t == "body":
            break
    return doc.url


@lru_cache(maxsize=1)
def _psl() -> object:
    from publicsuffixlist import PublicSuffixList
    return PublicSuffixList()


@lru_cache(maxsize=4096)
def _site_of_host(host: str) -> str | None:
    """Registrable domain of ``host``; None for IP addresses, single-label
    hosts and public suffixes themselves."""
    try:
        ipaddress.ip_address(host.strip("[]"))
        return None
    except ValueError:
        pass
    if "." not in host:
        return None
    psl = _psl()
    return psl.privatesuffix(host)  # type: ignore[attr-defined, no-any-return]


def site_key(url: str, same_host: bool = False) -> str:
    """What two URLs must share to be on the same site: the registrable domain
    (``www.bbc.co.uk`` → ``bbc.co.uk``); for IP addresses, single-label hosts
    and ``same_host=True``, the host and port."""
    u = URL(url)
    host = (u.host or "").lower()
    if same_host:
        return f"{host}:{u.port}"
    site = _site_of_host(host)
    return site if site else f"{host}:{u.port}"


def same_site(a: str, b: str, same_host: bool = False) -> bool:
    """True when ``a`` and ``b`` are on the same site (see :func:`site_key`)."""
    return site_key(a, same_host) == site_key(b, same_host)


def _is_resource(url: URL) -> bool:
    name = url.path.rsplit("/", 1)[-1]
    if "." not in name:
        return False
    return name.rsplit(".", 1)[-1].lower() in NON_HTML_SUFFIXES


def get_links(doc: Document, *, same_host: bool = False, same_site_only: bool = True
              ) -> list[Link]:
    """getLinks (hyperlink paper Alg. 2): the distinct links of ``doc``.

    Anchors are ``<a href>`` elements (``<area>`` too); hrefs are resolved
    against :func:`base_url`. Self-links (the page's own URL) are removed, as
    are non-page resources and, when ``same_site_only``, links to other sites.
    Order: first occurrence in the document.

    Cost: O(n) for n elements plus one URL parse per anchor.
    """
    base = base_url(doc)
    try:
        own = normalize_url(doc.url, doc.url) if doc.url else None
        base_u = URL(base)
    except ValueError:
        return []
    own_site = site_key(own, same_host) if own else None
    found: dict[str, list[int]] = {}
    for i, t in enumerate(doc.tag):
        if t != "a" and t != "area":
            continue
        href = dict(doc.attrs[i]).get("href")
        if not href:
            continue
        url = normalize_url(href, base_u)
        if url is None or url == own:
            continue
        if url in found:
            found[url].append(i)
            continue
        u = URL(url)
        if _is_resource(u):
            continue
        if same_site_only and own_site is not None and site_key(url, same_host) != own_site:
            continue
        found[url] = [i]
    return [Link(url, nodes[0], tuple(nodes), _anchor_text(doc, nodes[0]))
            for url, nodes in found.items()]


def _anchor_text(doc: Document, a: int) -> str:
    parts = [doc.text[j] for j in doc.descendants(a) if doc.text[j]]
    return " ".join(parts)[:200]


# -- Def. 1 and Def. 2 -----------------------------------------------------------
def hyperlink(url: str) -> tuple[str, ...]:
    """Def. 1: the hyperlink of a URL as a sequence of words ``host/dir/.../``
    (the resource name after the last slash is ignored)."""
    u = URL(url)
    segs = [s for s in u.path.split("/")]
    dirs = [s for s in segs[:-1] if s]  # last segment is the resource name
    return ((u.host or "").lower(), *dirs)


def hdistance(h: Sequence[str], h2: Sequence[str]) -> int:
    """Def. 2, hyperlink distance from ``h`` to ``h2``.

    0 when equal; ``+|h1|`` when ``h2 = h h1`` (a subdirectory); ``-|h1|`` when
    ``h = h2 h1`` (an ancestor) or when they part after a common prefix ``h0``
    (``h = h0 h1``); ``-|h|`` when the heads differ (``h0`` empty).

    >>> hdistance(("research", "maths"), ("research", "maths", "geometry"))
    1
    >>> hdistance(("research", "maths"), ("www.upv.es", "research"))
    -2
    """
    c = 0
    for a, b in zip(h, h2):
        if a != b:
            break
        c += 1
    if c == len(h):
        return len(h2) - c  # 0 when equal, +|h1| when h2 extends h
    return -(len(h) - c)


def link_rank(hd: int) -> tuple[int, int]:
    """Def. 4 as a sort key: distance 0 first, then positive distances from the
    smallest, then negative ones from the closest to 0."""
    return (0, hd) if hd >= 0 else (1, -hd)


# -- Def. 3 ------------------------------------------------------------------------
def ddistance(doc: Document, n: int, m: int) -> int:
    """Def. 3, DOM distance: edges from ``n`` and ``m`` up to their lowest
    common ancestor (j + k), 0 when ``n == m``. Cost O(depth)."""
    a, b = n, m
    depth, parent = doc.depth, doc.parent
    d = 0
    while depth[a] > depth[b]:
        a = parent[a]
        d += 1
    while depth[b] > depth[a]:
        b = parent[b]
        d += 1
    while a != b:
        a, b = parent[a], parent[b]
        d += 2
    return d


# -- Alg. 1 -------------------------------------------------------------------------
def sort_links(doc: Document, links: Sequence[Link], reference: str) -> list[Link]:
    """Alg. 1 (sortLinks): order ``links`` for exploration.

    Links are grouped by link relevance (Def. 4, hyperlink distance from the
    ``reference`` URL, normally the key page's); groups come in relevance
    order. Inside a group, links are picked one at a time by DOM relevance
    (Def. 5): the next link is the one farthest (largest minimum DOM distance)
    from the links of the group already picked; with none picked yet all are
    equal. Ties keep document order (our choice; the paper leaves them open).

    Cost: O(L² · depth) for L links (the minimum distances are updated
    incrementally: one DOM distance per remaining link per pick).
    """
    ref = hyperlink(reference)
    groups: dict[tuple[int, int], list[Link]] = {}
    for ln in links:
        groups.setdefault(link_rank(hdistance(ref, hyperlink(ln.url))), []).append(ln)
    out: list[Link] = []
    for key in sorted(groups):
        rest = list(groups[key])
        mind = [float("inf")] * len(rest)
        while rest:
            best = max(range(len(rest)), key=lambda k: (mind[k], -k))
            picked = rest.pop(best)
            mind.pop(best)
            out.append(picked)
            for k, ln in enumerate(rest):
                d = ddistance(doc, picked.node, ln.node)
                mind[k] = min(mind[k], d)
    return out
