"""Text blocks of a page: the units that content extraction keeps or drops.

A *block* is a block-level element (paragraph, heading, list item, cell,
``div`` ...) together with the text of its inline descendants (links, ``em``,
``span`` ...) up to the next nested block element; a line of the gold files of
CleanEval, Dragnet and big9 is such a block. Blocks are built from the
:class:`~temex.page.dom.Document` arrays in one O(n) pass, without walking the
Lexbor tree; their text is only used as a key (:func:`norm_key`), so the order
of pieces inside a block does not matter. Kept text is written out in document
order by :func:`temex.content.render.text_lines`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from hashlib import blake2b

from . import kernel
from .dom import IGNORED_TAGS, Document
from .tokens import tokens

__all__ = ["BLOCK_TAGS", "Blocks", "heaviest_element", "heaviest_subtree", "key_hash",
           "page_blocks", "norm_key", "shown_controls", "subtree_sums"]

BLOCK_TAGS = frozenset("""address article aside blockquote body br dd details dialog div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre
section summary table tbody td tfoot th thead tr ul caption legend option center
iframe select textarea button""".split())
HIDDEN_TAGS = IGNORED_TAGS | frozenset({"select", "option", "textarea", "button", "head",
                                        "title", "iframe", "svg"})
#: Form controls whose text may be shown (:func:`shown_controls`).
_CHOICE_TAGS = frozenset({"select", "option"})
_HIDDEN_FLAG = 8  # the HIDDEN bit of the kernel's tag_flags (_kernel.pxd)
#: Where a page declares its main content (:func:`loading_state`).
_MAIN = frozenset({"main"})
#: Most options of a list that :func:`shown_controls` shows: a product's
#: sizes and colours, not a directory.
MAX_OPTIONS = 30
_DIGITS = re.compile(r"\d+")


def key_hash(key: str) -> str:
    """Stable hash of a normalised block text (blake2b, 8 bytes, hex): the form in
    which a saved template stores the site's block texts."""
    return blake2b(key.encode("utf-8", "replace"), digest_size=8).hexdigest()


def norm_key(text: str) -> str:
    """Normalised block text used to find the same block on other pages of the
    site: lower-case, whitespace collapsed, digit runs replaced by ``0`` (dates,
    counters and comment counts change between otherwise equal blocks)."""
    # " ".join(text.split()) = re.sub(r"\s+", " ", text).strip(): both split on the
    # characters of str.isspace()
    return _DIGITS.sub("0", " ".join(text.split()).lower())


@dataclass
class Blocks:
    """Blocks of one page, as parallel lists in document order.

    Attributes
    ----------
    node : list of int
        The block element (document node number).
    pieces : list of list of int
        Elements contributing own text to the block, in document order.
    chars, link_chars : list of int
        Visible characters of the block, and those inside ``<a>`` elements.
    key : list of str
        :func:`norm_key` of the block text, computed on first use from
        ``texts`` (only the site index reads it: a lone page's content never
        does).
    joined : list of str
        The block texts, its pieces' texts joined by a space (computed on
        first use, then kept).
    hashed_key : list of str
        :func:`key_hash` of each :attr:`key` (computed on first use, then
        kept): the form a hashed site index counts.
    words : list of list of str
        The lower-cased words of each block text (computed on first use,
        then kept): :func:`temex.page.tokens.tokens` of each :attr:`joined`,
        the evaluation's tokens (the kernel's ``words_of`` gives the same).
    block_of : list of int
        For every document node, the index of the block it contributes to, or
        -1 (outside body, hidden, or no text).
    texts : list of str
        The page's own texts (:attr:`Document.text`) the blocks are made of.
    """

    node: list[int] = field(default_factory=list)
    pieces: list[list[int]] = field(default_factory=list)
    chars: list[int] = field(default_factory=list)
    link_chars: list[int] = field(default_factory=list)
    block_of: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list, repr=False)
    _key: list[str] | None = field(default=None, repr=False)
    _joined: list[str] | None = field(default=None, repr=False)
    _hashed: list[str] | None = field(default=None, repr=False)
    _words: list[list[str]] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.node)

    @property
    def joined(self) -> list[str]:
        if self._joined is None:
            k = kernel.get()
            if k is not None:
                self._joined = k.join_pieces(self.texts, self.pieces)
            else:
                text = self.texts
                self._joined = [" ".join([text[i] for i in ps]) for ps in self.pieces]
        return self._joined

    @property
    def key(self) -> list[str]:
        if self._key is None:
            k = kernel.get()
            self._key = (k.norm_keys(self.joined) if k is not None
                         else [norm_key(s) for s in self.joined])
        return self._key

    @key.setter
    def key(self, value: list[str]) -> None:
        self._key = value
        self._hashed = None

    @property
    def words(self) -> list[list[str]]:
        if self._words is None:
            k = kernel.get()
            self._words = (k.words_of(self.joined) if k is not None
                           else [tokens(s) for s in self.joined])
        return self._words

    @property
    def hashed_key(self) -> list[str]:
        if self._hashed is None:
            self._hashed = [key_hash(k) for k in self.key]
        return self._hashed


