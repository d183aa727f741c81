"""Near-duplicate candidate pages.

The same page under another URL (session ids, sort or order parameters, a
second URL of one list), variants of one product, or a listing that embeds a
whole post vote as several pages: the key page's own content then looks
repeated and is called template. Candidates are compared by their text:

* :func:`page_shingles`: the set of hashed ``SHINGLE_WORDS``-word shingles
  of a page's visible body text (Broder's w-shingling; the chunks paper
  counts template text by its document frequency in the same spirit);
* :func:`distinct_pages`: shingles common to more than half of the pages
  are the template's own text and are set aside; of the rest, when
  ``duplicate`` or more of the smaller page's shingles are in the other page
  (containment, not resemblance, so that a listing embedding a post is caught),
  the later page is a copy and is dropped;
* :func:`same_page_url`: live exploration drops session-id and sorting
  query parameters before deciding whether a URL was seen;
* :func:`variant_urls`: before loading anything, two URLs in one folder
  whose last segments are slugs of one long common word prefix and short
  different tails (``...-closure-gray.html``, ``...-closure-cadet-blue.html``:
  the colours or sizes of one product, the editions of one item) name
  variants of one page; live exploration tries them last, since loaded they
  are near-duplicates (the text test above) and each costs a load.

The crawl's duplicates (:mod:`temex.crawler.dedupe`) are another scheme for
another question: whether a stored page's *main text* is an earlier page's,
to say so in the crawl's index with a proof. There word 3-shingles of that
text are compared whole (a multiset, as strings: the proof is printed), by
resemblance (:func:`jaccard`, the one home of that measure; the offline pool's
:func:`temex.site.pool.similarity` uses it on vocabularies) at 0.95; here
hashed 4-shingles of the whole body, the template's common shingles set aside
first, by containment at :data:`DEFAULT_DUPLICATE` (a listing that embeds a
post holds it without resembling it). The words differ too: here each text
node's words are lower-cased after they are found, there the text is
lower-cased first (a dotted capital I splits a word there, not here).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..page.dom import Document

__all__ = ["DEFAULT_DUPLICATE", "SHINGLE_WORDS", "distinct_indices", "distinct_pages",
           "held_by_key", "is_copy", "jaccard", "page_shingles",
           "same_page_url", "variant_keys", "variant_urls", "variants_last",
           "word_shingles"]

_T = TypeVar("_T")

#: Containment of page-specific shingles from which two pages are copies.
#: Chosen leave-one-site-out with the other candidate-choice parameters
#: (docs/EVALUATION.md).
DEFAULT_DUPLICATE = 0.7

#: Words per shingle.
SHINGLE_WORDS = 4

#: Words cut before they are lower-cased (:func:`page_shingles`), not
#: :func:`temex.page.tokens.tokens`' lower-case-then-cut: the two differ where
#: lower-casing makes a non-word character (``"İx"`` is ``i̇x`` here, ``i``
#: and ``x`` there), so the candidate pages' shingles keep their own cut.
_WORD = re.compile(r"\w+")

#: Query parameters that name a session or an order, not a page: dropped by
#: :func:`same_page_url` (generic names used by common web frameworks and
#: forum, shop and CMS software; matched case-insensitively).
VOLATILE_PARAMS = frozenset({
    "s", "sid", "session", "sessionid", "session_id", "phpsessid", "jsessionid", "aspsessionid",
    "sort", "sortby", "sort_by", "order", "orderby", "order_by", "dir", "direction", "sortorder",
    "view", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "ref",
    "fbclid", "gclid",
})


def page_shingles(doc: Document) -> frozenset[int]:
    """Hashed ``SHINGLE_WORDS``-word shingles of the visible body text (script,
    style, noscript and template ignored; lower-cased words), cached on the
    document. A set: a shingle repeated counts once (not the crawl's
    multiset of :func:`temex.crawler.dedupe.text_shingles`). O(n)."""
    cached = doc.__dict__.get("_shingles")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    ignored = doc.ignored_mask()
    words: list[str] = []
    for i in doc.in_body():
        if not ignored[i] and doc.text[i]:
            words.extend(w.lower() for w in _WORD.findall(doc.text[i]))
    out = word_shingles(words)
    doc.__dict__["_shingles"] = out
    return out


def word_shingles(words: list[str]) -> frozenset[int]:
    """Hashed ``SHINGLE_WORDS``-word shingles of a word sequence."""
    k = SHINGLE_WORDS
    return frozenset(hash(tuple(words[j:j + k])) for j in range(max(0, len(words) - k + 1)))


def jaccard(a: frozenset[Any] | set[Any], b: frozenset[Any] | set[Any]) -> float:
    """Jaccard coefficient of two sets, |a ∩ b| / |a ∪ b| (1 for two empty
    sets): Broder's *resemblance* of two shingle sets (the crawl's
    duplicates, :mod:`temex.crawler.dedupe`) and the structural
    :func:`temex.site.pool.similarity` of two vocabularies. O(min(|a|, |b|))."""
    if not a and not b:
        return 1.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def _copies(a: frozenset[int] | set[int], b: frozenset[int] | set[int], duplicate: float) -> bool:
    small = min(len(a), len(b))
    return bool(small) and len(a & b) >= duplicate * small


def _holds_key(page: frozenset[int] | set[int], key: frozenset[int] | set[int],
               duplicate: float) -> bool:
    """Whether ``page`` holds the key page's text (``duplicate`` of the key's
    shingles): the same page, or a listing that embeds it. A page whose text
    the key page holds (the key page is a listing or a print view of it) is
    not a copy of the key page: compared, it shares the template, and the
    key page's own text is not at its mapped place."""
    return bool(key) and len(page & key) >= duplicate * len(key)


