"""The head zone: what sits between the page's title heading and its main
text is content (byline, date, price, options form), except the navigation
and query widgets of the page's kind (our rules).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ...page.dom import Document
from ...page.urls import url_kind
from .links import own_link
from .title import title_nodes

__all__ = ["SHARED_NAVIGATION_LINKS", "ZONE_LINK_SHARE", "find_query_forms", "head_zone",
           "query_widgets"]


#: Largest share of link text in a widget between the title and the text
#: for :func:`head_zone` to call it content: share bars, "related stories"
#: boxes and tag lists are links; bylines, dates, prices and option forms are
#: not.
ZONE_LINK_SHARE = 0.5


def find_query_forms(doc: Document, region: int) -> list[int]:
    """Forms inside ``region`` that query rather than submit:
    ``method="get"``, or no method (HTML's default), or ``role="search"``.
    A search panel, a filter or a sorting bar leads to other pages of the
    site; a form that posts (an order form with a product's options, a
    comment form) sends something. O(size of the region)."""
    out = []
    for i in doc.descendants(region):
        if doc.tag[i] == "form":
            a = dict(doc.attrs[i])
            if a.get("method", "get").strip().lower() == "get" or a.get("role") == "search":
                out.append(i)
    return out


_LINK = frozenset({"a"})


def _tagged_text(doc: Document, region: int, tags: Collection[str],
                 skip: Callable[[int], bool] | None = None
                 ) -> tuple[list[int], list[int]]:
    """For every element inside ``region``: the characters of visible text
    below it, and those of them inside an element of ``tags`` (link text,
    control labels) that ``skip`` does not exempt. One reverse pass,
    O(size of the region)."""
    n = len(doc)
    chars = [0] * n
    tagged = [0] * n
    under = [False] * n
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    for i in inside:
        under[i] = (doc.tag[i] in tags and not (skip is not None and skip(i))) or (
            i != region and under[doc.parent[i]])
    for i in reversed(inside):
        if ignored[i]:
            continue
        ln = len(doc.text[i])
        chars[i] += ln
        if under[i]:
            tagged[i] += ln
        if i != region:
            p = doc.parent[i]
            chars[p] += chars[i]
            tagged[p] += tagged[i]
    return chars, tagged


#: Elements whose text is a control's label (:func:`query_widgets`).
_CONTROL_TEXT = frozenset({"label", "option", "button", "select", "legend", "a"})


def _heaviest_root(doc: Document, template: Sequence[bool], start: int, end: int
                   ) -> tuple[int, int]:
    """The heaviest content root (non-link own text, as
    :func:`.region.content_region` weighs it) among the elements ``start``
    .. ``end - 1`` and its weight, or ``(-1, 0)``."""
    ignored = doc.ignored_mask()
    in_link: dict[int, bool] = {}
    mass: dict[int, int] = {}
    root_of: dict[int, int] = {}
    for i in range(start, end):
        p = doc.parent[i]
        in_link[i] = doc.tag[i] == "a" or in_link.get(p, False)
        if template[i] or ignored[i]:
            continue
        r = root_of.get(p, i) if p >= start and not template[p] else i
        root_of[i] = r
        mass[r] = mass.get(r, 0) + (0 if in_link[i] else len(doc.text[i]))
    if not mass:
        return -1, 0
    root = max(mass, key=lambda r: (mass[r], -r))
    return root, mass[root]


def query_widgets(doc: Document, template: Sequence[bool], region: int,
                  seen: Collection[str] = (), site_titles: Sequence[str] = ()) -> list[int]:
    """Roots of the widgets around query forms inside ``region`` (our rule):
    from each form that queries (:func:`find_query_forms`: a search panel,
    a filter, a sorting bar), the largest ancestor whose text
    is at least half control labels (``label``, ``option``, ``button``,
    links) and that holds neither the page's title nor its main text (the
    heaviest content root after the title). A catalogue's filter panel, its
    checkboxes outside the form itself, is chrome of the listing's kind that
    no other page kind carries, so no vote calls it template. O(size of the
    region) per form."""
    forms = find_query_forms(doc, region)
    if not forms:
        return []
    end = region + doc.size[region]
    titles = [t for t in title_nodes(doc, template, seen, site_titles)
              if doc.is_ancestor(region, t) and t != region]
    t = titles[0] if titles else -1
    body, _ = _heaviest_root(doc, template, t + doc.size[t] if t >= 0 else region + 1, end)
    chars, labels = _tagged_text(doc, region, _CONTROL_TEXT)

    def holds_page(a: int) -> bool:
        return (t >= 0 and doc.is_ancestor(a, t)) or (body >= 0 and doc.is_ancestor(a, body))

    out = []
    for q in forms:
        top, a = q, doc.parent[q]
        while a > region and not holds_page(a) and 2 * labels[a] >= chars[a]:
            top, a = a, doc.parent[a]
        if not holds_page(top):
            out.append(top)
    return out


def head_zone(doc: Document, template: list[bool], region: int,
              seen: Collection[str] = (), site_titles: Sequence[str] = (),
              query_forms: bool = True, series_links: bool = True,
              shared: Collection[str] = ()) -> list[bool]:
    """Inside the content region, in place: template between the page's
    title heading and its main text is content (our rule).
    Chrome inside a content region sits at its edges (breadcrumbs before
    the title; pagination, share bars, related lists, comment forms after
    the text); what sits between the title and the text it heads is the
    page's own: a byline, a date, a maintainer line, a product's price,
    options and "add to cart" form. The title is the first title heading
    (:func:`title_nodes`) inside the region; the main text is the heaviest
    content root (non-link own text, as :func:`content_region` weighs it)
    after it. Every template subtree that lies wholly between the two, and
    every template ancestor of either inside the region, becomes content.

    With ``query_forms``, a subtree holding a form that queries
    (:func:`query_forms`: a search panel, a filter or sorting bar) stays
    template: it leads to other pages of the site, where an order form that
    posts a product's options is the product's own.

    With ``series_links``, a subtree whose links to other
    pages all lead to pages of the key page's own URL kind
    (:func:`temex.page.urls.url_kind`: ``0101.html`` from ``0100.html``)
    stays template too: the previous / next / in-reply-to links of a series,
    which a byline, a price or an order form never are; the
    :data:`CHROME_LINK_TYPES` of :func:`link_type_chrome` told by their
    targets where the page gives no ``rel``.

    With ``shared`` (the own texts that every compared page has), a subtree
    all of whose text is among them and that holds two links or more to
    other pages stays template (nothing identical on
    every compared page is content): a side column of category links and
    shop promises that a breadcrumb heading puts "between" the title and
    the product. A byline is never such: its date or author differs from
    one of the compared pages, and it links to one author at most.
    (Measured on the shared sites' random key pages: with one link enough, a
    byline whose compared pages were all posted the same day by the same
    author turned template.)

    The content stage applies the same idea to text blocks in folder mode
    (:func:`temex.content.title.head_zone_blocks`): there the site's
    repeated text has already taken the chrome out, and the zone ends at
    the content region's first element."""
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    titles = [t for t in title_nodes(doc, template, seen, site_titles)
              if t in inside and t != region]
    if not titles:
        return template
    t = titles[0]
    for j in doc.descendants(t):
        template[j] = False
    start = t + doc.size[t]
    body, weight = _heaviest_root(doc, template, start, region + doc.size[region])
    if not weight:
        return template
    # link text below each node; the page's own links (its author, its
    # permalink) lead nowhere else: a byline's
    chars, links = _tagged_text(doc, region, _LINK,
                                skip=lambda j: own_link(doc, j))
    queries = find_query_forms(doc, region) if query_forms else []
    own_kind = url_kind(doc.url) if series_links and doc.url else None
    i = start
    while i < body:
        if template[i] and not ignored[i] and i + doc.size[i] <= body:
            if chars[i] and links[i] <= ZONE_LINK_SHARE * chars[i] and not any(
                    doc.is_ancestor(i, q) for q in queries) and not (
                    series_links and _series_navigation(doc, i, own_kind)) and not (
                    shared and _shared_navigation(doc, i, shared, ignored)):
                for j in doc.descendants(i):
                    template[j] = False
            i += doc.size[i]
        else:
            i += 1
    _free_ancestors(doc, template, region, (t, body))
    return template