def page_blocks(doc: Document) -> Blocks:
    """Split the body of ``doc`` into text blocks (module docstring). O(n);
    cached on the document."""
    cached = doc.__dict__.get("_blocks")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    n = len(doc)
    if doc.body < 0:
        out = doc.__dict__["_blocks"] = Blocks(block_of=[-1] * n)
        return out
    shown = shown_controls(doc)
    reveal = loading_state(doc)
    k = kernel.get()
    if k is not None:  # the same loop, compiled
        flags = tag_flags(doc)
        if shown:
            mutable = bytearray(flags)
            for i in shown:
                mutable[i] &= ~_HIDDEN_FLAG
            flags = bytes(mutable)
        # the kernel reads the attributes only to tell what markup hides
        attrs = doc.attrs if not reveal else [() if i in reveal else a
                                              for i, a in enumerate(doc.attrs)]
        node, pieces, chars, link_chars, block_of = k.page_blocks(
            doc.parent, doc.text, attrs, doc.id, doc.body,
            doc.body + doc.size[doc.body], flags)
        out = doc.__dict__["_blocks"] = Blocks(node, pieces, chars, link_chars, block_of,
                                               doc.text)
        return out
    out = Blocks(block_of=[-1] * n)
    tag, parent, text, attrs = doc.tag, doc.parent, doc.text, doc.attrs
    owner = [-1] * n
    hidden = [False] * n
    in_link = [False] * n
    index: dict[int, int] = {}
    body = doc.body
    for i in range(body, body + doc.size[body]):
        t = tag[i]
        p = parent[i] if i != body else -1
        if (p >= 0 and hidden[p]) or (t in HIDDEN_TAGS and i not in shown) or (
                (attrs[i] or t == "dialog") and i not in reveal and _invisible(doc, i)):
            hidden[i] = True
            continue
        owner[i] = i if (t in BLOCK_TAGS or p < 0) else owner[p]
        in_link[i] = t == "a" or (p >= 0 and in_link[p])
        s = text[i]
        if not s and t == "img":
            continue
        if not s:
            continue
        o = owner[i]
        b = index.get(o)
        if b is None:
            b = index[o] = len(out.node)
            out.node.append(o)
            out.pieces.append([])
            out.chars.append(0)
            out.link_chars.append(0)
        out.pieces[b].append(i)
        out.chars[b] += len(s) + 1
        if in_link[i]:
            out.link_chars[b] += len(s) + 1
        out.block_of[i] = b
    out.texts = text  # keys on first use (Blocks.key)
    doc.__dict__["_blocks"] = out
    return out


def shown_controls(doc: Document) -> set[int]:
    """The ``select`` and ``option`` elements of the body whose text is
    shown, where every other form control is hidden (:data:`HIDDEN_TAGS`):
    the short lists of a form that orders. The one convention of
    the evaluation data counts a product's options as the page's content; a
    visitor reads them as part of the offer.

    A list is shown when its nearest ``form`` sends (``method="post"``)
    without asking for typed text, it holds at most :data:`MAX_OPTIONS`
    options and no option's value is an address. A search panel, filter
    or sorting bar queries (``method="get"``, HTML's default:
    :func:`temex.template.rules.head_zone.find_query_forms` draws the same
    line); a sign-up, contact or application form asks for typed text; a
    long list is a directory to pick from (countries, states, forums); a
    list of addresses is a jump menu; a list outside any form (a currency
    or language switch) is driven by a script. :data:`MAX_OPTIONS` was
    chosen on the development data
    (docs/journal/2026-11-26-content-a-products-options.md). O(n) scans in
    C, then O(depth) per control and O(size) per posting form; empty, and nearly free, on pages without a list box."""
    tag = doc.tag
    if "option" not in tag and "select" not in tag:
        return set()
    parent, attrs = doc.parent, doc.attrs
    sends: dict[int, bool] = {}  # form -> posts
    shown: set[int] = set()
    if doc.body < 0:
        return shown
    end = doc.body + doc.size[doc.body]
    for i in _positions(tag, _CHOICE_TAGS, doc.body, end):
        p = parent[i]
        while p >= 0 and tag[p] != "form":
            p = parent[p]
        if p < 0:
            continue
        if p not in sends:
            method = next((v for k, v in attrs[p] if k == "method"), "get")
            sends[p] = (method.strip().lower() == "post"
                        and not any(_typed_entry(tag[j], attrs[j]) for j in doc.descendants(p)))
        if sends[p]:
            shown.add(i)
    for i in [i for i in shown if tag[i] == "select"]:
        options = [j for j in doc.descendants(i) if tag[j] == "option"]
        if len(options) > MAX_OPTIONS or any(_an_address(attrs[j]) for j in options):
            shown.difference_update(doc.descendants(i))
    return shown


