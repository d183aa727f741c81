"""The finishing passes inside the content region (our rules): text-free
fillers follow the block that holds them, a content table's header rows are
content, short labels follow the line they label.
"""

from __future__ import annotations

from ...page.blocks import BLOCK_TAGS
from ...page.dom import Document
from .region import ROW_GROUPS

__all__ = ["CONTROL_TAGS", "LABEL_CHARS", "follow_parent", "labels_follow_block",
           "table_headers"]


#: Longest text of a label that follows its block (:func:`labels_follow_block`).
LABEL_CHARS = 30


def labels_follow_block(doc: Document, template: list[bool], region: int) -> list[bool]:
    """Inside the content region, in place: a short inline label that is
    template in a block that is content is content (our rule):
    "From", "Date", "Posted on", "by", "Brand:" repeat on every page,
    so the vote maps them, but they are part of the line they label,
    whose value differs (text-aware equality at the level of the line).
    Inline means an element that is no block (:data:`BLOCK_TAGS`) under the
    nearest block ancestor; short, at most :data:`LABEL_CHARS`
    characters; a label holds no link or control (:data:`CONTROL_TAGS`: a
    "Continue reading" link or an icon button is chrome). O(size of the
    region)."""
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    control = [False] * len(doc)
    for i in reversed(inside):
        if doc.tag[i] in CONTROL_TAGS:
            control[i] = True
        if i != region and control[i]:
            control[doc.parent[i]] = True
    block: dict[int, int] = {}
    for i in inside:
        block[i] = i if (doc.tag[i] in BLOCK_TAGS or i == region) else \
            block.get(doc.parent[i], region)
    for i in inside:
        b = block[i]
        if (template[i] and b != i and not template[b] and not ignored[i] and not control[i]
                and 0 < len(doc.subtree_text(i).strip()) <= LABEL_CHARS):
            for j in doc.descendants(i):
                template[j] = False
    return template


#: Elements that make a text-free subtree a control rather than a filler
#: (:func:`follow_parent`): a link, a button, a form field.
CONTROL_TAGS = frozenset({"a", "button", "input", "select", "textarea", "form", "label",
                          "iframe", "object", "embed"})


def follow_parent(doc: Document, template: list[bool], region: int) -> list[bool]:
    """Inside the content region, in place: a template subtree that holds no
    text and no control (:data:`CONTROL_TAGS`) and whose parent is content
    becomes content (our rule). Spacers, dividers, clearing
    ``<br>``, pictures and icons between paragraphs are identical on every
    page, so the vote maps them, but they carry no evidence of their own:
    they belong to the block that holds them. A text-free control (an "edit"
    icon, a share button) stays template; a link around a picture (a zoom,
    a gallery) is the picture's."""
    ignored = doc.ignored_mask()
    inside = doc.descendants(region)
    empty = [not doc.text[i] and doc.tag[i] not in CONTROL_TAGS for i in range(len(doc))]
    picture = [doc.tag[i] == "img" for i in range(len(doc))]
    for i in reversed(inside):  # children first
        if doc.tag[i] == "a" and picture[i] and not doc.text[i]:
            empty[i] = all(empty[c] for c in doc.children[i])  # a linked picture
        p = doc.parent[i]
        if p >= 0:
            if not empty[i]:
                empty[p] = False
            picture[p] = picture[p] or picture[i]
    for i in inside:
        if i == region or ignored[i] or not template[i]:
            continue
        p = doc.parent[i]
        if empty[i] and not template[p]:
            for j in doc.descendants(i):
                template[j] = False
    return template


def table_headers(doc: Document, template: list[bool], region: int) -> list[bool]:
    """Inside the content region, in place: the header rows of a table of
    the page's own rows are content (our rule). Column
    labels ("Thread", "Replies", "Price") repeat on every page of the kind,
    so the vote calls them template, but they belong to the table: a
    template row (or row group) of a content table that comes before a
    content row becomes content."""
    for t in doc.descendants(region):
        if doc.tag[t] != "table" or template[t]:
            continue
        rows: list[int] = []
        for c in doc.children[t]:
            rows.extend(doc.children[c] if doc.tag[c] in ROW_GROUPS else (c,))
        first = next((r for r in rows if doc.tag[r] == "tr" and not template[r]), -1)
        if first < 0:
            continue
        for r in rows:
            if r >= first:
                break
            if doc.tag[r] == "tr" and template[r]:
                for j in doc.descendants(r):
                    template[j] = False
                p = doc.parent[r]
                if p != t:
                    template[p] = False
    return template
