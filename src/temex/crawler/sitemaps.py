"""Sitemaps (sitemaps.org protocol): the ``Sitemap:`` lines of robots.txt and
``/sitemap.xml``; sitemap indexes followed (nested), gzip accepted.

The XML is read with a regular expression over ``<loc>`` elements, not an XML
parser: no entity expansion, no external entities, tolerant of broken files.
Bounded: at most ``max_files`` sitemap files, ``max_urls`` URLs, ``max_bytes``
per file (compressed and decompressed).
"""

from __future__ import annotations

import gzip
import html
import io
import re
from collections.abc import Iterable

from ..site.sources.http import HttpSource

__all__ = ["parse_sitemap", "sitemap_urls"]

_LOC = re.compile(rb"<(?:[\w-]+:)?loc\s*>\s*(.*?)\s*</(?:[\w-]+:)?loc\s*>", re.DOTALL | re.IGNORECASE)
_INDEX = re.compile(rb"<(?:[\w-]+:)?sitemapindex[\s>]", re.IGNORECASE)
_CDATA = re.compile(r"^<!\[CDATA\[(.*)\]\]>$", re.DOTALL)


def _gunzip(data: bytes, cap: int) -> bytes:
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
        out = f.read(cap + 1)
    if len(out) > cap:
        raise ValueError(f"sitemap over {cap} bytes once decompressed")
    return out


def parse_sitemap(data: bytes, cap: int = 10 * 1024 * 1024) -> tuple[bool, list[str]]:
    """``(is_index, locations)`` of one sitemap file (gzip or plain XML)."""
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, cap)
    locs = []
    for m in _LOC.finditer(data):
        s = m.group(1).decode("utf-8", "replace").strip()
        c = _CDATA.match(s)
        locs.append(html.unescape(c.group(1).strip() if c else s))
    return bool(_INDEX.search(data[:4096])), locs


async def sitemap_urls(source: HttpSource, start: str, robots_sitemaps: Iterable[str] = (),
                       max_files: int = 50, max_urls: int = 50000,
                       max_bytes: int = 10 * 1024 * 1024) -> tuple[list[str], list[str]]:
    """Page URLs listed by the site's sitemaps, and one line per sitemap that
    could not be read. Starts from robots.txt's ``Sitemap:`` lines and
    ``/sitemap.xml`` of ``start``'s origin."""
    from yarl import URL

    origin = str(URL(start).origin())
    todo = list(dict.fromkeys([*robots_sitemaps, origin + "/sitemap.xml"]))
    seen: set[str] = set()
    pages: list[str] = []
    errors: list[str] = []
    while todo and len(seen) < max_files and len(pages) < max_urls:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.add(url)
        res = await source.get_resource(url, max_bytes=max_bytes)
        if not res.ok:
            if res.status != 404:
                errors.append(f"{url}: {res.error}")
            continue
        try:
            is_index, locs = parse_sitemap(res.body, max_bytes)
        except (OSError, ValueError, EOFError) as e:
            errors.append(f"{url}: unreadable sitemap ({e})")
            continue
        if is_index:
            todo.extend(u for u in locs if u not in seen)
        else:
            pages.extend(locs[:max_urls - len(pages)])
    return pages, errors
