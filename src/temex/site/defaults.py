"""Defaults of exploring and crawling a live site, importable without the
network stack (the CLI builds its flags from them; :mod:`temex.site.explore`
and :mod:`temex.crawler` use them; ``temex.crawler``'s package loads the
crawl itself, so the crawl's default lives here)."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_LOADS", "DEFAULT_N", "DEFAULT_NEAR_DUP", "ORDERS"]

#: CS size sought by default (chosen by measurement: docs/EXPLORATION.md).
DEFAULT_N = 3
#: Most pages requested by default, key page included: ``DEFAULT_N + 1``
#: (mean loads <= 4 counting every request; an incomplete CS is
#: filled from the pages loaded, and a budget of 5 gave the same F1 on every
#: shared site; chosen leave-one-site-out, docs/EXPLORATION.md).
DEFAULT_MAX_LOADS = DEFAULT_N + 1  # the key page and n more
#: Orders in which a key page's links are tried.
ORDERS = ("menu", "menublock", "paper", "document")
#: The crawl's near-duplicate threshold (``temex crawl --near-dup``,
#: ``CrawlOptions.near_dup_resemblance``, :mod:`temex.crawler.dedupe`): a page
#: is recorded as a duplicate of an earlier written one when the resemblance
#: (Jaccard) of the two main texts' word 3-shingle multisets is at least this.
#: Why 0.95: on the shared sites it is the lowest threshold at which no page
#: recorded as a duplicate loses more than 2% of its gold tokens (below it,
#: replies quoting their message and catalogue entries differing by a date or
#: a town do), and the one chosen with every site left out in turn
#: (docs/journal/2026-11-25-crawl-duplicates-the-threshold.md,
#: ``bench/train/dup_threshold.py``).
DEFAULT_NEAR_DUP = 0.95
