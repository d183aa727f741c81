"""``VoteDetector`` (method ``vote``, the default), TeMex paper §3.1 phase 2:
the key page is mapped (ETDM) to each page independently; a key-page node
belongs to the template when it is mapped in more than ``threshold`` of the
pages (default: a strict majority), with the evidence and content-region rules
of :mod:`temex.template.rules`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...errors import ParameterError
from ...page.dom import HEADING_TAGS, Document
from ...page.urls import kind_peer
from ..equality import DEFAULT_EQUALITY, Equality
from ..mapping import DEFAULT_MAX_CELLS
from ..model import TemplateModel
from ..rules import RULES, Rules, apply_region, siblings_alike
from .base import BaseDetector, kind_mask

__all__ = ["VoteDetector"]


class VoteDetector(BaseDetector):
    """TeMex majority vote over independent ETDMs (TeMex paper §3.1 phase 2).

    Parameters
    ----------
    equality : str or Equality, default "label"
        Node relation ≅ (see :mod:`temex.template.equality`).
    threshold : float in [0, 1), default 0.5
        A node is template when mapped (and supported) in *more than*
        ``threshold`` × (number of pages) pages: 0.5 is a strict majority
        (2 of 2, 2 of 3, 3 of 4), 0 is "any page". Measured on the shared
        sites (docs/journal (core)): a strict majority beats "at least half"
        from n = 4 on (0.985 vs 0.959 mean template F1); use the
        ``intersect`` detector for "every page".
    max_cells : int
        Largest children alignment table before the greedy fallback
        (:mod:`temex.template.mapping`).
    rules : temex.template.rules.Rules, default the defaults below
        The rule switches, one frozen object; each field below may also be
        given by name (``VoteDetector(title=False)``), over ``rules``.
    evidence : bool, default True
        Require repetition evidence under a mapped node (module docstring).
    region : float or None, default 0.7
        Content-region rule (module docstring): non-template nodes outside the
        lowest common ancestor of the content roots holding this share of the
        page's non-template text become template. None turns it off.
    region_threshold : float in [0, 1) or None, default 0.67
        Inside the content region a node is template only when more than this
        share of the pages map it (0.67: 2 of 2, 3 of 3, 3 of 4, 4 of 5);
        None: every page must. The page's own area is where one kind of page
        repeats its own furniture (section headings of every product page, a
        share bar under every post) and where incidental repeats happen; a
        stricter vote there keeps them with the content, while the template
        around the region still needs only a majority. Chosen on the shared
        sites (docs/EXPLORATION.md): with 3 pages (4 loads) it lifts
        digitalplant's content F1 from 0.941 to 0.963 (hackingthe.cloud 0.988
        to 0.960); with 4 pages it changes nothing, where unanimity would
        drop an "edit" button that 3 of 4 pages share.
    kind_vote : bool, default True
        The key page's peers vote too (:func:`kind_vote`): where two or more
        of the compared pages, but not all, are of the key page's kind by
        their address (:func:`temex.page.urls.kind_peer`: its URL kind, its
        folder), a node that the peers map and support under the text-share
        rule by the ``region_threshold`` vote among them is template, though
        pages of other kinds outvote it: the chrome of a page kind (a reward
        or share box under every post) is template by the data convention,
        and with two posts and two menu pages compared it had 2 votes of 4.
        Headings are left to the vote of all pages (a kind's section
        headings, "Description", "Ingredients", name the page's own
        sections). Chosen leave-one-site-out (docs/journal (core)).
    evidence_share : float in [0, 1] or None, default 0.5
        Inside the content region, share of a text-holding subtree's
        characters that must be repeated for it to count as evidence
        (:func:`temex.template.rules.supported_mapping`); None: any repeated text below a
        node is evidence (the first rule, still used to find the region).
    record_share : float in [0, 1] or None, default 0.5
        Record lists inside the content region whose text is at least this
        share page-specific are content (:func:`temex.template.rules.refine_region`);
        None: off.
    digits : bool, default True
        In the text-share evidence rule, texts that differ only in digit runs
        ("Page 1 of 6", "Tweet 0") count as repeated.
    title : bool, default True
        With ``closure``, widen the content region to the page's title
        heading (an ``<h1>``, or an ``<h2>``/``<h3>`` named by the
        ``<title>``: :func:`temex.template.rules.widen_to_title`) and make what lies
        between the title and the text content (:func:`temex.template.rules.head_zone`).
    site_title : bool, default True
        A heading whose text most compared pages carry in their
        ``<title>`` names the site, not the page, and is no title
        (:func:`temex.template.rules.title_nodes`: a blog's name in the ``<h1>``
        of its home page widened the region over the whole page).
    query_forms : bool, default True
        Inside the region, the widget around a form that queries (a search
        panel, a filter or sorting bar: :func:`temex.template.rules.find_query_forms`,
        :func:`temex.template.rules.query_widgets`) is template, and between the title and
        the text such a form stays template (:func:`temex.template.rules.head_zone`).
    link_types : int or None, default 200
        Inside the region, a list of links most of which have the HTML link
        type ``tag``, ``prev`` or ``next`` (tag and category lines, the
        previous / next post) or, where no ``rel`` says so, lead to pages of
        the key page's own URL kind (a message's next / previous / in reply
        to), with at most this many characters outside its links, is
        template (:func:`temex.template.rules.link_type_chrome`); None: off, and the head
        zone's series rule with it.
    named_lists : bool, default True
        Inside the region, a link list named as navigation (``nav``,
        ``pagination``, ``tags``, ``share``, ``related``, ``prev`` /
        ``next`` ... in its id or classes) is template
        (:func:`temex.template.rules.named_link_lists`).
    labels : bool, default True
        Inside the region, a short inline label ("From", "Posted on", "by")
        that the vote maps follows the content line it labels
        (:func:`temex.template.rules.labels_follow_block`).
    moved : int or None, default 20
        A block of the key page that ETDM leaves unmapped (the page, or
        the parser repairing its markup, nested it elsewhere) is mapped onto
        an identical unmapped block anywhere on the page when it holds at
        least this many characters of text
        (:func:`temex.template.moved.moved_blocks`); None: ETDM alone.
    closure : bool, default True
        The rules inside the region (:func:`temex.template.rules.refine_region`: record
        lists, whole widgets; :func:`temex.template.rules.follow_parent`: text-free
        fillers; :func:`temex.template.rules.table_headers`), the title rule
        (:func:`temex.template.rules.widen_to_title`) and, placing the region, sibling
        records weighed as one root and row groups widened to their table
        (:func:`temex.template.rules.content_region`, :func:`temex.template.rules.whole_table`).

    Attributes
    ----------
    model_ : TemplateModel
    template_, votes_ : list
        Shortcuts to ``model_.template`` and ``model_.votes``.

    Notes
    -----
    Cost: one ETDM per page, O(n) evidence pass per page, O(n) vote.
    """

    method = "vote"

    PARAMS = ("equality", "threshold", "evidence", "region", "region_threshold", "max_cells",
              "evidence_share", "record_share", "closure", "digits", "title", "site_title",
              "query_forms", "link_types", "named_lists", "labels", "moved", "kind_vote")

    def __init__(self, equality: str | Equality = DEFAULT_EQUALITY, threshold: float = 0.5,
                 max_cells: int = DEFAULT_MAX_CELLS, rules: Rules = RULES,
                 **switches: Any) -> None:
        super().__init__(equality, max_cells, rules, **switches)
        self.threshold = threshold

    def fit(self, key: Document, pages: Sequence[Document]) -> VoteDetector:
        eq = self._validate()
        for name in ("threshold", "region_threshold"):
            value = getattr(self, name)
            if name == "region_threshold" and value is None:
                continue
            if not isinstance(value, (int, float)) or not 0 <= value < 1:
                raise ParameterError(name, "a number in [0, 1)"
                                     + (" or None" if name == "region_threshold" else ""), value)
        t0 = time.perf_counter()
        votes = [0] * len(key)
        votes_in = [0] * len(key)
        votes_peers = [0] * len(key)
        kinds = [kind_peer(key.url, page.url) for page in pages]
        rules = self.rules
        peers = [rules.kind_vote and k for k in kinds]
        kind_maps: list[tuple[Document, dict[int, int]]] = []
        for page, peer, kin in zip(pages, peers, kinds):
            first, shared, mapping = self._page_masks(key, page, eq)
            if kin:
                kind_maps.append((page, mapping))
            for i, m in enumerate(first):
                if m:
                    votes[i] += 1
            for i, m in enumerate(shared):
                if m:
                    votes_in[i] += 1
                    if peer:
                        votes_peers[i] += 1
        n = len(pages)
        need = math.floor(self.threshold * n + 1e-9) + 1  # votes > threshold·n
        template = [v >= need for v in votes] if pages else [False] * len(key)
        info = {"region": -1}
        if pages and rules.region is not None:
            rt = rules.region_threshold
            need_in = n if rt is None else math.floor(rt * n + 1e-9) + 1
            inside = [v >= need_in for v in votes_in]
            kind = kind_vote(key, votes_peers, sum(peers), n, rt)
            if kind is not None:
                template = [a or b for a, b in zip(template, kind)]
                inside = [a or b for a, b in zip(inside, kind)]
            template = apply_region(key, template, rules.region, inside_template=inside,
                                    rules=rules, info=info,
                                    compared=self._compared(pages, peer_rows(key, kind_maps)))
        self._model = TemplateModel(
            key=key, template=template, votes=votes, pages=[p.url for p in pages],
            method=self.method, params=self.params_dict(),
            timings={"fit": time.perf_counter() - t0}, region=info["region"],
            kind_template=kind_mask(key, template, info["region"]))
        return self


def kind_vote(key: Document, votes: Sequence[int], n_peers: int, n: int,
              threshold: float | None) -> list[bool] | None:
    """The peers' vote (our addition): nodes of ``key``
    that more than ``threshold`` of its ``n_peers`` peers support (``votes``
    under the text-share rule; None: all of them), headings and what they
    hold left out (:data:`temex.template.rules.HEADING_TAGS`: a kind's section headings
    name the page's own sections). None when the peers are fewer than two
    (one page agreeing is chance) or are all ``n`` compared pages (the vote
    of all pages already is theirs). O(n)."""
    if n_peers < 2 or n_peers >= n:
        return None
    need = n_peers if threshold is None else math.floor(threshold * n_peers + 1e-9) + 1
    headed = key.inside_mask(HEADING_TAGS)
    return [v >= need and not h for v, h in zip(votes, headed)]


#: Rows of one listing are built alike: a key page's element and its
#: counterpart on a compared listing count as rows only when neither
#: subtree has more than this many times the other's elements
#: (:func:`peer_rows`).
ROW_SIZE = 2


def peer_rows(key: Document, kind_maps: Sequence[tuple[Document, dict[int, int]]]
              ) -> Callable[[int], bool]:
    """Whether a node of ``key`` is a listing's row by the compared pages of
    its kind (``kind_maps``: each page with ETDM's mapping from ``key``):
    most of them map it onto an element of about its size (within a factor
    of :data:`ROW_SIZE`, in elements: rows of one listing are built alike)
    with more siblings alike (:func:`temex.template.rules.siblings_alike`) than it
    has on the key page. A category with one post is compared with
    categories of ten: there the post's element is one of ten, as big as
    the key page's. (Without the size, a forum's page wrapper mapped onto
    one of the small boxes a thread page stacks.) Asked by
    :func:`temex.template.rules.listing_row` for a few ancestors of the region only."""
    def is_row(i: int) -> bool:
        if not kind_maps:
            return False
        own = len(siblings_alike(key, i))
        hits = 0
        for page, mapping in kind_maps:
            j = mapping.get(i)
            if j is None or not key.size[i] <= ROW_SIZE * page.size[j] \
                    or not page.size[j] <= ROW_SIZE * key.size[i]:
                continue
            if len(siblings_alike(page, j)) > own:
                hits += 1
        return 2 * hits > len(kind_maps)
    return is_row
