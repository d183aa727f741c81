"""Site-level saved templates: fit once, strip every page of the site.

RTDM paper §5 (../shared/papers/rtdm-td-template-detection-removal.txt):
"the costly process of template detection is performed over a small set of
sample pages. Then, the derived template is removed from the remaining pages
... in linear time" — the paper omits the removal procedure "due to its
simplicity". This module is ours: a :class:`SavedTemplate` holds *node
signatures* of the template nodes of one or several fitted key pages and
:func:`apply` finds them top-down in any page of the site.

Signatures (stable across processes and machines, blake2b, never ``hash()``):

* step of node i: ``tag``, ``#id`` and ``.class`` list with digit runs
  replaced by ``#`` (``post-614`` ~ ``post-27``), classes sorted;
* path signature: ``h(i) = blake2b(h(parent) + "/" + step)``, 8 bytes: a
  root-to-node path of steps *without sibling indices*, so a page that lacks a
  menu item, or has one more, still matches the rest;
* text signature for text-bearing nodes: ``blake2b(h(i) + 0x00 + own text)``.

:func:`apply` marks node i as template when its parent was reached (or it is
the root), its path signature is a known template *structure* (a template node
or an ancestor of one), and: for a text-bearing node its text signature is a
template text; for a text-free node the path was template in at least as many
key pages as it was content. Then the content-region rule
(:func:`temex.template.detectors.apply_region`) fills template slots, as for fitting.

The JSON format is documented in docs/TEMPLATE_FORMAT.md.

Cost: building O(n) per key page; :func:`apply` O(n) per page (one blake2b of
a few dozen bytes per node and set look-ups) plus the region rule, O(n).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any

from ..errors import ModelFormatError
from ..page import kernel
from ..page.dom import Document
from .model import TemplateModel
from .rules import DEFAULT_REGION, apply_region
from .site_index import SiteIndex

__all__ = ["SavedTemplate", "MatchCache", "apply", "apply_with_text_mask", "text_mask", "strip",
           "node_signatures", "FORMAT_NAME", "FORMAT_VERSION"]

FORMAT_NAME = "temex-template"
FORMAT_VERSION = 1
_DIGITS = re.compile(r"[0-9]+")
_ROOT = b"temex1"


def _step(doc: Document, i: int) -> str:
    s = doc.tag[i]
    if doc.id[i]:
        s += "#" + _DIGITS.sub("#", doc.id[i])
    if doc.classes[i]:
        s += "." + ".".join(sorted({_DIGITS.sub("#", c) for c in doc.classes[i]}))
    return s


def node_signatures(doc: Document) -> tuple[list[str], list[str]]:
    """Path and text signatures (hex) of every node; text signature "" for
    text-free nodes. Cached on the document. O(n)."""
    cached = doc.__dict__.get("_saved_sigs")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    n = len(doc)
    raw: list[bytes] = [b""] * n
    path: list[str] = [""] * n
    text: list[str] = [""] * n
    steps: dict[tuple[str, str, tuple[str, ...]], bytes] = {}  # steps repeat on a page
    known: dict[bytes, tuple[bytes, str]] = {}  # so do paths (list items, rows)
    tags, ids, classes, parent, own = doc.tag, doc.id, doc.classes, doc.parent, doc.text
    for i in range(n):
        p = parent[i]
        base = raw[p] if p >= 0 else _ROOT
        key = (tags[i], ids[i], classes[i])
        step = steps.get(key)
        if step is None:
            step = steps[key] = b"/" + _step(doc, i).encode()
        joined = base + step
        sig = known.get(joined)
        if sig is None:
            d = blake2b(joined, digest_size=8).digest()
            sig = known[joined] = (d, d.hex())
        d = raw[i] = sig[0]
        path[i] = sig[1]
        if own[i]:
            text[i] = blake2b(d + b"\x00" + own[i].encode("utf-8", "replace"),
                              digest_size=8).hexdigest()
    doc.__dict__["_saved_sigs"] = (path, text)
    return path, text


def _readable_path(doc: Document, i: int) -> str:
    steps = [_step(doc, i)]
    for a in doc.ancestors(i):
        steps.append(_step(doc, a))
    return "/".join(reversed(steps))


@dataclass
class SavedTemplate:
    """A site's template as node signatures (see module docstring).

    Attributes
    ----------
    structure : set of str
        Path signatures of template nodes and their ancestors.
    texts : dict of str to int
        Text signature -> number of key pages where it is template text.
    free : dict of str to list of int
        Path signature of text-free nodes -> [template count, content count].
    keys : list of str
        URLs of the key pages the template was built from.
    region : float or None
        Content-region coverage applied after matching.
    readable : list of dict
        A human-readable listing of template nodes (path, text) for the JSON.
    site_index : SiteIndex or None
        Site-level block-text counts of the fit's sample pages (optional; the
        repeated-text evidence of :mod:`temex.content.extract` for :func:`main_content`).
    """

    site: str = ""
    method: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    region: float | None = DEFAULT_REGION
    structure: set[str] = field(default_factory=set)
    texts: dict[str, int] = field(default_factory=dict)
    free: dict[str, list[int]] = field(default_factory=dict)
    readable: list[dict[str, Any]] = field(default_factory=list)
    site_index: SiteIndex | None = None

    # -- building -------------------------------------------------------
    def add_model(self, model: TemplateModel) -> SavedTemplate:
        """Add the template of one fitted key page. O(n)."""
        doc, tm = model.key, model.template
        if not self.method:
            self.method = model.method
            self.params = dict(model.params)
            if "region" in model.params:
                self.region = model.params["region"]
        path, text = node_signatures(doc)
        need = [False] * len(doc)
        for i in range(len(doc) - 1, -1, -1):
            if (tm[i] or need[i]) and doc.parent[i] >= 0:
                need[doc.parent[i]] = True
        seen_text: set[str] = set()
        for i in range(len(doc)):
            if tm[i] or need[i]:
                self.structure.add(path[i])
            if text[i]:
                if tm[i] and text[i] not in seen_text:
                    seen_text.add(text[i])
                    self.texts[text[i]] = self.texts.get(text[i], 0) + 1
                    # paths cost O(depth): nodes deeper than 64 levels are
                    # left out (a 10,000-deep page made a 50 MB file)
                    if len(self.readable) < 5000 and doc.depth[i] <= 64:
                        self.readable.append({"path": _readable_path(doc, i),
                                              "text": doc.text[i][:80]})
            else:
                c = self.free.setdefault(path[i], [0, 0])
                c[0 if tm[i] else 1] += 1
        self.keys.append(doc.url)
        return self

    @classmethod
    def from_models(cls, models: Iterable[TemplateModel], site: str = "") -> SavedTemplate:
        """Union of the templates of several fitted key pages of one site."""
        st = cls(site=site)
        for m in models:
            st.add_model(m)
        return st

    # -- persistence ----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = self._to_dict()
        if self.site_index is not None:
            d["site_index"] = self.site_index.to_dict()
        return d

    def _to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "site": self.site,
                "method": self.method, "params": self.params, "key_pages": self.keys,
                "region": self.region, "hash": "blake2b-64",
                "structure": sorted(self.structure),
                "texts": dict(sorted(self.texts.items())),
                "free": dict(sorted(self.free.items())),
                "nodes": self.readable}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SavedTemplate:
        if not isinstance(d, dict) or d.get("format") != FORMAT_NAME:
            raise ModelFormatError(f"not a {FORMAT_NAME} file")
        if d.get("version") != FORMAT_VERSION:
            raise ModelFormatError(f"{FORMAT_NAME} version {d.get('version')!r} is not "
                                   f"supported (this temex reads version {FORMAT_VERSION})")
        site_index = None
        if d.get("site_index") is not None:
            try:
                site_index = SiteIndex.from_dict(d["site_index"])
            except (KeyError, TypeError, ValueError, AttributeError):
                site_index = None  # optional evidence: an unknown version is ignored
        try:
            return cls(site=d.get("site", ""), method=d.get("method", ""),
                       params=dict(d.get("params", {})), keys=list(d.get("key_pages", [])),
                       region=d.get("region", 0.8), structure=set(d["structure"]),
                       texts={k: int(v) for k, v in d["texts"].items()},
                       free={k: [int(v[0]), int(v[1])] for k, v in d["free"].items()},
                       readable=list(d.get("nodes", [])), site_index=site_index)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise ModelFormatError(f"malformed {FORMAT_NAME} file: {e}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(_dumps(self.to_dict()), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> SavedTemplate:
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise ModelFormatError(f"{path}: not JSON ({e})") from None
        return cls.from_dict(d)


def _dumps(d: dict[str, Any]) -> str:
    """``d`` as JSON, one key per line, each value on its line, and the
    readable ``nodes`` one per line. Why not ``indent``: Python's JSON
    encoder is pure Python with an indent, and a batch run writes a file per
    fitted site (two thirds of the cost of saving); ``python -m json.tool``
    prints the file indented."""
    lines = []
    for k, v in d.items():
        if k == "nodes" and v:
            value = "[\n" + ",\n".join("  " + json.dumps(x, ensure_ascii=False) for x in v) + "\n ]"
        else:
            value = json.dumps(v, ensure_ascii=False)
        lines.append(f" {json.dumps(k)}: {value}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


class MatchCache:
    """Signatures met while matching one saved template against many pages
    (a batch task's pages): the step bytes of each (tag, id, classes), the
    path signature of each (parent signature, step) and whether each (path
    signature, own text) is a template text. A site's pages repeat most of
    them, and a blake2b costs more than a dict look-up. Memoisation only:
    the masks are those computed without it. Bounded: emptied past
    :attr:`limit` entries."""

    limit = 200_000

    def __init__(self) -> None:
        self.steps: dict[tuple[str, str, tuple[str, ...]], bytes] = {}
        self.paths: dict[bytes, tuple[bytes, str]] = {}
        self.texts: dict[tuple[bytes, str], bool] = {}

    def trim(self) -> None:
        for d in (self.steps, self.paths, self.texts):
            if len(d) > self.limit:
                d.clear()


def apply(saved: SavedTemplate, doc: Document, region: float | None | str = "saved",
          cache: MatchCache | None = None) -> list[bool]:
    """Template mask of ``doc`` (a page the fit may never have seen).

    ``region``: "saved" uses the saved template's setting; None turns the
    content-region rule off. ``cache``: signatures of earlier pages matched
    against the same template (:class:`MatchCache`). O(n).
    """
    mask = _reached_mask(saved, doc, cache)
    r = saved.region if region == "saved" else region
    if r is not None and doc.body >= 0 and isinstance(r, (int, float)):
        mask = apply_region(doc, mask, float(r))
    return mask


def apply_with_text_mask(saved: SavedTemplate, doc: Document, cache: MatchCache | None = None
                         ) -> tuple[list[bool], list[bool]]:
    """``(apply(saved, doc), text_mask(saved, doc))`` with the signature match
    done once (the batch pipeline needs both for every page). O(n)."""
    plain = _reached_mask(saved, doc, cache)
    mask = plain
    r = saved.region
    if r is not None and doc.body >= 0 and isinstance(r, (int, float)):
        mask = apply_region(doc, plain, float(r))
    return mask, text_mask(saved, doc, plain)


def _reached_mask(saved: SavedTemplate, doc: Document, cache: MatchCache | None = None
                  ) -> list[bool]:
    """The template mask before the content-region rule (``apply`` with
    ``region=None``): by the kernel when it runs (the same walk, memos and
    digests, the loop in C), else :func:`_reached_in_python`."""
    struct, texts, free = saved.structure, saved.texts, saved.free
    cached = doc.__dict__.get("_saved_sigs")
    if cached is None:  # signatures computed on the way, memoised across pages
        if cache is None:
            cache = MatchCache()
        else:
            cache.trim()
    k = kernel.get()
    if k is None:
        mask = _reached_in_python(saved, doc, cached, cache)
    elif cached is not None:
        mask = k.reached_mask_cached(doc.parent, cached[0], cached[1], struct, texts, free)
    else:
        assert cache is not None
        mask = k.reached_mask(doc.tag, doc.id, doc.classes, doc.parent, doc.text, struct,
                              texts, free, cache.steps, cache.paths, cache.texts,
                              lambda i: _step(doc, i), blake2b)
    # <html>, <head> and its content precede <body> in pre-order: not content
    for i in range(max(doc.body, 0)):
        mask[i] = True
    return mask


def _reached_in_python(saved: SavedTemplate, doc: Document,
                       cached: tuple[list[str], list[str]] | None, cache: MatchCache | None
                       ) -> list[bool]:
    """:func:`_reached_mask`'s walk in Python (the reference of the
    kernel's): from the page's cached signatures, or computing them where
    the match can reach with ``cache``'s memos."""
    n = len(doc)
    struct, texts, free = saved.structure, saved.texts, saved.free
    reach = [False] * n
    mask = [False] * n
    if cached is not None:
        path, text = cached
        for i in range(n):
            p = doc.parent[i]
            if (p < 0 or reach[p]) and path[i] in struct:
                reach[i] = True
                if text[i]:
                    mask[i] = text[i] in texts
                else:
                    c = free.get(path[i])
                    mask[i] = c is None or c[0] >= c[1]
    else:
        # the signatures of node_signatures, computed only where the match can
        # reach (a node whose parent is reached): a third of a page lies below
        # unreached nodes, and its hashes would be thrown away
        raw: list[bytes] = [b""] * n
        assert cache is not None
        steps, known, text_verdict = cache.steps, cache.paths, cache.texts
        tags, ids, classes, parent, own = doc.tag, doc.id, doc.classes, doc.parent, doc.text
        for i in range(n):
            p = parent[i]
            if p >= 0 and not reach[p]:
                continue
            key = (tags[i], ids[i], classes[i])
            step = steps.get(key)
            if step is None:
                step = steps[key] = b"/" + _step(doc, i).encode()
            joined = (raw[p] if p >= 0 else _ROOT) + step
            sig = known.get(joined)
            if sig is None:
                d = blake2b(joined, digest_size=8).digest()
                sig = known[joined] = (d, d.hex())
            if sig[1] not in struct:
                continue
            reach[i] = True
            raw[i] = sig[0]
            if own[i]:
                tkey = (sig[0], own[i])
                verdict = text_verdict.get(tkey)
                if verdict is None:
                    verdict = text_verdict[tkey] = blake2b(
                        sig[0] + b"\x00" + own[i].encode("utf-8", "replace"),
                        digest_size=8).hexdigest() in texts
                mask[i] = verdict
            else:
                c = free.get(sig[1])
                mask[i] = c is None or c[0] >= c[1]
    return mask


def text_mask(saved: SavedTemplate, doc: Document, mask: Sequence[bool] | None = None,
              cache: MatchCache | None = None) -> list[bool]:
    """The text evidence of the template mask: text-bearing nodes whose text
    signature is a template text on a reached template path (``mask``: the
    result of :func:`apply` with ``region=None``, computed when omitted).

    This is the part of the template that :func:`main_content` uses: the
    votes of text-free nodes and the content-region rule guess content slots
    of the key pages, and on unseen pages they also drop main content
    (measured in docs/BATCH.md). O(n)."""
    m = apply(saved, doc, region=None, cache=cache) if mask is None else mask
    text = doc.text
    return [bool(m[i] and text[i]) for i in range(len(doc))]


def strip(saved: SavedTemplate, doc: Document) -> TemplateModel:
    """A TemplateModel of ``doc`` under ``saved`` (for :func:`temex.content.render.render`)."""
    mask = apply(saved, doc)
    return TemplateModel(key=doc, template=mask, votes=[], pages=[],
                         method="saved:" + (saved.method or "?"),
                         params={"site": saved.site, "keys": len(saved.keys)})


def build(models: Sequence[TemplateModel], site: str = "") -> SavedTemplate:
    """Shortcut for :meth:`SavedTemplate.from_models`."""
    return SavedTemplate.from_models(models, site)
