"""The columns of the content scorer's feature rows
(:mod:`temex.content.features` builds the rows): each group's names in row
order (:data:`GROUPS`; their widths, :data:`WIDTHS`, lay out the compiled
kernel's rows too), the tag classes and ancestor tags of the one-hot
groups, the stop words of the text group, and the ``id``/``class`` words
the name and landmark groups count (negative, positive, comment-like;
judged per value, cached across pages and sites).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain

from ..page.dom import HEADING_TAGS
from ..page.vocabulary import (
    COMMENT_PREFIXES,
    CONTENT_PREFIXES,
    NOISE_PREFIXES,
    SCORER_NOISE_WORDS,
)

__all__ = ["ANCESTOR_FEATURES", "CONTEXT_FEATURES", "FEATURES", "GROUPS", "KIND_FEATURES",
           "LANDMARK_FEATURES", "NAME_FEATURES", "NEIGHBOUR_FEATURES", "RECORD_FEATURES",
           "RULE_FEATURES", "SITE_FEATURES", "SUBTREE_FEATURES", "TAG_FEATURES",
           "TEXT_FEATURES", "WIDTHS", "negative_words"]

_TAGS = ("p", "h1", "h2", "h3", "h456", "li", "td", "div", "pre", "blockquote", "dd", "br",
         "body", "span_like", "caption")
_ANC = ("article", "main", "table", "form", "header", "footer", "nav", "aside", "ul", "li",
        "blockquote", "a", "h", "pre", "code", "figure", "math", "section", "details")
_STOP = frozenset("""a an the and or but if of to in on at by for with from as is are was were be
been being it its this that these those he she they we you i his her their our your my me him
them us not no so than then there here which who whom what when where why how all any some such
will would can could should may might must do does did has have had into about over after before
up out more most other also just only very""".split())
_SPLIT = re.compile(r"[^a-z]+")

#: Text and place of the block.
TEXT_FEATURES = ["bias", "log_chars", "log_text_chars", "link_density", "log_words",
                 "avg_word_len", "stop_rel", "punct_rate", "sentence_ends", "ends_punct",
                 "digit_rate", "upper_start", "comma_rate", "pipe_or_bullet", "depth_rel",
                 "pos_rel", "pos_rel_sq", "index_rel", "short", "very_long"]
TAG_FEATURES = [f"tag_{t}" for t in _TAGS]
ANCESTOR_FEATURES = [f"anc_{t}" for t in _ANC]
NAME_FEATURES = ["neg_names", "neg_self", "pos_names", "pos_near"]
SUBTREE_FEATURES = ["par_log_chars", "par_ld", "par_log_blocks", "par_share", "par_avg_chars",
                    "gp_log_chars", "gp_ld", "gp_log_blocks", "gp_share", "gp_avg_chars"]
NEIGHBOUR_FEATURES = ["prev_ld", "next_ld", "prev_log_chars", "next_log_chars",
                      "prev_heading", "next_log_text"]
RULE_FEATURES = ["rule_ld_ok", "rule_named", "rule_records", "rule_region", "rule_chosen",
                 "rule_title", "region_share", "log_page_chars", "page_ld"]
LANDMARK_FEATURES = ["title_overlap", "title_equal", "after_h1", "comment_anc", "first_h1"]
#: The block's record list (:func:`temex.content.records.record_lists`).
RECORD_FEATURES = ["rec_in", "rec_share", "rec_text_share", "rec_log_n", "rec_ld", "rec_anchor",
                   "rec_max_share", "rec_first", "rec_page_share", "rec_record_share"]
#: Code, tables, figures.
KIND_FEATURES = ["code_syms", "data_table", "table_share"]

#: The groups of a row, in row order (:func:`temex.content.features.block_features`
#: builds each in Python; the kernel's ``feature_rows`` writes them in C).
GROUPS: tuple[list[str], ...] = (TEXT_FEATURES, TAG_FEATURES, ANCESTOR_FEATURES, NAME_FEATURES,
                                 SUBTREE_FEATURES, NEIGHBOUR_FEATURES, RULE_FEATURES,
                                 LANDMARK_FEATURES, RECORD_FEATURES, KIND_FEATURES)
FEATURES: list[str] = list(chain.from_iterable(GROUPS))
SITE_FEATURES: list[str] = ["site_pages", "site_repeated", "site_df_rate", "site_long_repeated",
                            "site_rule_chosen", "site_rule_region", "site_rep_share",
                            "site_long_rep_share", "site_rep_prose"]
CONTEXT_FEATURES: list[str] = ["s1", "prev_s1", "next_s1", "par_s1", "gp_s1", "ggp_s1",
                               "win_s1", "page_s1", "list_s1", "record_s1"]
#: The groups' widths, then :data:`SITE_FEATURES`': the kernel lays a row out
#: by them (and refuses widths other than those of the values it writes).
WIDTHS: tuple[int, ...] = (*map(len, GROUPS), len(SITE_FEATURES))


def _tagclass(t: str) -> str:
    if t in ("h4", "h5", "h6"):
        return "h456"
    if t in ("th", "td"):
        return "td"
    if t in ("dt", "dd"):
        return "dd"
    if t in ("figcaption", "caption"):
        return "caption"
    if t in _TAGS:
        return t
    return "span_like"


@lru_cache(maxsize=1 << 13)
def _value_words(value: str) -> tuple[frozenset[str], bool, bool]:
    """:func:`_name_words` of one ``id`` or class value. Cached across pages
    and sites: class values repeat from site to site (``row``,
    ``entry-content``) far more than whole (id, classes) pairs do, so a page
    never seen finds most of its values judged (8,192 entries, about two
    megabytes at most: a worker's memory stays flat)."""
    low = value.lower()
    if low.startswith("js-"):
        return _NO_WORDS
    words = [w for w in _SPLIT.split(low) if w]
    neg = frozenset(w for w in words if w.startswith(NOISE_PREFIXES) or w in SCORER_NOISE_WORDS)
    pos = _pos(words) if words else False
    comment = any(w.startswith(COMMENT_PREFIXES) for w in words)
    if not (neg or pos or comment):
        return _NO_WORDS  # most values: one shared verdict, nothing kept per value
    return neg or _NO_WORDS[0], pos, comment


_NO_WORDS: tuple[frozenset[str], bool, bool] = (frozenset(), False, False)


@lru_cache(maxsize=4096)
def _name_words(id_: str, classes: tuple[str, ...]) -> tuple[frozenset[str], bool, bool]:
    """(negative words, positive verdict, comment-like verdict) of an
    element's ``id`` and classes (``js-`` hooks skipped), the union of its
    values' (:func:`_value_words`); cached across pages: a site repeats its
    names on every page (4,096 entries, about a megabyte)."""
    values = (id_, *classes) if id_ else classes
    if not values:
        return _NO_WORDS
    if len(values) == 1:
        return _value_words(values[0])
    judged = [_value_words(v) for v in values]
    return (frozenset().union(*(j[0] for j in judged)), any(j[1] for j in judged),
            any(j[2] for j in judged))


def negative_words(id_: str, classes: tuple[str, ...]) -> frozenset[str]:
    """The words of an element's names that mark noise
    (:data:`~temex.page.vocabulary.NOISE_PREFIXES`,
    :data:`~temex.page.vocabulary.SCORER_NOISE_WORDS`)."""
    return _name_words(id_, classes)[0]


def _pos(words: list[str]) -> bool:
    return any(w.startswith(CONTENT_PREFIXES) for w in words)


def _positive(id_: str, classes: tuple[str, ...]) -> bool:
    return _name_words(id_, classes)[1]


def _comment_like(id_: str, classes: tuple[str, ...]) -> bool:
    return _name_words(id_, classes)[2]


#: Per tag: its bit in the ancestor mask (headings share ``h``'s).
_ANC_BITS = {**{t: 1 << k for k, t in enumerate(_ANC)},
             **dict.fromkeys(HEADING_TAGS, 1 << _ANC.index("h"))}


def _tag_index(t: str) -> int:
    return _TAGS.index(_tagclass(t))
