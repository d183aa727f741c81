"""The name lists: words of an element's ``id`` and class values that say
what the element is (the conventions of web themes and frameworks, as
boilerplate detectors read them: Readability's "unlikely candidates" and
"positive" names, Boilerpipe's and trafilatura's class lists).

Two kinds of list, named apart, because they are matched differently:

* ``*_PREFIXES``: a word of a value matches when it *starts with* one of
  them (``comments``, ``commentlist``, ``sidebar-left`` -> ``sidebar``);
* ``*_WORDS``: a word matches only when it *is* one of them (``ad`` must
  not match ``address``, ``top`` not ``topic``).

A value is split into words at every character that is not a lowercase
ASCII letter, after lower-casing (``post-nav`` -> ``post``, ``nav``); each
reader does its own split. Each list is the one its reader was measured
with: the scorer's features were trained on theirs, so lists that look
alike stay apart where they differ.
"""

from __future__ import annotations

__all__ = ["COMMENT_PREFIXES", "COMMENT_SECTION_PREFIXES", "CONTENT_PREFIXES",
           "NAVIGATION_WORDS", "NOISE_PREFIXES", "RULE_NOISE_PREFIXES", "RULE_NOISE_VALUES",
           "SCORER_NOISE_WORDS"]

#: Word prefixes of per-page noise: comments, sharing, related items,
#: sidebars, widgets, ads, cookie and newsletter boxes, menus, tag clouds.
#: Read by the content rules (:data:`RULE_NOISE_PREFIXES`) and the scorer's
#: name features (:mod:`temex.content.features`, with
#: :data:`SCORER_NOISE_WORDS`).
NOISE_PREFIXES = ("comment", "disqus", "respond", "reply", "share", "sharing", "social",
                  "related", "sidebar", "widget", "promo", "sponsor", "advert", "breadcrumb",
                  "cookie", "newsletter", "subscribe", "popup", "modal", "footer", "nav",
                  "menu", "tags", "tagcloud", "trackback", "pingback", "recommend", "outbrain",
                  "taboola")

#: The content rules' noise prefixes (:mod:`temex.content.rules`): the
#: common ones, a WordPress related-posts plugin, "most popular" boxes and
#: a shop's up-sells and cross-sells (WooCommerce's ``up-sells upsells``,
#: ``cross-sells``; Magento's ``upsell``, ``crosssell``): the recommended
#: items the data convention calls template. ``most-popular`` and
#: ``cross-sells``, which the split cuts in two, are matched inside a whole
#: value instead (:data:`RULE_NOISE_VALUES`).
RULE_NOISE_PREFIXES = NOISE_PREFIXES + ("yarpp", "mostpopular", "upsell", "crosssell")

#: Hyphenated names the rules match inside a whole ``id`` or class value.
RULE_NOISE_VALUES = ("most-popular", "cross-sells")

#: Whole words that the scorer's name features count as noise beside
#: :data:`NOISE_PREFIXES` (:mod:`temex.content.features`): short or common
#: words that would match too much as prefixes (``ad``, ``top``, ``list``,
#: ``date``, ``meta``).
SCORER_NOISE_WORDS = frozenset({
    "yarpp", "popular", "banner", "masthead", "header", "login", "search", "pagination",
    "pager", "meta", "byline", "date", "author", "caption", "copyright", "skip", "top",
    "links", "ad", "ads", "list", "teaser", "more"})

#: Word prefixes of the page's own content (``article``, ``entry-content``,
#: ``post-body``, ``hentry``): the scorer's positive name features.
CONTENT_PREFIXES = ("article", "content", "post", "entry", "story", "body", "main", "text",
                    "blog", "news", "page", "prose", "hentry")

#: Word prefixes of a comment thread, as the scorer's comment-like feature
#: reads them (:mod:`temex.content.features`).
COMMENT_PREFIXES = ("comment", "disqus", "respond", "reply")

#: Word prefixes of a comment section (:func:`temex.page.names.comment_named`):
#: the scorer's and ``replies`` (which does not start with ``reply``).
COMMENT_SECTION_PREFIXES = COMMENT_PREFIXES + ("replies",)

#: Whole words of the navigation a page kind carries inside its main
#: element (:func:`temex.template.rules.links.named_link_lists`).
NAVIGATION_WORDS = frozenset({"nav", "navigation", "pagination", "pager", "paging", "tags",
                              "tag", "breadcrumb", "breadcrumbs", "share", "sharing",
                              "social", "related", "prev", "previous", "next"})
