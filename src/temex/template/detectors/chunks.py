"""Template removal by text-chunk document frequency.

Ma, Goharian, Chowdhury, Chung, "Extracting unstructured data from template
generated web documents" (CIKM 2003),
../shared/papers/table-text-chunk-template-removal.txt:

* §3.1 Def. 3.1: a *table text chunk* is the run of consecutive text between
  two table nodes; it, not the single token, is the unit counted.
* §3.2 Fig. 2: first pass over a cluster of pages counts each chunk's
  *document frequency* in a hash map (``textMap``); chunks with df ≥
  ``threshold`` are template. §3.3: second pass drops template chunks from
  every page; HTML entities are decoded (``&nbsp;`` → space).
* §4.2: an identical chunk in two places of one page is counted once; the
  paper proposes "to count tag path as second key of textMap" — done here
  (``tag_path=True``).
* §5: image ALT text (and image names) carry text; ALT values are chunk
  text here, worthless ones ("img9", "spacer", "graphic") dropped.
* §4.1 measures: :func:`average_template_fraction` (Def. 4.1.1, atf = t/p) and
  :func:`table_discovery_ratio` (Def. 4.1.2, ttdr = nd/nt, with nt from gold).

Departures: chunk boundaries are every block-level element (``boundary=
"block"``, the default) because current sites lay out with ``<div>``, not
tables; ``boundary="table"`` gives the paper's rule (table, tr, td, th). Text is
taken per element in document pre-order (an element's own text, then its
children), so text that follows a child block ("tail" text) joins the
parent's chunk. The threshold is a share of the cluster's pages (0.5 = half)
when below 1, an absolute page count otherwise. The output is a
:class:`~temex.template.model.TemplateModel` over the key page: an element is template
when its text belongs to a template chunk; a text-free element is content when
every text-bearing element below it is content, template otherwise (so
ancestors of content are template, as in the gold of ../shared/data), and
text-free leaves follow their parent.

Cost: O(total elements of the cluster) time, O(distinct chunks) memory.
"""

from __future__ import annotations

import html
import math
import re
import time
from collections.abc import Sequence
from hashlib import blake2b

from ...errors import ParameterError
from ...page.blocks import BLOCK_TAGS
from ...page.dom import IGNORED_TAGS, Document
from ..model import TemplateModel
from ..rules import DEFAULT_REGION, apply_region
from .base import FittedMixin

__all__ = ["ChunksDetector", "page_chunks", "average_template_fraction",
           "table_discovery_ratio"]

TABLE_TAGS = frozenset({"table", "tr", "td", "th", "tbody", "thead", "tfoot"})
_WORTHLESS_ALT = re.compile(r"^(img|image|spacer|graphic|pic|photo|icon|banner|dot|"
                            r"blank|clear|pixel|trans|shim)[\s_.\-]*\d*$", re.IGNORECASE)
_WS = re.compile(r"\s+")


def _clean(text: str) -> str:
    return _WS.sub(" ", html.unescape(text).replace("\xa0", " ")).strip()


def page_chunks(doc: Document, boundary: str = "block", alt: bool = True,
                tag_path: bool = True) -> list[tuple[tuple[str, str], list[int]]]:
    """The text chunks of a page, in document order.

    Returns a list of ``(key, owners)``: key is ``(tag path, text)`` (tag path
    "" when ``tag_path`` is False), owners the elements whose text the chunk
    holds. The tag path is the chunk's boundary element's root path of tag
    names (no indices), as a 16-hex-digit digest (blake2b of the parent's
    digest and the tag: equal paths give equal digests on every page, and deep
    pages cost O(n), not O(n × depth)). O(n).
    """
    bset = TABLE_TAGS if boundary == "table" else BLOCK_TAGS | TABLE_TAGS
    if doc.body < 0:
        return []
    ignored = doc.ignored_mask()
    tagpath: dict[int, str] = {}
    out: list[tuple[tuple[str, str], list[int]]] = []
    buf: list[str] = []
    owners: list[int] = []
    cur_path = ""

    def flush() -> None:
        if buf:
            text = _clean(" ".join(buf))
            if text:
                out.append(((cur_path if tag_path else "", text), list(owners)))
        buf.clear()
        owners.clear()

    # explicit enter/exit walk so a boundary closes the chunk on both sides
    stack: list[tuple[int, bool]] = [(doc.body, False)]
    while stack:
        i, done = stack.pop()
        tag = doc.tag[i]
        if done:
            if tag in bset:
                flush()
            continue
        if ignored[i]:
            continue
        p = doc.parent[i]
        if tag_path:
            # a digest of the parent's path and the tag: O(1) per element,
            # where the path string itself is O(depth) (quadratic on a
            # 10,000-deep page)
            base = tagpath.get(p, "") if p >= 0 else ""
            tagpath[i] = blake2b((base + "/" + tag).encode(), digest_size=8).hexdigest()
        if tag in bset:
            flush()
            cur_path = tagpath.get(i, "")
        t = doc.text[i]
        if alt and tag == "img":
            a = dict(doc.attrs[i]).get("alt", "").strip()
            if a and not _WORTHLESS_ALT.match(a):
                t = (t + " " + a).strip()
        if t:
            if not buf and tag not in bset:
                cur_path = tagpath.get(i, "") if tag_path else ""
            buf.append(t)
            owners.append(i)
        stack.append((i, True))
        for c in reversed(doc.children[i]):
            if doc.tag[c] not in IGNORED_TAGS:
                stack.append((c, False))
    flush()
    return out


