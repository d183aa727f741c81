"""The link lists of a page kind inside the content region: told by their
HTML link types, by their targets (pages of the key page's own URL kind) or
by their names (our rules). Their text differs on every page, so no vote
calls them template; the data convention does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from urllib.parse import urljoin, urlsplit

from ...page.dom import HEADING_TAGS, Document
from ...page.urls import url_kind, url_pattern
from ...page.vocabulary import NAVIGATION_WORDS

__all__ = ["CHROME_LINK_TYPES", "LINK_TYPE_TEXT", "NAMED_LIST_LINK_SHARE",
           "NEIGHBOUR_LINK_TYPES", "OWN_LINK_TYPES", "SERIES_LINKS", "chrome_link_type",
           "declared_neighbours", "link_type_chrome", "named_link_lists", "own_link"]


#: HTML link types of a page's own metadata: its author, its permalink.
OWN_LINK_TYPES = frozenset({"author", "bookmark"})


def own_link(doc: Document, i: int) -> bool:
    """Whether link ``i`` is the page's own: an HTML link type of
    :data:`OWN_LINK_TYPES` (``rel="author"``, ``rel="bookmark"``: the
    standard's keywords for the page's author and its permalink), or an
    address that is the page's own (fragment and query aside)."""
    attrs = dict(doc.attrs[i])
    if OWN_LINK_TYPES & set((attrs.get("rel") or "").lower().split()):
        return True
    href = (attrs.get("href") or "").strip()
    if not href or href.startswith("#") or not doc.url:
        return False
    target = urlsplit(urljoin(doc.url, href))
    here = urlsplit(doc.url)
    return (target.netloc, target.path.rstrip("/")) == (here.netloc, here.path.rstrip("/"))


#: HTML link types of a page's neighbours in its series or listing: ``prev``
#: and ``next``, and ``previous``, the synonym of ``prev`` that HTML 4.01
#: (section 6.12, "Link types") notes some user agents read (Pipermail
#: writes it).
NEIGHBOUR_LINK_TYPES = frozenset({"prev", "previous", "next"})

#: HTML link types (the HTML standard's ``rel`` keywords) of a page kind's
#: link lists (:func:`link_type_chrome`): ``tag`` (tags and categories) and
#: the :data:`NEIGHBOUR_LINK_TYPES`.
CHROME_LINK_TYPES = frozenset({"tag"}) | NEIGHBOUR_LINK_TYPES


def chrome_link_type(rel: str) -> bool:
    """Whether a ``rel`` attribute value names a :data:`CHROME_LINK_TYPES`
    type (keywords are space-separated and ASCII case-insensitive)."""
    return not CHROME_LINK_TYPES.isdisjoint(rel.lower().split())


def _target(href: str, base: str) -> tuple[str, str]:
    """A link target's path and query, resolved against ``base``, its
    fragment and a trailing ``/`` dropped. The host is left out: a page
    names its neighbours by path in ``<head>`` and by full address in the
    body, or the other way round."""
    parts = urlsplit(urljoin(base, href.strip()))
    return parts.path.rstrip("/"), parts.query


def declared_neighbours(doc: Document) -> frozenset[tuple[str, str]]:
    """The targets (:func:`_target`) of the page's ``<link>`` elements of a
    :data:`NEIGHBOUR_LINK_TYPES` type: the previous and next page that the
    page itself declares for its series (Pipermail's messages, Sphinx's
    chapters, a blog's posts and listing pages). A link of the body to one
    of them is a previous / next link whether or not it carries the
    ``rel`` itself (:func:`link_type_chrome`). A neighbour above the page
    in the site's paths is left out: page 2 of a listing names page 1 as its
    previous, and page 1 is the listing's own address, which the menu and
    every row's category line link to as well. O(elements of ``<head>``):
    HTML allows ``prev`` / ``next`` links in ``<head>`` only (they are not
    among its "body-ok" link types)."""
    here = _target(doc.url or "", "")[0]
    out = set()
    for i in range(doc.body if doc.body >= 0 else len(doc)):
        if doc.tag[i] == "link":
            attrs = dict(doc.attrs[i])
            href = attrs.get("href")
            if href and not NEIGHBOUR_LINK_TYPES.isdisjoint(
                    (attrs.get("rel") or "").lower().split()):
                target = _target(href, doc.url or "")
                if not _above(target[0], here):
                    out.add(target)
    return frozenset(out)


