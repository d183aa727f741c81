"""The rules after the vote, in the order they run: the switches
(:class:`Rules`), what the compared pages tell them (:class:`Compared`), the
steps that place the content region (:data:`PLACING`) and the passes over
the mask that follow (:data:`PASSES`), each named, with its switch and where
it was measured; :func:`apply_region` runs them.

A step runs when its switch is on: a :class:`Rules` field that is neither
False nor None (``link_types=0`` is on: a length of 0). Every step but the
first placing one runs only with ``closure``, the rules inside the region.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ...page.dom import Document
from ...page.linenos import gutters
from ...page.permalinks import permalinks
from ...page.readmore import read_more_links
from ...page.tocs import tocs
from ..defaults import DEFAULT_REGION
from ..moved import DEFAULT_MOVED
from .evidence import DEFAULT_EVIDENCE_SHARE
from .finish import follow_parent, labels_follow_block, table_headers
from .head_zone import head_zone, query_widgets
from .links import LINK_TYPE_TEXT, link_type_chrome, named_link_lists
from .records import DEFAULT_RECORD_SHARE, listing_row, refine_region, siblings_alike
from .region import MIN_REGION_SHARE, comment_text, content_region, text_share, whole_table
from .title import title_nodes, widen_to_title

__all__ = ["PASSES", "PLACING", "RULES", "Compared", "Rules", "Step", "apply_region"]


@dataclass(frozen=True)
class Rules:
    """The template detectors' rule switches; the defaults are what temex
    runs. Each field is described where it is used: the vote's in
    :class:`temex.template.detectors.VoteDetector`, the others in
    :data:`PLACING` and :data:`PASSES`."""

    # the per-page mapping and the vote
    evidence: bool = True
    region: float | None = DEFAULT_REGION
    region_threshold: float | None = 0.67
    evidence_share: float | None = DEFAULT_EVIDENCE_SHARE
    digits: bool = True
    moved: int | None = DEFAULT_MOVED
    kind_vote: bool = True
    # after the vote (PLACING, PASSES)
    record_share: float | None = DEFAULT_RECORD_SHARE
    closure: bool = True
    title: bool = True
    site_title: bool = True
    query_forms: bool = True
    link_types: int | None = LINK_TYPE_TEXT
    named_lists: bool = True
    labels: bool = True

    def with_switches(self, **switches: Any) -> Rules:
        """A copy with ``switches`` (field names) changed; a name that is no
        switch raises TypeError, as an unknown keyword does."""
        return replace(self, **switches) if switches else self


#: The default switches.
RULES = Rules()

#: Names of the :class:`Rules` fields, in their order.
RULE_NAMES = tuple(f.name for f in fields(Rules))


@dataclass(frozen=True)
class Compared:
    """What the compared pages tell the rules (worked out once per fit):
    ``seen``, every own text they have (:func:`.base.seen_texts`);
    ``site_titles``, their ``<title>`` lines (empty with ``site_title``
    off); ``shared``, the own texts all of them have; ``rows``, whether a
    node of the key page is a listing's row by the pages of its kind
    (:func:`temex.template.detectors.vote.peer_rows`; None: no answer)."""

    seen: Collection[str] = ()
    site_titles: Sequence[str] = ()
    shared: Collection[str] = ()
    rows: Callable[[int], bool] | None = None


#: No compared page to tell anything (a saved template applied to a page).
NOTHING_COMPARED = Compared()


@dataclass
class Run:
    """One page through the steps: its mask as the vote left it
    (``template``; ``inside``, the stricter vote inside the region), the
    region's root (``region``; ``core``, where it was before it was widened
    to the title), a short listing's rows (``own_rows``) and the mask the
    passes change (``out``)."""

    doc: Document
    template: list[bool]
    inside: Sequence[bool] | None
    rules: Rules
    compared: Compared
    region: int = -1
    core: int = -1
    own_rows: list[int] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)

    def mark(self, roots: Collection[int], template: bool) -> None:
        """Every node below each of ``roots`` set to ``template``."""
        for r in roots:
            for j in self.doc.descendants(r):
                self.out[j] = template


@dataclass(frozen=True)
class Step:
    """A named step: it runs when ``switch`` (a :class:`Rules` field name)
    is on; ``measured`` says where its effect was measured."""

    name: str
    switch: str
    run: Callable[[Run], None]
    measured: str

    def on(self, rules: Rules) -> bool:
        value = getattr(rules, self.switch)
        return value is not None and value is not False


# -- placing the region ------------------------------------------------------

def _widen_to_listing(r: Run) -> None:
    if r.compared.rows is None:
        return
    row = listing_row(r.doc, r.region, r.compared.rows)
    if row >= 0:
        r.region = r.core = r.doc.parent[row]
        r.own_rows = siblings_alike(r.doc, row)


def _widen_to_title(r: Run) -> None:
    r.region = widen_to_title(r.doc, r.region, r.template if r.inside is None else r.inside,
                              r.compared.seen, r.compared.site_titles)


def _whole_table(r: Run) -> None:
    r.region = whole_table(r.doc, r.region)


#: The steps that move the region once it is found (each with ``closure``),
#: in order. The stricter inside vote holds up to the end of the region as
#: it is before the title step (``core``).
PLACING: tuple[Step, ...] = (
    Step("a short listing's row widens to its listing", "record_share", _widen_to_listing,
         "random key pages, seeds 1 and 2 (c3aee7f; the journal's 'What changed')"),
    Step("the region widens to the page's title", "title", _widen_to_title,
         "every shared site and leave one site out (ca50ec3, ffe6db5; the heading the "
         "text follows: e7fc489)"),
    Step("a row group's region is its table", "closure", _whole_table,
         "every shared site (f58d5bc)"),
)


def _find_region(doc: Document, template: Sequence[bool], coverage: float,
                 inside: Sequence[bool] | None, closure: bool) -> int:
    """The content region (:func:`.region.content_region`) under the vote's
    mask; where there is none, or it holds under :data:`MIN_REGION_SHARE` of
    the page's text (a slot, a comment count), the one under the text-share
    rule's mask ``inside``.

    Every node repeats under the first evidence rule (pages of one kind
    share their furniture and labels; listings of overlapping posts share
    their rows): look for the region where the text-share rule leaves
    page-specific text. Containers without own text that hold template
    under that rule (body, main, a product box with its "add to cart"
    button) stay template, so the content roots are the page-specific
    subtrees themselves."""
    region = content_region(doc, template, coverage, records=closure)
    if region >= 0 and inside is not None and text_share(doc, region) < MIN_REGION_SHARE:
        region = -1
    if region < 0 and inside is not None:
        mixed = list(inside)
        for i in range(len(doc) - 1, 0, -1):
            p = doc.parent[i]
            if mixed[i] and template[p] and not doc.text[p]:
                mixed[p] = True
        region = content_region(doc, mixed, coverage, records=closure)
    return region


def _outside_is_template(r: Run) -> None:
    """``out``: the vote's mask with every non-template node of ``<body>``
    outside the region template, but a comment thread's text after it
    (with ``closure``); inside the region, with ``inside``, the stricter
    vote up to the end of the text-mass region (``core``): widened to the
    title, the region also takes what follows the text in the title's
    container (related lists, "more on this story"), where the vote of the
    template around the region holds."""
    doc, region = r.doc, r.region
    out = list(r.template)
    inside = doc.descendants(region)
    for i in doc.in_body():
        if not out[i] and i not in inside:
            out[i] = True
    if r.rules.closure:
        for i in comment_text(doc, r.template, region):
            out[i] = False
    if r.inside is not None:
        after = r.core + doc.size[r.core] if r.core != region else len(doc)
        for i in inside:
            if i < after:
                out[i] = out[i] and bool(r.inside[i])
    r.out = out


# -- the passes over the mask --------------------------------------------------

def _root_is_content(r: Run) -> None:
    r.out[r.region] = False


def _head_zone(r: Run) -> None:
    c = r.compared
    head_zone(r.doc, r.out, r.region, c.seen, c.site_titles, r.rules.query_forms,
              series_links=r.rules.link_types is not None, shared=c.shared)


def _listing_rows(r: Run) -> None:
    r.mark(r.own_rows, False)


def _records_and_widgets(r: Run) -> None:
    # the title headings of the mask as the closure finds it, worked out
    # only if the closure meets a widget that holds content (title_nodes
    # is a fifth of a fit's time)
    before = list(r.out)
    found: list[list[int]] = []

    def title_headings() -> list[int]:
        if not found:
            found.append([x for x in title_nodes(r.doc, before, r.compared.seen,
                                                 r.compared.site_titles) if x != r.region])
        return found[0]

    refine_region(r.doc, r.out, r.region, r.rules.record_share, r.compared.seen,
                  title_headings if r.rules.title else None)


def _fillers(r: Run) -> None:
    follow_parent(r.doc, r.out, r.region)


def _table_headers(r: Run) -> None:
    table_headers(r.doc, r.out, r.region)


def _labels(r: Run) -> None:
    labels_follow_block(r.doc, r.out, r.region)


def _query_widgets(r: Run) -> None:
    r.mark(query_widgets(r.doc, r.out, r.region, r.compared.seen, r.compared.site_titles),
           True)


def _permalinks(r: Run) -> None:
    r.mark([_wrapper(r.doc, i) for i in permalinks(r.doc)], True)


def _wrapper(doc: Document, i: int) -> int:
    """The outermost element around ``i`` of which ``i`` is the only child,
    with no text of its own (Doxygen's ``<span class="permalink">`` around
    its link): it exists to hold the link, and is template with it."""
    parent, children, text = doc.parent, doc.children, doc.text
    w = i
    while parent[w] > doc.body and len(children[parent[w]]) == 1 and not text[parent[w]].strip():
        w = parent[w]
    return w


def _tocs(r: Run) -> None:
    r.mark(tocs(r.doc), True)


def _gutters(r: Run) -> None:
    r.mark(gutters(r.doc), True)


def _read_more(r: Run) -> None:
    r.mark([_wrapper(r.doc, i) for i in read_more_links(r.doc)], True)


def _named_lists(r: Run) -> None:
    r.mark(named_link_lists(r.doc, r.region), True)


def _link_types(r: Run) -> None:
    titles = [t for t in title_nodes(r.doc, r.out, r.compared.seen, r.compared.site_titles)
              if r.doc.is_ancestor(r.region, t)][:1]
    link_types = r.rules.link_types
    assert link_types is not None
    r.mark(link_type_chrome(r.doc, r.region, titles, link_types), True)


#: The passes over the mask after the region is placed (each with
#: ``closure``), in order. "What changed" is the table of that name in
#: docs/journal/2026-11-25-core-what-changed-and-what-each-change.md.
PASSES: tuple[Step, ...] = (
    Step("the region's root is content", "closure", _root_is_content,
         "every shared site (ca50ec3)"),
    Step("between the title and the text is content (head zone)", "title", _head_zone,
         "every shared site, leave one site out (ffe6db5); query forms, series links, own "
         "links, shared navigation: 'What changed' (3a529a4, 3e49358, ed0baa4, fec072d)"),
    Step("a short listing's rows are content", "record_share", _listing_rows,
         "random key pages, seeds 1 and 2 (c3aee7f; 'What changed')"),
    Step("record lists are content; template comes as whole widgets", "closure",
         _records_and_widgets,
         "leave one site out (ca50ec3); rows that moved (b28e41d), the title is no slot "
         "(7c08353): 'What changed'"),
    Step("text-free fillers follow their block", "closure", _fillers,
         "every shared site (bc13fc2)"),
    Step("a content table's header rows are content", "closure", _table_headers,
         "every shared site (f58d5bc)"),
    Step("short labels follow their line", "labels", _labels,
         "every shared site (f4c7281; 'What changed')"),
    Step("the widget around a query form is template", "query_forms", _query_widgets,
         "every shared site (60497e2; 'What changed')"),
    Step("permalinks are template", "closure", _permalinks,
         "toppra-furo, random key pages (f11daa6; 'What changed')"),
    Step("in-page tables of contents are template", "closure", _tocs,
         "every page of every shared site, the content sets (2026-12-06, in-page tables "
         "of contents)"),
    Step("code blocks' line-number gutters are template", "closure", _gutters,
         "every page of every shared site, the content sets (2026-12-06, in-page tables "
         "of contents)"),
    Step("listing entries' read-more links are template", "closure", _read_more,
         "every page of every shared site, the content sets (2026-12-07, read-more links)"),
    Step("link lists named as navigation are template", "named_lists", _named_lists,
         "every shared site, leave one site out (ee969af; 'What changed')"),
    Step("link lists told by their link types or targets are template", "link_types",
         _link_types,
         "leave one site out over None, 100, 200, 400 (f884fdb, e9d1262); series lists "
         "told by their targets (fec072d): 'What changed'"),
)


def apply_region(doc: Document, template: list[bool], coverage: float = DEFAULT_REGION,
                 inside_template: Sequence[bool] | None = None, rules: Rules = RULES,
                 compared: Compared = NOTHING_COMPARED,
                 info: dict[str, int] | None = None) -> list[bool]:
    """Mark every non-template node of ``<body>`` outside the content region
    as template, then run the passes inside it. Such nodes are slots of the
    template filled per page (page title in the header, the active menu
    item, an on-page table of contents, previous/next links): their text
    differs between pages but they are not the page's content. The region
    (the share ``coverage`` of the page's own text, :func:`_find_region`)
    is moved by :data:`PLACING` and its root is content. With
    ``inside_template``, nodes inside the region are template only where
    that stricter mask says so (up to the end of the text). With
    ``rules.closure``, :data:`PASSES` follow, each under its switch. With
    ``info``, the region's root is stored as ``info["region"]`` (-1 when
    none). Returns a new mask; ``template`` when there is no region."""
    r = Run(doc, template, inside_template, rules, compared)
    r.region = r.core = _find_region(doc, template, coverage, inside_template, rules.closure)
    for step in PLACING:
        if r.region >= 0 and rules.closure and step.on(rules):
            step.run(r)
    if info is not None:
        info["region"] = r.region
    if r.region < 0:
        return template
    _outside_is_template(r)
    if rules.closure:
        for step in PASSES:
            if step.on(rules):
                step.run(r)
    # The region's root is the element the page's content was poured into
    # (the gold's content element); it is content even when a template
    # control (an "edit" button) sits inside it. The template then is no
    # longer closed upwards at this one node; render.template_html keeps such
    # controls visible.
    r.out[r.region] = False
    return r.out
