"""A page's metadata: title, authors, publication date, site name, language,
canonical URL, description.

Sources, read in one pass over the parsed page, each field taken from the
first source that has it in this order: JSON-LD (``<script
type="application/ld+json">``: ``headline``/``name``, ``author`` (an
``{"@id": ...}`` reference resolved against the page's other JSON-LD objects),
``datePublished``, ``publisher.name``, ``inLanguage``, ``url``,
``description``, ``@graph`` lists included), Open Graph (``og:*``,
``article:*``), plain ``<meta>`` (``author``, ``description``, ``date``,
``dc.*``, ``citation_*``), then the page itself (``<title>``, ``<html
lang>``, ``<link rel=canonical>``, ``<time datetime>``), author markup
(``rel=author``, ``itemprop=author``, an hCard ``fn``/``p-name`` in an author
``vcard``/``h-card``) and last a visible byline (an element named
``byline``/``author``). ``sources`` says which source gave each field.

Visible text is never taken from the site's template (``template``: the
mask of a fitted template; a share bar's "SHARE THIS ARTICLE" labelled
``title_info_author`` is on every page), nor when it reads as a control
("Share", "Follow", "Email", "RSS", ...). The canonical URL is an http(s)
URL or nothing: a local file has none. ``encoding`` is the charset the page
was decoded with; ``encoding_fallback`` says why, when its declared charset
did not decode it (:mod:`temex.page.charset`).

Used by the JSON reports (:meth:`temex.content.extract.Content.report`,
:func:`temex.content.render.render`), batch rows, the crawl index and the
Markdown front matter. Standard library only (``json``, ``urllib``). O(n).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from ..page.dom import Document

__all__ = ["EXTRA_FIELDS", "FIELDS", "TRAFILATURA_FIELDS", "base_url", "fingerprint",
           "front_matter", "page_metadata", "trafilatura_fields"]

#: The fields of :func:`page_metadata`, in output order (the front matter's).
FIELDS = ("title", "authors", "date", "site_name", "language", "canonical", "description")
#: More fields of :func:`page_metadata` (reports only, not the front matter):
#: the page's image (``og:image``, ``twitter:image``, JSON-LD ``image``), its
#: categories (``article:section``, JSON-LD ``articleSection``), tags
#: (``article:tag``, ``<meta name=keywords>``, JSON-LD ``keywords``) and
#: license (``<link rel=license>``, ``<meta name=license|dc.rights>``,
#: JSON-LD ``license``).
EXTRA_FIELDS = ("image", "categories", "tags", "license")
_LISTS = ("authors", "categories", "tags")

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
    "og:image": ("image", "opengraph"), "og:image:url": ("image", "opengraph"),
    "og:image:secure_url": ("image", "opengraph"), "twitter:image": ("image", "meta"),
    "article:section": ("categories", "opengraph"), "article:tag": ("tags", "opengraph"),
    "keywords": ("tags", "meta"), "news_keywords": ("tags", "meta"),
    "license": ("license", "meta"), "dc.rights": ("license", "meta"),
    "dcterms.license": ("license", "meta"), "copyright": ("license", "meta"),
}
_SOURCE_ORDER = ("jsonld", "opengraph", "meta", "page", "markup", "byline")
#: Fields read in another order: the page's own ``lang`` before ``og:locale``;
#: authors from structured data (JSON-LD, ``<meta name=author>``) first.
_FIELD_ORDER = {"language": ("jsonld", "page", "meta", "opengraph", "markup", "byline"),
                "authors": ("jsonld", "meta", "opengraph", "page", "markup", "byline")}
#: Words of a control, not of a name: a byline holding one is a label.
_CONTROL_WORDS = frozenset({"share", "follow", "subscribe", "email", "e-mail", "rss", "print",
                            "tweet", "twitter", "facebook", "linkedin", "comments", "profile",
                            "login", "log", "sign", "menu", "search"})
_WORD = re.compile(r"[\w-]+")
#: Tags whose own source :func:`page_metadata` reads (others of the body only
#: hold author markup or a byline).
_READ_TAGS = frozenset({"meta", "title", "link", "script", "time"})


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


def _names(value: Any, ids: dict[str, dict[str, Any]] | None = None) -> list[str]:
    """Author names of a JSON-LD ``author`` value (string, object, list); an
    object that is only an ``@id`` reference is looked up in ``ids``."""
    out: list[str] = []
    items = value if isinstance(value, list) else [value]
    for v in items:
        if isinstance(v, dict) and not isinstance(v.get("name"), str) and ids is not None:
            v = ids.get(str(v.get("@id", "")), v)
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


def _from_jsonld(obj: dict[str, Any], put: Any,
                 ids: dict[str, dict[str, Any]] | None = None) -> None:
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
        put("authors", _names(obj["author"], ids), "jsonld")
    for key in ("datePublished", "dateCreated"):
        if isinstance(obj.get(key), str):
            put("date", _clean(obj[key]), "jsonld")
            break
    pub = obj.get("publisher")
    if isinstance(pub, dict) and not isinstance(pub.get("name"), str) and ids is not None:
        pub = ids.get(str(pub.get("@id", "")), pub)
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
    image = obj.get("image")
    if isinstance(image, list) and image:
        image = image[0]
    if isinstance(image, dict):
        image = image.get("url") or image.get("contentUrl")
    if isinstance(image, str) and image.strip():
        put("image", image.strip(), "jsonld")
    for key, field in (("articleSection", "categories"), ("keywords", "tags")):
        v = obj.get(key)
        items = v.split(",") if isinstance(v, str) else v if isinstance(v, list) else []
        put(field, [_clean(x) for x in items if isinstance(x, str) and x.strip()], "jsonld")
    lic = obj.get("license")
    if isinstance(lic, str) and lic.strip():
        put("license", lic.strip(), "jsonld")


def _byline(doc: Document, i: int) -> str:
    text = doc.subtree_text(i)
    text = _BY.sub("", text).strip(" ,|·-–—")
    if not text or len(text) > _BYLINE_MAX or not any(c.isalpha() for c in text):
        return ""
    if any(w in _CONTROL_WORDS for w in _WORD.findall(text.lower())):
        return ""  # "SHARE THIS ARTICLE", "Follow Author", "View Profile Email RSS"
    return _clean(text)


def _names_of(doc: Document, i: int) -> str:
    return (doc.id[i] + " " + " ".join(doc.classes[i])).lower()


@lru_cache(maxsize=4096)
def _byline_named(id_: str, classes: tuple[str, ...]) -> bool:
    """An element of this ``id`` and classes is named as a byline (and not as
    a comment): cached across pages, a site repeats its names."""
    names = (id_ + " " + " ".join(classes)).lower()
    return bool(names.strip()) and bool(_NAME_WORD.search(names)) and "comment" not in names


def _hcard_name(doc: Document, i: int) -> bool:
    """``i`` is the name of an author's hCard: class ``fn`` (``p-name``) in a
    ``vcard`` (``h-card``) that is, or is inside, an element named author."""
    cs = doc.classes[i]
    if "fn" not in cs and "p-name" not in cs:
        return False
    j, card = doc.parent[i], -1
    for _ in range(4):
        if j < 0:
            return False
        if {"vcard", "h-card"} & set(doc.classes[j]):
            card = j
            break
        j = doc.parent[j]
    k = card
    for _ in range(4):
        if k < 0:
            break
        if _NAME_WORD.search(_names_of(doc, k)):
            return True
        k = doc.parent[k]
    return False


def _add_name(names: list[str], name: str) -> None:
    """Add a co-author; a name inside one already found replaces it (the
    markup of "Ann Lee, @annlee" holds the link "Ann Lee")."""
    for k, old in enumerate(names):
        if name in old:
            names[k] = name
            return
        if old in name:
            return
    names.append(name)


def _local(url: str) -> bool:
    return not url.lower().startswith(("http://", "https://"))


def page_metadata(doc: Document, template: Sequence[bool] | None = None) -> dict[str, Any]:
    """The metadata of ``doc``: every field of :data:`FIELDS` (``authors`` a
    list, the others a string; missing ones ``None``/empty list),
    ``sources``: the source of each field found (``jsonld``, ``opengraph``,
    ``meta``, ``page``, ``markup``, ``byline``), ``encoding`` and, when the
    declared charset failed, ``encoding_fallback``. Elements of ``template``
    (one bool per element of ``doc``) give no visible text (bylines, dates)."""
    found: dict[str, dict[str, Any]] = {s: {} for s in _SOURCE_ORDER}
    in_template = (template if template is not None and len(template) == len(doc)
                   else None)

    def put(name: str, value: Any, source: str) -> None:
        if value and name not in found[source]:
            found[source][name] = value

    if len(doc):
        lang = dict(doc.attrs[0]).get("lang", "").strip()
        put("language", lang, "page")
    base = base_url(doc)
    byline_done = False
    markup_block = -1  # the element holding the first author markup
    jsonld: list[dict[str, Any]] = []
    tags, attrs, el_ids, classes = doc.tag, doc.attrs, doc.id, doc.classes
    body = doc.body

    def author_markup(i: int, a: dict[str, str]) -> None:
        """Author markup (``rel=author``, ``itemprop=author``, an hCard name)
        or a byline at body element ``i``."""
        nonlocal markup_block, byline_done
        is_author = bool(a) and ("author" in a.get("rel", "").lower().split()
                                 or a.get("itemprop", "").strip().lower() == "author")
        cs = classes[i]
        if is_author or (("fn" in cs or "p-name" in cs) and _hcard_name(doc, i)):
            name = _byline(doc, i)
            names_found = found["markup"].get("authors")
            if name and names_found is None:
                put("authors", [name], "markup")
                # co-authors: more author markup near the first ("A and B")
                up = doc.parent[i] if doc.parent[i] >= 0 else i
                markup_block = doc.parent[up] if doc.parent[up] >= 0 else up
            elif name and names_found and i < markup_block + doc.size[markup_block]:
                _add_name(names_found, name)
        elif not byline_done and (el_ids[i] or cs) and _byline_named(el_ids[i], cs):
            name = _byline(doc, i)
            if name:
                put("authors", [name], "byline")
                byline_done = True

    # the elements with a rel or itemprop attribute, found once (C-speed with
    # the kernel): the body's author-markup test reads no other attribute
    marked = doc.attribute_values("rel").keys() | doc.attribute_values("itemprop").keys()
    for i in range(len(doc)):
        t = tags[i]
        at = attrs[i]
        if not at and not el_ids[i] and not classes[i] and t != "title":
            continue  # no attribute and no name: no source below reads it
        if i > body >= 0 and t not in _READ_TAGS:
            # in the body, outside the tags read below: author markup only,
            # asked only where one of its three tests can hold
            if in_template is None or not in_template[i]:
                cs = classes[i]
                if (i in marked or "fn" in cs or "p-name" in cs
                        or (not byline_done and (el_ids[i] or cs)
                            and _byline_named(el_ids[i], cs))):
                    author_markup(i, dict(at) if at else {})
            continue
        a = dict(at) if at else {}
        if t == "meta":
            name = (a.get("name") or a.get("property") or a.get("itemprop")
                    or a.get("http-equiv") or "").strip().lower()
            content = _clean(a.get("content", ""))
            if not content:
                continue
            if name in ("datepublished", "datecreated"):
                put("date", content, "meta")
            elif name == "author" and a.get("itemprop"):
                put("authors", [content], "markup")
            elif name in _META:
                f, src = _META[name]
                if f in _LISTS:
                    if f == "authors" and content.startswith(("http://", "https://")):
                        continue  # article:author as a profile URL
                    values = ([v.strip() for v in content.split(",") if v.strip()]
                              if name in ("keywords", "news_keywords") else [content])
                    found[src].setdefault(f, [])
                    for v in values:
                        if v not in found[src][f]:
                            found[src][f].append(v)
                elif f == "image":
                    put(f, urljoin(base, content) if base else content, src)
                else:
                    put(f, content, src)
        elif t == "title" and (body < 0 or i < body):
            put("title", _clean(doc.node(i).text() or ""), "page")
        elif t == "link":
            rels = a.get("rel", "").lower().split()
            href = a.get("href", "").strip()
            if "canonical" in rels and href:
                put("canonical", urljoin(base, href) if base else href, "page")
            if "license" in rels and href:
                put("license", urljoin(base, href) if base else href, "page")
        elif t == "script":
            if a.get("type", "").strip().lower() == "application/ld+json":
                jsonld.extend(_jsonld_objects(doc.node(i).text() or ""))
        elif in_template is not None and in_template[i]:
            continue  # the site's template: no byline, no date from its text
        elif t == "time" and body >= 0 and i > body:
            dt = a.get("datetime", "").strip()
            if dt and (a.get("pubdate") is not None or "published" in
                       (a.get("itemprop", "") + " ".join(classes[i])).lower()):
                put("date", _clean(dt), "page")
            elif dt:
                put("date", _clean(dt), "byline")
        if body >= 0 and i > body and t not in ("meta", "link"):
            author_markup(i, a)
    ids = {str(o["@id"]): o for o in jsonld if isinstance(o.get("@id"), str)}
    for obj in jsonld:
        _from_jsonld(obj, put, ids)
    out: dict[str, Any] = {f: ([] if f in _LISTS else None) for f in FIELDS + EXTRA_FIELDS}
    sources: dict[str, str] = {}
    for f in FIELDS + EXTRA_FIELDS:
        for src in _FIELD_ORDER.get(f, _SOURCE_ORDER):
            value = found[src].get(f)
            if value:
                out[f] = value
                sources[f] = src
                break
    if out["canonical"] and base and not urlsplit(out["canonical"]).scheme:
        out["canonical"] = urljoin(base, out["canonical"])
    if out["canonical"] and _local(out["canonical"]):  # a file's path is no canonical URL
        out["canonical"] = None
        sources.pop("canonical", None)
    out["sources"] = sources
    out["encoding"] = str(doc.encoding)
    fallback = getattr(doc.encoding, "reason", "")
    if fallback:
        out["encoding_fallback"] = fallback
    return out


def front_matter(meta: dict[str, Any], url: str = "") -> str:
    """YAML front matter (``---`` lines) of :func:`page_metadata`'s fields;
    values written as JSON strings (valid YAML), missing fields left out.
    ``url`` is where the page came from: an http(s) URL is written as
    ``url:``, a local file (a path, or a ``file:`` URI) as ``source:`` (its
    path)."""
    lines = ["---"]
    if url and _local(url):
        path = unquote(urlsplit(url).path) if url.lower().startswith("file:") else url
        lines.append(f"source: {json.dumps(path, ensure_ascii=False)}")
    elif url:
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


#: The metadata fields under trafilatura's names, in its order
#: (:func:`trafilatura_fields`).
TRAFILATURA_FIELDS = ("title", "author", "date", "hostname", "sitename", "description",
                      "categories", "tags", "image", "language", "license", "fingerprint")
_ISO_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:$|[T ])")


def trafilatura_fields(meta: dict[str, Any], url: str, text: str) -> dict[str, Any]:
    """:func:`page_metadata`'s fields under trafilatura's key names (the
    keys of its ``bare_extraction`` and JSON output): ``author`` the
    authors joined by ``"; "``, ``date`` cut to its day when it is an ISO
    date (``2024-05-01T10:00Z`` -> ``2024-05-01``), ``hostname`` of ``url``
    (else of the canonical URL), ``sitename`` the site name, ``categories``
    and ``tags`` lists, ``fingerprint`` :func:`fingerprint` of ``text``.
    Missing values are None (lists: empty)."""
    date = meta.get("date")
    day = _ISO_DAY.match(date) if isinstance(date, str) else None
    host = ""
    for u in (url, meta.get("canonical") or ""):
        if u and u.lower().startswith(("http://", "https://")):
            host = (urlsplit(u).hostname or "").removeprefix("www.")
            if host:
                break
    return {"title": meta.get("title"),
            "author": "; ".join(meta.get("authors") or []) or None,
            "date": day.group(1) if day else date,
            "hostname": host or None,
            "sitename": meta.get("site_name"),
            "description": meta.get("description"),
            "categories": list(meta.get("categories") or []),
            "tags": list(meta.get("tags") or []),
            "image": meta.get("image"),
            "language": meta.get("language"),
            "license": meta.get("license"),
            "fingerprint": fingerprint(text)}


def fingerprint(text: str) -> str:
    """A 64-bit SimHash of ``text``'s words, 16 hex digits (trafilatura's
    ``fingerprint`` is one too): the same text gives the same value, near
    texts values a few bits apart (count the differing bits of the two
    ints to compare)."""
    import hashlib
    from collections import Counter

    weights = [0] * 64
    for word, n in Counter(re.findall(r"\w+", text.lower())).items():
        h = int.from_bytes(hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest(), "big")
        for b in range(64):
            weights[b] += n if h >> b & 1 else -n
    value = sum(1 << b for b in range(64) if weights[b] > 0)
    return f"{value:016x}"