def _mask_from_chunks(doc: Document, chunks: list[tuple[tuple[str, str], list[int]]],
                      templ: set[tuple[str, str]]) -> list[bool]:
    n = len(doc)
    state = [0] * n  # bit 1: has template text below, bit 2: has content text below
    own = [0] * n
    for key, owners in chunks:
        bit = 1 if key in templ else 2
        for i in owners:
            own[i] |= bit
    for i in range(n - 1, -1, -1):
        state[i] |= own[i]
        p = doc.parent[i]
        if p >= 0:
            state[p] |= state[i]
    mask = [True] * n
    for i in doc.in_body():
        if own[i]:
            mask[i] = not (own[i] & 2)  # an element holding content text is content
        elif state[i]:
            mask[i] = state[i] != 2  # containers: content only if purely content
        else:
            p = doc.parent[i]
            mask[i] = mask[p] if p >= 0 else True  # text-free leaves follow parent
    return mask


class ChunksDetector(FittedMixin):
    """Text-chunk document-frequency detector (paper §3.2 Fig. 2).

    Parameters
    ----------
    threshold : float, default 0.5
        Document frequency for a chunk to be template: a share of the cluster's
        pages (key page included) when < 1, else an absolute count (paper:
        "Threshold", e.g. 4 of 13 pages). At least 2.
    tag_path : bool, default True
        Use the chunk's tag path as second key (paper §4.2).
    boundary : {"block", "table"}, default "block"
        Which elements cut chunks (module notes).
    alt : bool, default True
        Count image ALT text (paper §5).
    region : float or None, default 0.7
        Content-region rule of :func:`temex.template.detectors.apply_region`.

    Attributes
    ----------
    model_ : TemplateModel
        ``model_.extra["chunks"]`` holds the template chunk count and the atf.
    text_map_ : dict
        Chunk key -> document frequency (the paper's ``textMap``).

    Notes
    -----
    Cost: O(Σ page sizes) for the first pass, O(|key|) for the mask.
    """

    method = "chunks"

    def __init__(self, threshold: float = 0.5, tag_path: bool = True, boundary: str = "block",
                 alt: bool = True, region: float | None = DEFAULT_REGION) -> None:
        self.threshold = threshold
        self.tag_path = tag_path
        self.boundary = boundary
        self.alt = alt
        self.region = region

    def get_params(self) -> dict[str, object]:
        return {"threshold": self.threshold, "tag_path": self.tag_path,
                "boundary": self.boundary, "alt": self.alt, "region": self.region}

    def __repr__(self) -> str:
        return "ChunksDetector(" + ", ".join(f"{k}={v!r}" for k, v in
                                             self.get_params().items()) + ")"

    def _need(self, n_docs: int) -> int:
        t = self.threshold
        need = math.ceil(t * n_docs - 1e-9) if t < 1 else int(t)
        return max(2, need)

    def fit(self, key: Document, pages: Sequence[Document]) -> ChunksDetector:
        if not isinstance(self.threshold, (int, float)) or self.threshold <= 0:
            raise ParameterError("threshold", "a positive number", self.threshold)
        if self.boundary not in ("block", "table"):
            raise ParameterError("boundary", "'block' or 'table'", self.boundary)
        if self.region is not None and not (isinstance(self.region, (int, float))
                                            and 0 < self.region <= 1):
            raise ParameterError("region", "None or a number in (0, 1]", self.region)
        t0 = time.perf_counter()
        docs = [key, *pages]
        df: dict[tuple[str, str], int] = {}
        key_chunks: list[tuple[tuple[str, str], list[int]]] = []
        tokens = 0
        for k, d in enumerate(docs):
            ch = page_chunks(d, self.boundary, self.alt, self.tag_path)
            if k == 0:
                key_chunks = ch
            seen = set()
            for c, _ in ch:
                tokens += len(c[1].split())
                if c not in seen:  # §4.2: counted once per document
                    seen.add(c)
                    df[c] = df.get(c, 0) + 1
        need = self._need(len(docs))
        templ = {c for c, v in df.items() if v >= need} if pages else set()
        template = _mask_from_chunks(key, key_chunks, templ)
        if pages and self.region is not None:
            template = apply_region(key, template, self.region)
        self.text_map_ = df
        self.template_chunks_ = templ
        atf = average_template_fraction(templ, tokens / len(docs) if docs else 0.0)
        self._model = TemplateModel(
            key=key, template=template, votes=[0] * len(key), pages=[p.url for p in pages],
            method=self.method, params=dict(self.get_params()),
            timings={"fit": time.perf_counter() - t0},
            extra={"chunks": {"template_chunks": len(templ), "distinct_chunks": len(df),
                              "df_threshold": need, "atf": round(atf, 4)}})
        return self



def average_template_fraction(template_chunks: set[tuple[str, str]],
                              avg_tokens_per_page: float) -> float:
    """Def. 4.1.1: atf = t / p, t = template tokens extracted (tokens of the
    distinct template chunks), p = average text tokens per page. O(t)."""
    t = sum(len(text.split()) for _, text in template_chunks)
    return t / avg_tokens_per_page if avg_tokens_per_page else 0.0


def table_discovery_ratio(doc: Document, template_chunks: set[tuple[str, str]],
                          gold: Sequence[bool | None], boundary: str = "block",
                          alt: bool = True, tag_path: bool = True) -> float:
    """Def. 4.1.2: ttdr = nd / nt over the chunks of ``doc`` (the key page):
    nd = chunks discovered as template, nt = chunks that are template in the
    gold mask (all owners gold-template) — the paper counts tables by hand,
    we count chunks against gold. 1 = all found; > 1 = content taken as
    template; < 1 = template missed. NaN when the gold has none. O(n)."""
    nd = nt = 0
    for key, owners in page_chunks(doc, boundary, alt, tag_path):
        if key in template_chunks:
            nd += 1
        if all(gold[i] for i in owners):
            nt += 1
    return nd / nt if nt else float("nan")