#: ``<input>`` types that take typed text (HTML's default type is ``text``).
_TEXT_INPUTS = frozenset({"", "text", "email", "password", "tel", "url", "search"})


def _typed_entry(tag: str, attrs: tuple[tuple[str, str], ...]) -> bool:
    """A field the visitor types into: a sign-up, contact or application
    form asks for it; an order form (options, a quantity) does not."""
    if tag == "textarea":
        return True
    if tag != "input":
        return False
    kind = next((v for k, v in attrs if k == "type"), "")
    return kind.strip().lower() in _TEXT_INPUTS


def _an_address(attrs: tuple[tuple[str, str], ...]) -> bool:
    """An option whose value is a URL or a path: the list is a jump menu
    (a script goes where the option points), not a choice sent with an
    order."""
    return any(k == "value" and "/" in v for k, v in attrs)


def _positions(tag: list[str], wanted: frozenset[str], start: int, end: int) -> list[int]:
    """Indices in ``[start, end)`` whose tag is in ``wanted`` (``list.index``
    scans in C)."""
    out = []
    for t in wanted:
        i = start
        while True:
            try:
                i = tag.index(t, i, end)
            except ValueError:
                break
            out.append(i)
            i += 1
    return out


def tag_flags(doc: Document) -> bytes:
    """One byte per element for the kernel (block element, ``pre``, ignored,
    hidden, ``a``: ``_kernel.tag_flags``); cached on the document. Only
    called when the kernel runs."""
    flags = doc.__dict__.get("_tag_flags")
    if flags is None:
        k = kernel.get()
        assert k is not None
        flags = doc.__dict__["_tag_flags"] = k.tag_flags(doc.tag, BLOCK_TAGS, IGNORED_TAGS,
                                                          HIDDEN_TAGS)
    return flags  # type: ignore[no-any-return]


def _invisible(doc: Document, i: int) -> bool:
    """Elements hidden by markup: ``hidden``, inline ``display:none`` or
    ``visibility:hidden`` (pop-ups, templates for scripts), a ``popover``
    (the browser shows it only when a script or button opens it, WHATWG
    HTML 6.12) and a modal dialog (``aria-modal="true"``, WAI-ARIA 1.2: it
    covers the page when opened: policies, sign-in, newsletter, cookie
    consent), and a ``<dialog>`` without ``open`` (browsers do not render
    it, WHATWG HTML 4.11.3). A streamed segment is not hidden
    (:func:`streamed_segment`), nor a tab panel by ``hidden`` or its
    style (:func:`tab_panel`)."""
    a = doc.attrs[i]
    if doc.tag[i] == "dialog" and not any(k == "open" for k, _ in a):
        return True
    if not a:
        return False
    for k, v in a:
        if k == "hidden" and not tab_panel(a):
            return not streamed_segment(doc.id[i])
        if k == "style" and "none" in v:
            s = v.replace(" ", "").lower()
            if ("display:none" in s or "visibility:hidden" in s) and not tab_panel(a):
                return True
        if _overlay(k, v):
            return True
    return False


def _overlay(k: str, v: str) -> bool:
    """Whether this attribute makes its element a popover or a modal dialog,
    shown only when a script or button opens it (:func:`_invisible`)."""
    return k == "popover" or (k == "aria-modal" and v.strip().lower() == "true")