def distinct_pages(key: Document, pages: Sequence[Document],
                   duplicate: float = DEFAULT_DUPLICATE) -> list[Document]:
    """``pages`` without near-duplicates of the key page and of each other
    (earlier pages win); see the module docstring. O(total text)."""
    kept = distinct_indices(page_shingles(key), [page_shingles(d) for d in pages],
                            duplicate)
    return [pages[k] for k in kept]


def distinct_indices(key: frozenset[int], pages: Sequence[frozenset[int]],
                     duplicate: float = DEFAULT_DUPLICATE, held: bool = False) -> list[int]:
    """:func:`distinct_pages` on the pages' shingles: the indices of the
    pages kept. With ``held``, pages whose text the key page holds (a
    listing's sub-listing, each chapter of a print view) are kept too, after
    the others: the fallback when too few distinct pages remain."""
    sets = [key, *pages]
    df: dict[int, int] = {}
    for sh in sets:
        for h in sh:
            df[h] = df.get(h, 0) + 1
    common = {h for h, c in df.items() if 2 * c > len(sets)}
    own = [sh - common for sh in sets]
    kept = [0]
    later: list[int] = []
    for j in range(1, len(sets)):
        if _holds_key(own[j], own[0], duplicate):
            continue  # the key page itself, or a listing that embeds it
        if any(_copies(own[j], own[k], duplicate) for k in kept):
            if held and not any(_copies(own[j], own[k], duplicate) for k in kept[1:] + later):
                later.append(j)
            continue
        kept.append(j)
    return [j - 1 for j in kept[1:] + later]


#: With only the key page kept, template text cannot be told from page text;
#: two pages are then copies only when this share of the smaller one's
#: shingles (all of them) is in the other.
RAW_COPY = 0.95


def is_copy(page: Document, kept: Sequence[Document],
            duplicate: float = DEFAULT_DUPLICATE, key_only: bool = False) -> bool:
    """True when ``page`` is a near-duplicate of one of ``kept`` (the key page
    first, then the pages kept so far, distinct from each other). Shingles
    found in two or more of ``kept`` are the template's text (distinct pages
    share little else) and are set aside first; with the key page alone, the
    test is on every shingle with :data:`RAW_COPY`. With ``key_only`` only
    copies of ``kept[0]`` count (the other pages still tell the template's
    text); live exploration (:mod:`temex.site.candidates`) uses that on each
    loaded page."""
    if len(kept) < 2:
        return any(_copies(page_shingles(page), page_shingles(k), RAW_COPY)
                   for k in kept[:1])
    df: dict[int, int] = {}
    for d in kept:
        for h in page_shingles(d):
            df[h] = df.get(h, 0) + 1
    common = {h for h, c in df.items() if c >= 2}
    mine = page_shingles(page) - common
    return any(_copies(mine, page_shingles(k) - common, duplicate)
               for k in (kept[:1] if key_only else kept))


