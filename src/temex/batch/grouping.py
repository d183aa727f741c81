"""Grouping: records by site, then pages of a site by template cluster.

Site: the registrable domain of the record's URL (public suffix list, private
section included, so ``adwords.blogspot.com`` and ``news.blogspot.com`` are two
sites, ``news.bbc.co.uk`` and ``www.bbc.co.uk`` one); IP addresses and single
labels are their own site. A local file without URL belongs to the input
folder it was found in when that folder holds HTML files itself (a mirror of
one site: ``www/index.html``, ``www/blog/...``), else to the first folder
under it (a folder of site folders, like ``content/big9/<site>/``, gives one
site each).

Template clusters (one site with several templates: articles, blog, forum;
RTDM paper §7 "multiple templates" future work): greedy leader clustering of a
sample by :func:`temex.site.pool.similarity` (Jaccard of ``tag.class``/``tag#id``
vocabularies): a page joins the most similar leader at or above
``threshold``, else starts a cluster. Every later page goes to its most similar
leader. Cost O(pages × clusters × vocabulary).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from ..page.dom import Document
from ..site.duplicates import jaccard
from ..site.pool import similarity, vocabulary
from .readers import Entry

__all__ = ["site_of_url", "site_of_entry", "group_by_site", "cluster", "cluster_vocabularies",
           "nearest"]


@lru_cache(maxsize=1)
def _psl():  # type: ignore[no-untyped-def]
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


@lru_cache(maxsize=65536)
def site_of_url(url: str) -> str | None:
    """Registrable domain of ``url`` (lower case), None without a host."""
    try:
        host = (urlsplit(url.strip()).hostname or "").rstrip(".").lower()
    except ValueError:
        return None
    if not host:
        return None
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    return _psl().privatesuffix(host) or host


@lru_cache(maxsize=1024)
def _holds_pages(folder: str) -> bool:
    """True when ``folder`` has HTML files directly in it (a site's web root)."""
    try:
        return any(p.is_file() and p.suffix.lower() in (".html", ".htm", ".xhtml")
                   for p in Path(folder).iterdir())
    except OSError:
        return False


def site_of_entry(e: Entry) -> str:
    """Site key of an entry (see module docstring)."""
    if e.url:
        s = site_of_url(e.url)
        if s:
            return s
    if e.kind == "file" and e.root:
        rel = Path(e.path).relative_to(e.root) if Path(e.path).is_relative_to(e.root) else None
        if rel is not None and len(rel.parts) > 1 and not _holds_pages(e.root):
            return "dir:" + str(Path(e.root).resolve() / rel.parts[0])
        return "dir:" + str(Path(e.root).resolve())
    return f"{e.kind}:{e.path}"


def group_by_site(entries: Sequence[Entry]) -> dict[str, list[Entry]]:
    """Entries per site, in input order (sites in order of first record)."""
    out: dict[str, list[Entry]] = {}
    for e in entries:
        out.setdefault(site_of_entry(e), []).append(e)
    return out


def cluster(docs: Sequence[Document], threshold: float = 0.5) -> list[list[int]]:
    """Greedy leader clustering of ``docs`` (indices; leaders first)."""
    return cluster_vocabularies([vocabulary(d) for d in docs], threshold)


def cluster_vocabularies(vocabs: Sequence[frozenset[str]], threshold: float = 0.5
                         ) -> list[list[int]]:
    """:func:`cluster` of pages by their :func:`temex.site.pool.vocabulary`
    alone (pages that are not held in memory)."""
    clusters: list[list[int]] = []
    for k, v in enumerate(vocabs):
        best, best_s = -1, -1.0
        for c, members in enumerate(clusters):
            s = jaccard(vocabs[members[0]], v)
            if s > best_s:
                best, best_s = c, s
        if best >= 0 and best_s >= threshold:
            clusters[best].append(k)
        else:
            clusters.append([k])
    return clusters


def nearest(leaders: Sequence[Document], doc: Document) -> tuple[int, float]:
    """Index of the most similar leader and the similarity."""
    best, best_s = -1, -1.0
    for c, lead in enumerate(leaders):
        s = similarity(lead, doc)
        if s > best_s:
            best, best_s = c, s
    return best, best_s