def _above(path: str, here: str) -> bool:
    """Whether ``path`` is a folder that holds page path ``here`` (or the
    same page): ``/category/desserts`` above
    ``/category/desserts/page/2/index.html``. Offline a root-relative path
    resolves from the file system's root, below which the web root sits, so
    the folder may stand anywhere in ``here``."""
    folder = path.removesuffix("/index.html").rstrip("/") + "/"
    return folder in here.removesuffix("/index.html").rstrip("/") + "/"


#: Most characters of text outside links in a :func:`link_type_chrome` list:
#: about two lines of labels ("This entry was posted in", "Bookmark the").
#: Chosen leave-one-site-out among 100, 200 and 400 (docs/journal (core)).
LINK_TYPE_TEXT = 200


class _LinkSums:
    """Per element of a region, sums over its subtree (one reverse pass,
    :func:`_link_sums`): visible text (``chars``), text inside links
    (``link_chars``), links with an ``href`` (``links``), those that lead to
    another page (``away``: not ``#...``), those of a
    :data:`CHROME_LINK_TYPES` type (``typed``) and, of the others, those to
    one of the page's :func:`declared_neighbours` (``declared``) and those
    that lead to another page of a given URL kind (``series``)."""

    __slots__ = ("away", "chars", "declared", "link_chars", "links", "series", "typed")

    def __init__(self, n: int) -> None:
        self.chars = [0] * n
        self.link_chars = [0] * n
        self.links = [0] * n
        self.away = [0] * n
        self.typed = [0] * n
        self.declared = [0] * n
        self.series = [0] * n


def _link_sums(doc: Document, region: int, own_kind: str | None = None,
               neighbours: frozenset[tuple[str, str]] = frozenset()) -> _LinkSums:
    """:class:`_LinkSums` of every element inside ``region``; ``series``
    counts links to other pages of URL kind ``own_kind``
    (:func:`temex.page.urls.url_kind`; None: none counted), ``declared``
    links to ``neighbours`` (:func:`declared_neighbours`). O(size of the
    region)."""
    sums = _LinkSums(len(doc))
    chars, link_chars, links, away, typed, declared, series = (
        sums.chars, sums.link_chars, sums.links, sums.away, sums.typed, sums.declared,
        sums.series)
    in_link = [False] * len(doc)
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    for i in inside:
        in_link[i] = doc.tag[i] == "a" or (i != region and in_link[doc.parent[i]])
    for i in reversed(inside):
        if ignored[i]:
            continue
        ln = len(doc.text[i])
        chars[i] += ln
        if in_link[i]:
            link_chars[i] += ln
        if doc.tag[i] == "a":
            attrs = dict(doc.attrs[i])
            href = attrs.get("href")
            if href is not None:
                links[i] += 1
                if not href.strip().startswith("#"):
                    away[i] += 1
                if chrome_link_type(attrs.get("rel", "")):
                    typed[i] += 1
                elif neighbours and _target(href, doc.url or "") in neighbours:
                    declared[i] += 1
                elif own_kind is not None and away[i] \
                        and _same_kind(href.strip(), doc.url, own_kind) \
                        and not own_link(doc, i):
                    series[i] += 1
        if i != region:
            p = doc.parent[i]
            chars[p] += chars[i]
            link_chars[p] += link_chars[i]
            links[p] += links[i]
            away[p] += away[i]
            typed[p] += typed[i]
            declared[p] += declared[i]
            series[p] += series[i]
    return sums


def _same_kind(href: str, base: str, kind: str) -> bool:
    """Whether link target ``href`` (from page ``base``) has URL kind
    ``kind`` (:func:`temex.page.urls.url_kind`). The last path segment of
    a target is its own unless the path is empty or ends in a dot segment,
    and :func:`~temex.page.urls.url_pattern` works segment by segment, so
    the last segment's pattern is compared first: resolving every link of
    a listing cost a fifth of a fit."""
    path, _, query = href.partition("#")[0].partition("?")
    last = path.rpartition("/")[2]
    if path and last not in (".", ".."):
        if url_pattern(last + ("?" + query if query else "")) != kind.rpartition("/")[2]:
            return False
    return url_kind(href, base) == kind


def _outermost(doc: Document, region: int, keep: Callable[[int], bool]) -> list[int]:
    """The outermost elements strictly inside ``region`` for which ``keep``
    holds, in document order."""
    out = []
    i, end = region + 1, region + doc.size[region]
    while i < end:
        if keep(i):
            out.append(i)
            i += doc.size[i]
        else:
            i += 1
    return out