def held_by_key(page: Document, key: Document, duplicate: float = DEFAULT_DUPLICATE) -> bool:
    """Whether ``page`` is a copy of the key page only because the key page
    holds its text (the key page is a print view of a book, a listing of
    whole posts), not the other way round: such a page shares the template
    and is the fallback when too few distinct pages are found
    (:func:`distinct_indices` with ``held``)."""
    mine, theirs = page_shingles(page), page_shingles(key)
    return not _holds_key(mine, theirs, duplicate) and _holds_key(theirs, mine, duplicate)


def same_page_url(url: str) -> str:
    """``url`` without fragment and without session-id and sorting query
    parameters (:data:`VOLATILE_PARAMS`), the other parameters sorted: two
    URLs of one page compare equal. A key for comparing pages, not a link to
    follow (that is :func:`temex.site.links.normalize_url`, which resolves a
    link against its page and keeps every parameter)."""
    parts = urlsplit(url)
    query = sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                   if k.lower() not in VOLATILE_PARAMS)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


#: :func:`variant_urls`: the slugs of two variants share at least this many
#: leading words, and each differs in at most :data:`VARIANT_TAIL` trailing
#: words (a colour, a size, an edition); shorter common prefixes are
#: different items that start alike (``how-to-...``, ``wholesale-box-of-...``).
VARIANT_PREFIX = 4
VARIANT_TAIL = 3

_SLUG_SEP = re.compile(r"[-_]+")


def _slug(url: str) -> tuple[str, list[str]]:
    """(scheme, host and folder; words of the last segment without extension)."""
    parts = urlsplit(url)
    head, _, last = parts.path.rstrip("/").rpartition("/")
    stem = last.rpartition(".")[0] if "." in last else last
    return (f"{parts.scheme}://{parts.netloc}{head}?{parts.query}",
            [w for w in _SLUG_SEP.split(stem.lower()) if w])


def variant_urls(a: str, b: str) -> bool:
    """True when URLs ``a`` and ``b`` look like two variants of one page
    (module docstring): same folder and query, last segments of at least
    :data:`VARIANT_PREFIX` common leading words followed by at most
    :data:`VARIANT_TAIL` different words each. Equal URLs are not variants.
    O(len(a) + len(b))."""
    head_a, wa = _slug(a)
    head_b, wb = _slug(b)
    if head_a != head_b or wa == wb:
        return False
    common = 0
    for x, y in zip(wa, wb):
        if x != y:
            break
        common += 1
    return (common >= VARIANT_PREFIX and len(wa) - common <= VARIANT_TAIL
            and len(wb) - common <= VARIANT_TAIL)


def variant_keys(url: str) -> list[tuple[str, ...]]:
    """Keys such that two URLs that are :func:`variant_urls` share one (the
    folder and a common slug prefix long enough for both): at most
    ``VARIANT_TAIL + 1`` keys, so that a page's links are grouped in O(L)
    instead of compared pairwise. Sharing a key implies variants unless the
    two slugs are equal."""
    head, words = _slug(url)
    return [(head, *words[:c])
            for c in range(max(VARIANT_PREFIX, len(words) - VARIANT_TAIL), len(words) + 1)]


def variants_last(items: Iterable[_T], key_url: str, url: Callable[[_T], str],
                  same_page: bool = False) -> Iterator[_T]:
    """``items`` with the variants of the key page or of an earlier item
    (:func:`variant_urls` on ``url(item)``: one product's colours and sizes)
    moved to the end, order otherwise kept (loaded, they are
    near-duplicates of the key page and waste a load or a place each).
    With ``same_page``, an item whose URL is the key page's or an earlier
    item's once session-id and sorting parameters are dropped
    (:func:`same_page_url`: a query variant) goes last too. Lazy: items
    are yielded as they come, the variants after the last one. O(L) through
    :func:`variant_keys`.

    The rule of live exploration (``temex.site.link_order.variants_last``) and
    of the offline pool (``temex.site.pool.candidate_order``)."""
    seen: dict[tuple[str, ...], str] = {}
    for kk in variant_keys(key_url):
        seen.setdefault(kk, key_url)
    pages = {same_page_url(key_url)} if same_page else set()
    later: list[_T] = []
    for it in items:
        u = url(it)
        keys = variant_keys(u)
        if any(kk in seen and variant_urls(u, seen[kk]) for kk in keys):
            later.append(it)
            continue
        if same_page:
            nu = same_page_url(u)
            if nu in pages:
                later.append(it)
                continue
            pages.add(nu)
        yield it
        for kk in keys:
            seen.setdefault(kk, u)
    yield from later
