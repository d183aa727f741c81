"""Parameters of the content pipeline (:mod:`temex.content.extract`).

One frozen dataclass shared by every stage; each field says which stage
reads it and how it was chosen (on the development data, never per site;
docs/CONTENT.md).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ContentParams"]


@dataclass(frozen=True)
class ContentParams:
    """Weights of the content pipeline (:mod:`temex.content.extract`)."""

    repeat_min: int = 1
    max_link_density: float = 0.5
    penalty: float = 1.0
    names: bool = True
    records: int = 400
    long_block: int = 100
    title: bool = True
    #: Choose blocks with the learned scorer (:mod:`temex.content.scorer`);
    #: False: by the rules alone (the verdicts above).
    scorer: bool = True
    #: With the scorer and at least 3 other pages of the site: a block whose text
    #: occurs on this share of them is template whatever the scorer says.
    site_share: float = 0.8
    #: Pages with less visible text than this (characters) are too small for a
    #: statistical choice: the rules choose. Under a template mask, a page
    #: with less own text (neither template nor repeated) than this, of which
    #: the rules kept under half, keeps all of it from the first kept block on
    #: (:func:`temex.content.extract.small_page_own_text`).
    small_page: int = 400
    #: With a template mask, or a site index holding at least this many other
    #: pages of the site, the rules with site evidence choose (the site model
    #: of the scorer is used with fewer): they were built on site evidence,
    #: and the scorer's site model, trained on news and blog pages, drops
    #: whole articles of documentation sites. Measured on the seven shared
    #: sites (site index of 24 pages, token F1 of the main text): rules 0.985
    #: / 0.988 on the two documentation sites against 0.728 / 0.801 for the
    #: scorer, equal or better on four of the other five, 0.003 lower on one
    #: (docs/CONTENT.md). Without a template mask their choice is combined
    #: with the page level's (``site_page``).
    site_rules_min: int = 2
    #: Page level (no site evidence): when the scorer keeps fewer than this
    #: share of the characters the rules keep, the rules choose. The scorer,
    #: trained on news and blog pages, collapses on pages unlike them (it kept
    #: a fraction of documentation articles); a choice far smaller than the
    #: rules' dense region is that failure, not a finer cut. Measured on the
    #: four content datasets and 40 pages of each shared site
    #: (docs/journal/2026-11-23-content-page-level-the-rules-as-a.md): 0.3 changes no dataset by more
    #: than +0.001 and lifts the documentation sites by 0.09-0.20; 0 turns it off.
    page_fallback: float = 0.3
    #: Page level: a scorer's region whose blocks all sit in one list of
    #: alike records (a thread's posts, a listing's rows) is widened to the
    #: list, whose blocks are kept from this probability on
    #: (:func:`temex.content.region.list_region`); 0: off. Chosen leaving
    #: one content set out, by grouped cross-validation
    #: (docs/journal/2026-11-26-content-a-region-inside-a-list-is.md).
    list_region: float = 0.2
    #: Page level: a scorer's region under the page's ``<main>`` (or
    #: ``role="main"``) element that keeps under half of the characters the
    #: main element holds from this probability on is widened to it
    #: (:func:`temex.content.region.main_region`); 0: off. Chosen leaving
    #: one content set out, by grouped cross-validation
    #: (docs/journal/2026-11-26-content-a-region-inside-a-list-is.md, "the page's
    #: main element").
    main_region: float = 0.2
    #: Page level, where the page declares no ``<main>``: an element with
    #: this many ``<section>`` children or more is its main element for
    #: ``main_region`` (:func:`temex.content.region.main_elements`); 0: off.
    #: Measured by grouped cross-validation
    #: (docs/journal/2026-11-26-content-a-landing-pages-sections.md: 2 loses a
    #: page, 3 to 5 only gain).
    main_sections: int = 3
    #: Page level, where the page declares no ``<main>``: an element with
    #: ``main_sections`` or more children of one tag and classes, each holding
    #: a heading and at least this many characters of text, under half of
    #: them linked, is its main element too (a landing page's components;
    #: :func:`temex.content.region.component_parents`); 0: off. Measured on
    #: every content set and the shared sites
    #: (docs/journal/2026-11-27-content-a-landing-pages-components.md).
    main_components: int = 50
    #: Page level: where the scorer keeps nothing beyond the page's ``h1``,
    #: or a region inside the ``<article>`` around it that holds under half
    #: of that article's text, the article is the content
    #: (:func:`temex.content.region.title_article`); False: off. Measured on
    #: every content set and the shared sites left out one at a time
    #: (docs/journal/2026-11-26-content-the-titles-article.md).
    title_article: bool = True
    #: Page level: a scorer's region that does not hold the page's title
    #: heading (:func:`temex.content.title.title_heading`) gives way to the
    #: heaviest subtree around the title that weighs at least this share of
    #: it (:func:`temex.content.region.title_region`); 0: off. Chosen by
    #: grouped cross-validation on every content set
    #: (docs/journal/2026-11-26-content-the-titles-region.md: 0.5 and 0.6 move
    #: only pages that gain, 0.3 and lower also lose some).
    title_region: float = 0.5
    #: Page level and with site evidence: the blocks of a table with column
    #: headers that lies between the region's first and last kept blocks, is
    #: the region's next sibling or lies in its parent's next sibling (the
    #: row below) are kept (:func:`temex.content.region.table_gaps`); False:
    #: off. Measured on every content set and the shared sites
    #: (docs/journal/2026-11-27-content-a-table-between-kept-blocks.md, "A table after the
    #: region", "The tables of the next row").
    table_gaps: bool = True
    #: Page level and with site evidence: the list or table that a kept block
    #: inside the region introduces (its text ends with a colon) is kept
    #: (:func:`temex.content.region.keep_introduced`); False: off. Measured on
    #: every content set and the shared sites
    #: (docs/journal/2026-11-27-content-what-a-colon-introduces.md).
    introduced: bool = True
    #: Page level and with site evidence: every code block (``<pre>``) inside
    #: the region is kept unless vetoed (:func:`temex.content.region.keep_code`);
    #: False: off. Measured by grouped cross-validation on every content set
    #: and the shared sites
    #: (docs/journal/2026-11-28-content-the-region-mechanisms-under-the-blend.md,
    #: "Code inside the region").
    code_region: bool = True
    #: The scorer's blocks that are links inside the page's navigation (a
    #: ``<nav>`` element or ``role="navigation"``; over ``max_link_density``
    #: of their characters inside ``<a>``) are never content
    #: (:func:`temex.content.rules.navigation_blocks`). A docs page's table
    #: of contents is a list of short linked items, like a listing's rows,
    #: which the scorer learned to keep; on a short page it outweighed the
    #: text. False: off. Measured on every content set and the shared sites
    #: (docs/journal/2026-11-27-content-navigation-is-not-content.md).
    navigation: bool = True
    #: Site level without a template mask (``site_rules_min`` other pages or
    #: more): the page scorer's choice less the site's repeated text, unless
    #: it keeps less than this share of the characters the rules keep; then
    #: the rules' blocks and the scorer's together (:func:`site_page_blocks`).
    #: 0: the rules alone, as before. Chosen leaving one group out over the
    #: four content datasets (grouped CV) and the seven shared sites
    #: (``bench/eval/bench_site_page.py``, docs/CONTENT.md): no content dataset
    #: below its page level, then the best worst margin over the rules.
    site_page: float = 0.85
    #: Site level without a template mask: the learned decision over the page
    #: level's verdict and the site's evidence (:mod:`temex.content.decision`,
    #: trained by ``bench/train_site_decision.py``) instead of ``site_page``'s
    #: hand-set choice; False (or no shipped model) gives that choice.
    site_decision: bool = True
    #: After the learned decision, the page's comment thread
    #: (:func:`temex.content.records.comment_thread`) is added back whole
    #: where the page level kept a block of it: the decision learned from
    #: sites of which few have comments, and the page model tells a thread
    #: that is content (comments are, by the shared sites' convention; the
    #: news sets' gold leaves them out, and there the page level keeps none)
    #: but drops a thread's short comments and author lines one by one.
    decision_comments: bool = True
    #: After the learned decision, the blocks of a page kind's typed link
    #: lists (:func:`temex.content.candidates.typed_link_chrome`: tag and
    #: category lines, links to the previous and next page) stay out: the
    #: data convention calls them template wherever they sit, the structure
    #: tells them, and the decision, which reads the verdict among its
    #: inputs, kept them where the page model liked their text. False: the
    #: decision alone.
    decision_typed: bool = True
    #: After the learned decision, a page of which it kept headings alone
    #: gets the page level's choice where that holds text beside its
    #: headings: where the compared pages show the page's own text too (a
    #: tag page listing one post, beside the other tag pages of that post
    #: and the blog's listing), the site's evidence cannot tell it from the
    #: template, and a title alone is no page's content where the page alone
    #: finds text under it. A page the decision keeps nothing of stays
    #: empty (a search page's form, an empty blog index). False: the
    #: decision alone.
    decision_headings: bool = True
    #: After the learned decision, the records alike the one that holds the
    #: decision's longest block in a record (a forum topic's replies beside
    #: its first post, a post's comments beside the one kept)
    #: keep what the decision kept of that one
    #: (:func:`temex.content.records.alike_records`). False: the decision alone.
    decision_alike: bool = True
    #: After the learned decision, a heading it dropped is kept where the
    #: next block is kept, is the page's own text (not repeated on other
    #: pages) and is the heading's sibling element: a seminar page's
    #: "Abstract" and "Bio" labels, repeated on every page of its kind, over
    #: the page's own abstract and bio (:func:`temex.content.extract.lead_headings`).
    #: False: the decision alone.
    decision_lead_headings: bool = True
    #: Under a template mask, where the rules kept under half of the page's
    #: own text (neither template nor repeated), the page level's choice less
    #: that text is added (:func:`temex.content.extract.page_level_added`):
    #: the rules' region weighs blocks by their text, and on a page made of
    #: short blocks (a product's details, a landing page's teasers, a byline
    #: beside a long comment thread) it keeps one of them. False: the rules
    #: alone. Measured on the crawl check and the content sets (docs/CRAWL.md).
    page_added: bool = True
    #: With site evidence (a template mask, or other pages of the site), a
    #: list of links at least half of which have the HTML link type ``tag``,
    #: ``prev`` or ``next``, with at most this many characters outside links,
    #: is template (:func:`temex.content.candidates.typed_link_chrome`; the
    #: detector's ``link_types``, same bound); None: off.
    link_types: int | None = 200
    #: Under a template mask, the page's own blocks between the region's
    #: first and last kept blocks that the rules left out for their links
    #: alone are kept (:func:`temex.content.rules.region_gaps`); False: off.
    gaps: bool = True
    #: Under a template mask, text repeated on the site but not template
    #: weighs nothing in the rules' region (elsewhere it weighs against it):
    #: the mask already bounds the page's area, and text a page shares with
    #: its kind (a talk page's field labels, an issue page's fixed intro)
    #: sits inside it, between the page's own blocks. False: it weighs
    #: against the region, as without a mask.
    neutral_repeats: bool = True
    #: Under a template mask, the rows of a table with column headers (a
    #: ``th`` in its first row) are data: never teaser records, and their
    #: linked cells pass the link-density rule (a ranking's titles, a
    #: listing's topics; :func:`temex.content.records.headed_table_rows`).
    #: False: such rows are judged as any others.
    data_tables: bool = True
    #: Own record lists (site evidence only): lists of at least 3 sibling
    #: records are the page's own (posts of a topic, rows of a listing,
    #: products of a category) when one holds the anchor (that one) or when
    #: together they hold at least this share of the page's text not repeated
    #: on other pages (all of them); 0 turns the rule off. Chosen leaving one
    #: site out (docs/CONTENT.md).
    own_records: float = 0.5
    #: With a template mask, repeated text needs ``max(repeat_min,
    #: ceil(repeat_share * k))`` of the site's k other pages: the mask already
    #: removes the site-wide chrome, and text on a few of 23 other pages is
    #: more often the page's own (a teaser, a product variant's description,
    #: a user name) than chrome. Chosen leaving one site out (docs/CONTENT.md).
    repeat_share: float = 0.3
    #: The same without a template mask (folder mode, ``temex content DIR``):
    #: text on fewer than this share of the site's other pages is not
    #: repeated text. A talk's title and speaker are on the schedule and the
    #: speaker's page too, a chapter's headings in the book's table of
    #: contents; with two pages enough, folder mode emptied such pages.
    #: Chosen leaving one site out over 0, 0.1, 0.2, 0.3
    #: (docs/journal/2026-11-22-content-folder-mode.md, "Repeated on a share of
    #: the pages"); 0: ``repeat_min`` pages alone, as before.
    folder_repeat_share: float = 0.2
    #: The page's own title headings, named by its ``<title>``, are never
    #: repeated text (:func:`temex.content.title.own_title_blocks`).
    own_title: bool = True
    #: Keep comments and replies (the posts of a thread, the comments under a
    #: post) where the scorer chose them; False: the article alone, without
    #: the blocks inside a subtree named like a comment section (``comment``,
    #: ``disqus``, ``respond``, ``reply``) that does not hold the page's
    #: main text (:func:`temex.content.records.comment_blocks`; trafilatura's
    #: ``include_comments=False``; ``temex content --no-comments``).
    comments: bool = True
