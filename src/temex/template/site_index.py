"""Site-level evidence: in how many pages of a site each block text occurs.

Text repeated across a site's pages is template evidence without a mapping
(the text-equality evidence of :mod:`temex.template.rules`), so it
applies to any page of the site in O(n) once the site's block texts are
counted. Main-content extraction (:mod:`temex.content.extract`) reads it; a
saved template (:mod:`temex.template.saved`) persists it in hashed form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from hashlib import blake2b
from typing import Any

from ..page.blocks import Blocks, key_hash, page_blocks
from ..page.dom import Document
from ..page.rows import list_keys

__all__ = ["SITE_INDEX_VERSION", "SiteIndex", "key_hash", "page_fingerprint"]

#: Version of the persisted form of :class:`SiteIndex` (saved templates).
SITE_INDEX_VERSION = 1


def page_fingerprint(doc: Document) -> str:
    """Stable fingerprint of a page's visible text (blake2b over the texts of its
    blocks, not normalised, each followed by a newline): tells whether a page
    is one of the pages counted by a :class:`SiteIndex`. Cached on the
    document (a sample page is counted and then looked up)."""
    cached = doc.__dict__.get("_fingerprint")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    joined = page_blocks(doc).joined
    # one update of the whole text hashes what one update per block did
    whole = "\n".join(joined) + "\n" if joined else ""
    fp = blake2b(whole.encode("utf-8", "replace"), digest_size=8).hexdigest()
    doc.__dict__["_fingerprint"] = fp
    return fp


class SiteIndex:
    """Site-level evidence: in how many pages of the site each block text occurs.

    Parameters
    ----------
    docs : iterable of Document
        Pages of the site (the page to extract may be among them: its own
        occurrence is discounted by :meth:`repeated`).
    hashed : bool
        Count :func:`key_hash` of the block texts instead of the texts (the
        form persisted in saved templates; same verdicts up to hash collisions).

    The index of a sample applies to any page of the site: a page that was
    counted (:meth:`member`, by :func:`page_fingerprint`) has its own
    occurrence discounted, a page never seen is not.
    """

    def __init__(self, docs: Iterable[Document] = (), hashed: bool = False) -> None:
        self.df: Counter[str] = Counter()
        self.n_pages = 0
        self.hashed = hashed
        self.pages: set[str] = set()
        #: record lists counted as well (:func:`temex.page.rows.list_keys`);
        #: False for an index read from a file written before they were
        self.lists = True
        for d in docs:
            self.add(d)

    def _keys(self, blocks: Blocks) -> list[str]:
        return blocks.hashed_key if self.hashed else blocks.key

    def add(self, doc: Document) -> None:
        """Count the block texts of one more page. A page whose visible text
        was counted already (the same page under another URL) counts once:
        otherwise its own text would look repeated across the site."""
        fingerprint = page_fingerprint(doc)
        if fingerprint in self.pages:
            return
        blocks = page_blocks(doc)
        keys = set(self._keys(blocks))
        keys.update(self._list_key(k) for k, _ in list_keys(doc, blocks))
        self.df.update(keys)
        self.n_pages += 1
        self.pages.add(fingerprint)

    def counts(self, blocks: Blocks, member: bool = True) -> list[int]:
        """For every block, the number of *other* pages of the site holding its
        text (``member``: the page itself was added to the index)."""
        own = 1 if member else 0
        df = self.df
        return [max(0, df.get(k, 0) - own) for k in self._keys(blocks)]

    def _list_key(self, key: str) -> str:
        return key_hash(key) if self.hashed else key

    def list_counts(self, doc: Document, blocks: Blocks, member: bool = True
                    ) -> list[tuple[int, list[list[int]]]]:
        """For every record list of the page (:func:`temex.page.rows.list_keys`),
        the number of *other* pages showing that list whole and the blocks of
        each of its rows; empty when the index did not count lists."""
        if not self.lists:
            return []
        own = 1 if member else 0
        df = self.df
        return [(max(0, df.get(self._list_key(k), 0) - own), rows)
                for k, rows in list_keys(doc, blocks)]

    def member(self, doc: Document) -> bool:
        """Whether ``doc`` (or a page with the same visible text) was counted."""
        return page_fingerprint(doc) in self.pages

    def repeated(self, blocks: Blocks, repeat_min: int = 1, member: bool = True,
                 long_block: int = 0) -> list[bool]:
        """Blocks whose text occurs on at least ``repeat_min`` other pages
        (``repeat_min + 1`` for blocks of ``long_block`` characters or more,
        when ``long_block`` > 0). ``member``: the page itself was added to the
        index."""
        own = 1 if member else 0
        df = self.df
        big = long_block if long_block > 0 else 1 << 60
        return [df.get(k, 0) - own >= repeat_min + (c >= big)
                for k, c in zip(self._keys(blocks), blocks.chars)]

    # -- persistence (saved templates, docs/TEMPLATE_FORMAT.md) ----------
    def to_dict(self, min_df: int = 1) -> dict[str, Any]:
        """JSON form: hashed keys with their page counts (keys counted on fewer
        than ``min_df`` pages are left out), page fingerprints."""
        df = self.df if self.hashed else Counter({key_hash(k): v for k, v in self.df.items()})
        return {"version": SITE_INDEX_VERSION, "hash": "blake2b-64", "key": "norm_key",
                "pages": self.n_pages, "min_df": min_df, "lists": self.lists,
                "page_fingerprints": sorted(self.pages),
                "df": {k: v for k, v in sorted(df.items()) if v >= min_df}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SiteIndex:
        """Inverse of :meth:`to_dict`; raises ValueError on another version."""
        if not isinstance(d, dict) or d.get("version") != SITE_INDEX_VERSION:
            v = d.get("version") if isinstance(d, dict) else d
            raise ValueError(f"site index version {v!r} is not supported "
                             f"(this temex reads {SITE_INDEX_VERSION})")
        idx = cls(hashed=True)
        idx.n_pages = int(d.get("pages", 0))
        idx.lists = bool(d.get("lists", False))
        idx.pages = {str(p) for p in d.get("page_fingerprints", [])}
        idx.df = Counter({str(k): int(v) for k, v in d["df"].items()})
        return idx