def loading_state(doc: Document) -> set[int]:
    """The children of ``<body>``, or of a ``<main>``, that their own markup
    hides (``hidden``, an inline ``display:none`` or ``visibility:hidden``)
    where no other child of that parent shows any text: they are read as
    shown.

    Why: ``main`` is "the dominant contents of the body" (WHATWG HTML,
    4.4.14), and a page does not hide all of it, or all of its body, for
    good. Such markup is a state a script ends when it runs: an access gate
    (a shop's age or login "lockdown" app wraps the whole product in
    ``<div style="display:none">`` until it has checked), a wrapper hidden
    until the fonts or the framework load. Taken at its word, the page had
    no text (a 2026 product page: token F1 0.029). Where any other child
    shows text (a visible article beside a hidden menu or pop-up), nothing
    is read as shown; a dialog, popover or modal is never shown
    (:func:`_invisible`). Our rule; Readability.js and trafilatura do not
    read inline styles this way. O(children), and each visible child's
    subtree only up to its first text."""
    body = doc.body
    if body < 0:
        return set()
    tag, text, children, size = doc.tag, doc.text, doc.children, doc.size
    parents = [body, *_positions(tag, _MAIN, body, body + size[body])]

    def has_text(c: int) -> bool:
        return any(text[j] for j in range(c, c + size[c]) if tag[j] not in IGNORED_TAGS)

    out: set[int] = set()
    for p in parents:
        hidden: list[int] = []
        for c in children[p]:
            if tag[c] in IGNORED_TAGS:
                continue
            if (doc.attrs[c] or tag[c] == "dialog") and _invisible(doc, c):
                # hidden by ``hidden`` or its style unless a dialog, popover or
                # modal, which shows nothing of the page
                if tag[c] != "dialog" and not any(_overlay(k, v) for k, v in doc.attrs[c]):
                    hidden.append(c)
                continue
            if has_text(c):
                break
        else:
            out.update(c for c in hidden if has_text(c))
    return out


def tab_panel(attrs: tuple[tuple[str, str], ...]) -> bool:
    """Whether an element of these attributes is a tab panel
    (``role="tabpanel"``, WAI-ARIA 1.2: "a container for the resources
    associated with a tab"). A page of tabs shows one panel and hides the
    others with ``hidden`` or ``display:none`` (the ARIA Authoring
    Practices' tabs pattern) until their tab is chosen; they are the page's
    content one click away, as the panels of a stylesheet's tabs
    (Bootstrap's ``.tab-pane``), which no markup hides, are read already: a
    quickstart's code in eight languages, a product's details beside its
    description."""
    return any(k == "role" and "tabpanel" in v.lower().split() for k, v in attrs)


def streamed_segment(id_: str) -> bool:
    """Whether an element of this ``id`` is a segment that server rendering
    streamed after its place in the page: React 18's streaming SSR
    (Next.js, Remix and others) sends a late part of the page as
    ``<div hidden id="S:n">`` with a script that moves it into its
    ``<template id="B:n">`` placeholder at once, so a reader sees it where
    the placeholder was. Its ``hidden`` hides nothing from a reader; taken at
    its word, a whole article was hidden (a 2025 post scored 0.000)."""
    return id_.startswith("S:") and id_[2:].isdigit()


def subtree_sums(doc: Document, blocks: Blocks, *columns: Sequence[float]) -> list[list[float]]:
    """For each column (one value per block), the sum of the values of the
    blocks inside each element's subtree, for the elements of ``<body>``
    (elsewhere: the element's own blocks only). One pass over the blocks and
    one reverse pre-order pass over ``<body>``, whatever the number of
    columns. O(n·k). Compiled when the kernel runs: the same additions in the
    same order, ints kept ints."""
    n = len(doc)
    k = kernel.get()
    if k is not None and doc.body >= 0:
        got = k.subtree_sums(doc.parent, doc.body, doc.body + doc.size[doc.body], blocks.node,
                             columns)
        if got is not None:
            return got  # type: ignore[no-any-return]
    sums: list[list[float]] = [[0] * n for _ in columns]
    node = blocks.node
    for col, s in zip(columns, sums):
        for b, v in enumerate(col):
            s[node[b]] += v
    body = doc.body
    parent = doc.parent
    for i in range(body + doc.size[body] - 1, body, -1):
        p = parent[i]
        for s in sums:
            s[p] += s[i]
    return sums


def heaviest_subtree(doc: Document, blocks: Blocks, block_weight: list[float]) -> int:
    """The element of ``<body>`` whose subtree holds the largest sum of its
    blocks' weights (a maximum-weight subtree, the tree analogue of the
    densest region of Finn et al. 2001's body-text extraction); ``<body>``
    itself on ties. O(n)."""
    (weight,) = subtree_sums(doc, blocks, block_weight)
    return heaviest_element(doc, weight)


def heaviest_element(doc: Document, weight: Sequence[float]) -> int:
    """:func:`heaviest_subtree` from the subtree sums of the weights
    (:func:`subtree_sums`), for a caller that reads the sums again. O(n)."""
    body = doc.body
    span = weight[body:body + doc.size[body]]
    # the first element of the largest sum (sums are finite: max and index
    # agree with a strict ">" scan), at C speed
    return body + span.index(max(span))