def link_type_chrome(doc: Document, region: int, avoid: Collection[int] = (),
                     max_text: int = LINK_TYPE_TEXT) -> list[int]:
    """Roots of the page kind's link lists inside ``region``, told by their
    HTML link types (our rule): the largest elements at
    least half of whose links are of a :data:`CHROME_LINK_TYPES` type, with
    at most ``max_text`` characters outside links, holding none of ``avoid``
    (the title). Tag and category lines ("Posted in X | Tagged a, b"), the
    links to the previous and next post: the data README's convention calls
    them template, and no vote can, since their text differs on every page.
    Links without such a type (a listing's titles, a post's own links) keep
    an element out.

    A link without a ``rel`` to a neighbour the page declares in its
    ``<head>`` (:func:`declared_neighbours`: Pipermail's "Previous message:
    <a>subject</a>", which no vote calls template since the subject differs
    on every page) is of the series' type when the element also holds text
    outside its links, a label ("Previous message:", "Next »"): the first
    entry of a docs index's table of contents or of an examples gallery is
    the chapter the page names as its next, and it is the page's own
    material (a Sphinx examples gallery lost its first caption without
    the label).

    Where the page gives no ``rel``, a link to another page of the key
    page's own URL kind (:func:`temex.page.urls.url_kind`: ``0230.html``
    from ``0229.html``) is of the series' type too, as in
    :func:`head_zone`: the next / previous / in-reply-to list under a
    message. Told by targets alone, an element needs
    :data:`SERIES_LINKS` such links or more and at least
    :data:`NAMED_LIST_LINK_SHARE` of its text in links: a listing's rows,
    a sub-forum's or a docs page's description beside its link, and a
    paragraph citing an earlier post are text, not a link list
    (random key pages of the shared sites: without the two conditions, the
    sub-forums of a forum's index and a docs page's annotated reading list
    turned template). O(size of the region)."""
    own_kind = url_kind(doc.url) if doc.url else None
    s = _link_sums(doc, region, own_kind, declared_neighbours(doc))
    held: set[int] = set()
    for a in avoid:
        held.add(a)
        held.update(doc.ancestors(a))

    def chrome(i: int) -> bool:
        typed = s.typed[i] + s.declared[i] + s.series[i]
        label = s.chars[i] - s.link_chars[i]
        if not typed or 2 * typed < s.links[i] or i in held or label > max_text:
            return False
        return s.typed[i] > 0 or (s.declared[i] > 0 and label > 0) \
            or (s.series[i] >= SERIES_LINKS
                and s.link_chars[i] >= NAMED_LIST_LINK_SHARE * s.chars[i])

    return _outermost(doc, region, chrome)


#: Fewest links to pages of the key page's own kind that make a list
#: series navigation where no ``rel`` says so (:func:`link_type_chrome`):
#: a previous and a next, as :func:`named_link_lists` asks two links.
SERIES_LINKS = 2


#: Least share of link text in a :func:`named_link_lists` list: half, as the
#: head zone's (a breadcrumb ends with the page's own name, not a link).
#: 0.5, 0.6 and 0.7 give the same offline figures but cookwithtina's
#: (0.975 / 0.935 at 0.7, 0.976 / 0.938 below); live, a topic's breadcrumb
#: "Boards / Deployment / Topic 721" holds 0.55.
NAMED_LIST_LINK_SHARE = 0.5


_NAME_WORDS = re.compile(r"[^a-z]+")


def named_link_lists(doc: Document, region: int) -> list[int]:
    """Roots of the navigation named as such inside ``region`` (our rule):
    the outermost elements whose ``id`` or classes hold a
    :data:`~temex.page.vocabulary.NAVIGATION_WORDS` word (``post-nav``, ``post-tags``,
    ``pagination``, ``share-links``, ``breadcrumbs``), at least
    :data:`NAMED_LIST_LINK_SHARE` of whose text is link text, with two links
    or more to other pages (tabs and tables of contents point into the page)
    and that are no heading (a heading's id is its own text). Tag lines,
    previous / next links and pagination whose text differs on every page,
    so that no vote calls them template, and that carry no link types
    (:func:`link_type_chrome`). O(size of the region)."""
    s = _link_sums(doc, region)
    ignored = doc.ignored_mask()
    return _outermost(doc, region, lambda i: (
        s.away[i] >= 2 and s.chars[i] > 0
        and s.link_chars[i] >= NAMED_LIST_LINK_SHARE * s.chars[i]
        and doc.tag[i] not in HEADING_TAGS and not ignored[i]
        and _named_navigation(doc.id[i], doc.classes[i])))


def _named_navigation(id_: str, classes: tuple[str, ...]) -> bool:
    for value in (id_, *classes):
        if any(w in NAVIGATION_WORDS for w in _NAME_WORDS.split(value.lower())):
            return True
    return False
