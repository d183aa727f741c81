"""Token-level precision/recall/F1 of extracted text against gold text,
and the one word tokeniser of temex.

The measure of the content-extraction benchmarks (CleanEval, Dragnet, the
big9 "Extraction" set): lower-cased ``\\w+`` tokens (:func:`tokens`) of the
extracted and the gold text are compared as multisets (bags of words).
The same words are what the content stage reads in a block
(:attr:`temex.page.blocks.Blocks.words`, compiled as the kernel's
``words_of``), in a ``<title>`` (the scorer's title words) and in a crawled
page's main text (:func:`temex.crawler.dedupe.text_shingles`). Two cuts
stay apart, because they cut before lower-casing (their comments say how
that differs): the candidate pages' shingles (:mod:`temex.site.duplicates`)
and a crawled page's word count (:mod:`temex.crawler.process`).
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["tokens", "token_prf"]

_TOKEN = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Lower-cased ``\\w+`` tokens of ``text``: the runs of characters that
    are ``str.isalnum`` or ``_`` in ``text.lower()``, lower-cased before it is
    cut (``"İ"`` lowers to ``i`` and a combining dot: one word ``i``)."""
    return _TOKEN.findall(text.lower())


def token_prf(extracted: str, gold: str) -> tuple[float, float, float]:
    """Multiset token precision, recall and F1 of ``extracted`` against ``gold``.

    Both empty gives (1, 1, 1); one empty gives zeros for the undefined parts.
    """
    e, g = Counter(tokens(extracted)), Counter(tokens(gold))
    ne, ng = sum(e.values()), sum(g.values())
    if not ne and not ng:
        return 1.0, 1.0, 1.0
    overlap = sum((e & g).values())
    p = overlap / ne if ne else 0.0
    r = overlap / ng if ng else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f