def _free_ancestors(doc: Document, template: list[bool], region: int,
                    nodes: Sequence[int]) -> None:
    """Decides that every ancestor of ``nodes`` (the title heading and the
    main text) inside ``region``, the region itself excluded, is content,
    in place: what holds the page's own title or text is no chrome."""
    for x in nodes:
        for a in doc.ancestors(x):
            if a == region or not doc.is_ancestor(region, a):
                break
            template[a] = False


#: Fewest links to other pages that make a subtree of shared text a
#: navigation widget (:func:`_shared_navigation`): two, as for
#: :func:`named_link_lists`.
SHARED_NAVIGATION_LINKS = 2


def _shared_navigation(doc: Document, i: int, shared: Collection[str],
                       ignored: Sequence[bool]) -> bool:
    """Whether every own text below ``i`` is in ``shared`` (and there is
    some) and ``i`` holds :data:`SHARED_NAVIGATION_LINKS` links or more to
    other pages (:func:`head_zone`). O(size of ``i``)."""
    away = 0
    has_text = False
    for j in doc.descendants(i):
        if ignored[j]:
            continue
        if doc.text[j]:
            if doc.text[j] not in shared:
                return False
            has_text = True
        if doc.tag[j] == "a" and not own_link(doc, j):
            href = (dict(doc.attrs[j]).get("href") or "").strip()
            if href and not href.startswith("#"):
                away += 1
    return has_text and away >= SHARED_NAVIGATION_LINKS


def _series_navigation(doc: Document, i: int, own_kind: str | None) -> bool:
    """Whether ``i`` holds links to other pages and all of them lead to pages
    of URL kind ``own_kind`` (:func:`head_zone`). O(size of ``i``)."""
    if own_kind is None:
        return False
    away = 0
    for j in doc.descendants(i):
        if doc.tag[j] != "a":
            continue
        href = (dict(doc.attrs[j]).get("href") or "").strip()
        if not href or href.startswith("#"):
            continue
        if url_kind(href, doc.url) != own_kind:
            return False
        away += 1
    return away > 0
