"""A page's metadata: title, authors, publication date, site name, language,
canonical URL, description.

Four sources, read in one pass over the parsed page, each field taken from the
first source that has it in this order: JSON-LD (``<script
type="application/ld+json">``: ``headline``/``name``, ``author``,
``datePublished``, ``publisher.name``, ``inLanguage``, ``url``,
``description``, ``@graph`` lists included), Open Graph (``og:*``,
``article:*``), plain ``<meta>`` (``author``, ``description``, ``date``,
``dc.*``, ``citation_*``), then the page itself (``<title>``, ``<html
lang>``, ``<link rel=canonical>``, ``<time datetime>``) and its visible byline
(``rel=author``, ``itemprop=author``, an element named ``byline``/``author``).
``sources`` says which source gave each field.

Used by the JSON reports (:meth:`temex.content.extract.Content.report`,
:func:`temex.content.render.render`), batch rows, the crawl index and the
Markdown front matter. Standard library only (``json``, ``urllib``). O(n).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from ..page.dom import Document

__all__ = ["FIELDS", "base_url", "front_matter", "page_metadata"]

#: The fields of :func:`page_metadata`, in output order.
FIELDS = ("title", "authors", "date", "site_name", "language", "canonical", "description")

_MAX = 1000  # characters kept of one value
_BYLINE_MAX = 120
_BY = re.compile(r"^\s*(?:posted by|written by|by|von|par|por|door|di)\s*[:\-]?\s+", re.IGNORECASE)
_NAME_WORD = re.compile(r"(?:^|[^a-z])(byline|author|autor|auteur|writer)(?:[^a-z]|$)")

# <meta name/property> -> (field, source)
_META: dict[str, tuple[str, str]] = {
    "og:title": ("title", "opengraph"), "og:site_name": ("site_name", "opengraph"),
    "og:description": ("description", "opengraph"), "og:url": ("canonical", "opengraph"),
    "og:locale": ("language", "opengraph"),
    "article:author": ("authors", "opengraph"),
    "article:published_time": ("date", "opengraph"),
    "og:article:published_time": ("date", "opengraph"),
    "author": ("authors", "meta"), "dc.creator": ("authors", "meta"),
    "dc.creator.author": ("authors", "meta"), "citation_author": ("authors", "meta"),
    "sailthru.author": ("authors", "meta"), "parsely-author": ("authors", "meta"),
    "description": ("description", "meta"), "dc.description": ("description", "meta"),
    "date": ("date", "meta"), "dc.date": ("date", "meta"), "dc.date.issued": ("date", "meta"),
    "citation_publication_date": ("date", "meta"), "pubdate": ("date", "meta"),
    "publish-date": ("date", "meta"), "sailthru.date": ("date", "meta"),
    "parsely-pub-date": ("date", "meta"), "dcterms.date": ("date", "meta"),
    "application-name": ("site_name", "meta"), "dc.publisher": ("site_name", "meta"),
    "dc.title": ("title", "meta"), "dc.language": ("language", "meta"),
    "content-language": ("language", "meta"),
}
_SOURCE_ORDER = ("jsonld", "opengraph", "meta", "page", "byline")
#: Fields read in another order: the page's own ``lang`` before ``og:locale``.
_FIELD_ORDER = {"language": ("jsonld", "page", "meta", "opengraph", "byline")}


def _clean(s: str) -> str:
    return " ".join(s.split())[:_MAX]


def base_url(doc: Document) -> str:
    """The URL relative links of ``doc`` resolve against: the first ``<base
    href>`` (itself resolved against the page URL), else the page URL."""
    end = doc.body if doc.body >= 0 else len(doc)
    for i in range(end):
        if doc.tag[i] == "base":
            href = dict(doc.attrs[i]).get("href", "").strip()
            if href:
                return urljoin(doc.url, href) if doc.url else href
    return doc.url


def _names(value: Any) -> list[str]:
    """Author names of a JSON-LD ``author`` value (string, object, list)."""
    out: list[str] = []
    items = value if isinstance(value, list) else [value]
    for v in items:
        if isinstance(v, str):
            out.append(_clean(v))
        elif isinstance(v, dict) and isinstance(v.get("name"), str):
            out.append(_clean(v["name"]))
    return [n for n in out if n]


def _jsonld_objects(text: str) -> list[dict[str, Any]]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    out: list[dict[str, Any]] = []
    stack = [data]
    while stack and len(out) < 100:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            out.append(v)
            if isinstance(v.get("@graph"), list):
                stack.extend(reversed(v["@graph"]))
    return out


_ARTICLE = re.compile(r"article|posting|report|blog|news|webpage|creativework", re.IGNORECASE)


def _from_jsonld(obj: dict[str, Any], put: Any) -> None:
    kind = obj.get("@type", "")
    kinds = " ".join(kind) if isinstance(kind, list) else str(kind)
    if kinds.lower() in ("website", "organization"):
        if isinstance(obj.get("name"), str):
            put("site_name", _clean(obj["name"]), "jsonld")
        return
    if not _ARTICLE.search(kinds):
        return
    for key in ("headline", "name"):
        if isinstance(obj.get(key), str):
            put("title", _clean(obj[key]), "jsonld")
            break
    if "author" in obj:
        put("authors", _names(obj["author"]), "jsonld")
    for key in ("datePublished", "dateCreated"):
        if isinstance(obj.get(key), str):
            put("date", _clean(obj[key]), "jsonld")
            break
    pub = obj.get("publisher")
    if isinstance(pub, dict) and isinstance(pub.get("name"), str):
        put("site_name", _clean(pub["name"]), "jsonld")
    if isinstance(obj.get("inLanguage"), str):
        put("language", _clean(obj["inLanguage"]), "jsonld")
    if isinstance(obj.get("description"), str):
        put("description", _clean(obj["description"]), "jsonld")
    url = obj.get("url") or obj.get("mainEntityOfPage")
    if isinstance(url, dict):
        url = url.get("@id")
    if isinstance(url, str) and url.startswith(("http://", "https://")):
        put("canonical", url.strip(), "jsonld")


def _byline(doc: Document, i: int) -> str:
    text = doc.subtree_text(i)
    text = _BY.sub("", text).strip(" ,|·-–—")
    if not text or len(text) > _BYLINE_MAX or not any(c.isalpha() for c in text):
        return ""
    return _clean(text)


def page_metadata(doc: Document) -> dict[str, Any]:
    """The metadata of ``doc``: every field of :data:`FIELDS` (``authors`` a
    list, the others a string; missing ones ``None``/empty list) and
    ``sources``: the source of each field found (``jsonld``, ``opengraph``,
    ``meta``, ``page``, ``byline``)."""
    found: dict[str, dict[str, Any]] = {s: {} for s in _SOURCE_ORDER}

    def put(name: str, value: Any, source: str) -> None:
        if value and name not in found[source]:
            found[source][name] = value

    if len(doc):
        lang = dict(doc.attrs[0]).get("lang", "").strip()
        put("language", lang, "page")
    base = base_url(doc)
    byline_done = False
    tags, attrs, ids, classes, body = doc.tag, doc.attrs, doc.id, doc.classes, doc.body
    named_memo: dict[tuple[str, tuple[str, ...]], bool] = {}  # names repeat on a page
    # an element without attributes, id or classes can only be a <title> (most
    # elements of a page: left out by one comprehension, without a dict)
    for i in [i for i in range(len(doc)) if attrs[i] or ids[i] or classes[i] or tags[i] == "title"]:
        t = tags[i]
        a = dict(attrs[i]) if attrs[i] else {}
        if t == "meta":
            name = (a.get("name") or a.get("property") or a.get("itemprop")
                    or a.get("http-equiv") or "").strip().lower()
            content = _clean(a.get("content", ""))
            if not content:
                continue
            if name in ("datepublished", "datecreated"):
                put("date", content, "meta")
            elif name == "author" and a.get("itemprop"):
                put("authors", [content], "byline")
            elif name in _META:
                f, src = _META[name]
                if f == "authors":
                    if content.startswith(("http://", "https://")):
                        continue  # article:author as a profile URL
                    found[src].setdefault("authors", [])
                    if content not in found[src]["authors"]:
                        found[src]["authors"].append(content)
                else:
                    put(f, content, src)
        elif t == "title" and (body < 0 or i < body):
            put("title", _clean(doc.node(i).text() or ""), "page")
        elif t == "link":
            if "canonical" in a.get("rel", "").lower().split() and a.get("href", "").strip():
                put("canonical", urljoin(base, a["href"].strip()) if base else a["href"].strip(),
                    "page")
        elif t == "script":
            if a.get("type", "").strip().lower() == "application/ld+json":
                for obj in _jsonld_objects(doc.node(i).text() or ""):
                    _from_jsonld(obj, put)
        elif t == "time" and body >= 0 and i > body:
            dt = a.get("datetime", "").strip()
            if dt and (a.get("pubdate") is not None or "published" in
                       (a.get("itemprop", "") + " ".join(doc.classes[i])).lower()):
                put("date", _clean(dt), "page")
            elif dt:
                put("date", _clean(dt), "byline")
        if body >= 0 and i > body and not byline_done and t not in ("meta", "link"):
            is_author = bool(a) and ("author" in a.get("rel", "").lower().split()
                                     or a.get("itemprop", "").strip().lower() == "author")
            named = False
            if not is_author and (ids[i] or classes[i]):  # else names is " "
                key = (ids[i], classes[i])
                v = named_memo.get(key)
                if v is None:
                    names = (ids[i] + " " + " ".join(classes[i])).lower()
                    v = named_memo[key] = (bool(names.strip()) and bool(_NAME_WORD.search(names))
                                           and "comment" not in names)
                named = v
            if is_author or named:
                name = _byline(doc, i)
                if name:
                    put("authors", [name], "byline")
                    byline_done = True
    out: dict[str, Any] = {f: ([] if f == "authors" else None) for f in FIELDS}
    sources: dict[str, str] = {}
    for f in FIELDS:
        for src in _FIELD_ORDER.get(f, _SOURCE_ORDER):
            v = found[src].get(f)
            if v:
                out[f] = v
                sources[f] = src
                break
    if out["canonical"] and base and not urlsplit(out["canonical"]).scheme:
        out["canonical"] = urljoin(base, out["canonical"])
    out["sources"] = sources
    return out


def front_matter(meta: dict[str, Any], url: str = "") -> str:
    """YAML front matter (``---`` lines) of :func:`page_metadata`'s fields;
    values written as JSON strings (valid YAML), missing fields left out."""
    lines = ["---"]
    if url:
        lines.append(f"url: {json.dumps(url, ensure_ascii=False)}")
    for f in FIELDS:
        v = meta.get(f)
        if not v:
            continue
        if isinstance(v, list):
            lines.append(f"{f}:")
            lines.extend(f"  - {json.dumps(x, ensure_ascii=False)}" for x in v)
        else:
            lines.append(f"{f}: {json.dumps(v, ensure_ascii=False)}")
    lines.append("---")
    return "\n".join(lines) + "\n\n"
