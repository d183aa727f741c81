"""Evaluation against the gold of the evaluation data (README.md there).

Sites (``sites/<name>/site.json``): on a content page, the *content* is the
element matched by ``content_selector`` with every descendant matched by
``template_selector`` removed; everything else in ``<body>`` is template.
Node-level gold: an element is content when it is (inside) the content element
and not (inside) a template_selector match, else template. Elements that are or
lie inside script/style/noscript/template are not counted.

Scores are precision, recall and F1 for *both* classes (template and content):
on sites where 95% of the elements are template, "everything is template"
scores 0.977 template-F1 and 0 content-F1, so one class alone says little.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..page.dom import Document

__all__ = [
    "ErrorSubtree",
    "NoGoldError",
    "PageResult",
    "Scores",
    "Site",
    "error_subtrees",
    "evaluate_site",
    "format_errors",
    "format_table",
    "gold_mask",
    "gold_text",
    "load_site",
    "score_nodes",
    "url_to_file",
]


class NoGoldError(ValueError):
    """The page has no content element (e.g. a 404 page): it has no gold."""


@dataclass(frozen=True)
class Site:
    """A shared test site: its folder, web root and gold selectors."""

    name: str
    folder: Path
    root: Path
    key_pages: list[str]
    content_selector: str
    template_selector: str | None
    meta: dict[str, Any]


def load_site(folder: str | Path) -> Site:
    folder = Path(folder)
    meta = json.loads((folder / "site.json").read_text("utf-8"))
    root = (folder / "www" / meta.get("serve_root", ".")).resolve()
    return Site(name=meta.get("name", folder.name), folder=folder, root=root,
                key_pages=list(meta.get("key_pages", [])),
                content_selector=meta["content_selector"],
                template_selector=meta.get("template_selector"), meta=meta)


def url_to_file(root: Path, url_path: str) -> Path:
    """Map a URL path of a mirrored site to its file (``/a/`` → ``a/index.html``)."""
    p = root / url_path.lstrip("/")
    if url_path.endswith("/") or p.is_dir():
        p = p / "index.html"
    return p


def gold_mask(doc: Document, content_selector: str,
              template_selector: str | None) -> list[bool | None]:
    """Gold per element: True = template, False = content, None = not scored
    (outside ``<body>``, or script/style/noscript/template).

    Raises NoGoldError when ``content_selector`` matches nothing.
    """
    if doc.parser is None:
        raise ValueError("document has no parse tree")
    index = doc.element_index()
    content = [index[n.mem_id] for n in doc.parser.css(content_selector) if n.mem_id in index]
    if not content:
        raise NoGoldError(f"{doc.url}: content selector {content_selector!r} matches nothing")
    is_content = [False] * len(doc)
    for c in content:
        for i in doc.descendants(c):
            is_content[i] = True
    if template_selector:
        for n in doc.parser.css(template_selector):
            t = index.get(n.mem_id)
            if t is not None:
                for i in doc.descendants(t):
                    is_content[i] = False
    ignored = doc.ignored_mask()
    gold: list[bool | None] = [None] * len(doc)
    for i in doc.in_body():
        if not ignored[i]:
            gold[i] = not is_content[i]
    return gold


@dataclass(frozen=True)
class Scores:
    """Counts and P/R/F1 for the template class and the content class."""

    tp: int  # template predicted template
    fp: int  # content predicted template
    fn: int  # template predicted content
    tn: int  # content predicted content

    @staticmethod
    def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
        p = tp / (tp + fp) if tp + fp else (1.0 if not fn else 0.0)
        r = tp / (tp + fn) if tp + fn else 1.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f

    @property
    def template(self) -> tuple[float, float, float]:
        return self._prf(self.tp, self.fp, self.fn)

    @property
    def content(self) -> tuple[float, float, float]:
        return self._prf(self.tn, self.fn, self.fp)

    def __add__(self, other: Scores) -> Scores:
        return Scores(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn,
                      self.tn + other.tn)

    def as_dict(self) -> dict[str, float]:
        tp, tr, tf = self.template
        cp, cr, cf = self.content
        return {"template_p": tp, "template_r": tr, "template_f1": tf,
                "content_p": cp, "content_r": cr, "content_f1": cf,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}


def gold_text(doc: Document, content_selector: str, template_selector: str | None) -> str:
    """The gold main text of a page: the text of :func:`gold_mask`'s content
    elements, rendered as ``temex content`` renders its output (inline
    elements run together, one line per block), so that token F1 against it
    compares like with like. Raises NoGoldError as :func:`gold_mask`."""
    from ..content.text import text_lines

    gold = gold_mask(doc, content_selector, template_selector)
    return "\n".join(text_lines(doc, [g is False for g in gold], markdown=False))


def score_nodes(predicted: Sequence[bool], gold: Sequence[bool | None]) -> Scores:
    """Compare a predicted template mask with a gold mask (None = skip)."""
    tp = fp = fn = tn = 0
    for p, g in zip(predicted, gold):
        if g is None:
            continue
        if p and g:
            tp += 1
        elif p:
            fp += 1
        elif g:
            fn += 1
        else:
            tn += 1
    return Scores(tp, fp, fn, tn)


@dataclass(frozen=True)
class PageResult:
    """Evaluation of one key page."""

    site: str
    key_page: str
    scores: Scores | None
    n_pages: int
    fit_seconds: float
    parse_seconds: float
    error: str | None = None
    errors: tuple[ErrorSubtree, ...] = ()


@dataclass(frozen=True)
class ErrorSubtree:
    """A largest subtree whose scored elements are all mislabelled the same way.

    ``kind`` is ``"content as template"`` (gold content, predicted template) or
    ``"template as content"``; ``path`` is the subtree root's :meth:`Document.path`;
    ``element`` is its tag, id and first classes (``div#main.wrap.dark``);
    ``nodes`` counts the mislabelled elements it stands for (1 for a
    mislabelled container whose other elements are right); ``text`` is the
    start of its text.
    """

    kind: str
    path: str
    element: str
    nodes: int
    text: str


def error_subtrees(doc: Document, predicted: Sequence[bool],
                   gold: Sequence[bool | None]) -> list[ErrorSubtree]:
    """Where a page's prediction goes wrong, largest first: every maximal
    subtree whose scored elements are all mislabelled the same way, and every
    mislabelled container (an element labelled wrongly whose subtree also holds
    rightly labelled elements) as a subtree of one node. Together they account
    for every mislabelled element exactly once."""
    n = len(doc)
    wrong = [g is not None and bool(predicted[i]) != g for i, g in enumerate(gold)]
    # pure[i]: every scored element of i's subtree is wrong with i's gold label
    # (unscored elements are neutral); one reverse pass, children after parents.
    pure = [True] * n
    label: list[bool | None] = [None] * n
    for i in range(n - 1, -1, -1):
        if gold[i] is not None:
            if not wrong[i]:
                pure[i] = False
            label[i] = gold[i]
        for c in doc.children[i]:
            if not pure[c]:
                pure[i] = False
            elif label[c] is not None:
                if label[i] is None:
                    label[i] = label[c]
                elif label[i] != label[c]:
                    pure[i] = False
    out = []
    for i in range(n):
        if not wrong[i]:
            continue
        parent = doc.parent[i]
        if pure[i] and parent >= 0 and pure[parent] and wrong[parent]:
            continue  # inside a larger pure subtree
        if pure[i]:
            count = sum(1 for j in doc.descendants(i) if wrong[j])
        else:
            count = 1  # a container: only itself is wrong
        kind = "content as template" if gold[i] is False else "template as content"
        element = doc.tag[i] + (f"#{doc.id[i]}" if doc.id[i] else "") + \
            "".join(f".{c}" for c in doc.classes[i][:2])
        out.append(ErrorSubtree(kind, doc.path(i), element, count,
                                " ".join(doc.subtree_text(i).split())[:80]))
    out.sort(key=lambda e: -e.nodes)
    return out


def format_errors(results: Sequence[PageResult], limit: int) -> str:
    """The ``limit`` largest mislabelled subtrees of every key page (Markdown),
    from results of :func:`evaluate_site` with ``explain=True``."""
    lines = []
    for r in results:
        if r.scores is None:
            continue
        lines.append(f"\n### {r.site} {r.key_page}\n")
        if not r.errors:
            lines.append("no mislabelled element")
            continue
        lines.append("| elements | error | element | path | text |\n|---:|---|---|---|---|")
        for e in r.errors[:limit]:
            text = e.text.replace("|", "\\|")
            lines.append(f"| {e.nodes} | {e.kind} | `{e.element}` | `{e.path}` | {text} |")
        rest = r.errors[limit:]
        if rest:
            lines.append(f"| {sum(e.nodes for e in rest)} | {len(rest)} more subtrees | | | |")
    return "\n".join(lines) + "\n"


def evaluate_site(site: Site, options: Any, key_pages: Sequence[str] | None = None,
                  explain: bool = False) -> list[PageResult]:
    """Extract and score every key page of ``site`` with offline candidates
    (``temex.site.pool`` rule over the site's folder). ``options`` is an
    :class:`temex.api.ExtractOptions`; ``explain`` also lists each page's
    mislabelled subtrees (:func:`error_subtrees`)."""
    from ..api import extract_files  # late import: api depends on this module's siblings

    out = []
    for kp in key_pages if key_pages is not None else site.key_pages:
        f = url_to_file(site.root, kp)
        try:
            model = extract_files(f, pages_dir=site.root, options=options)
            gold = gold_mask(model.key, site.content_selector, site.template_selector)
        except (OSError, ValueError) as e:
            out.append(PageResult(site.name, kp, None, 0, 0.0, 0.0, str(e)))
            continue
        errors = tuple(error_subtrees(model.key, model.template, gold)) if explain else ()
        out.append(PageResult(site.name, kp, score_nodes(model.template, gold),
                              len(model.pages), model.timings.get("fit", 0.0),
                              model.timings.get("parse_pages", 0.0)
                              + model.timings.get("parse_key", 0.0), errors=errors))
    return out


def format_table(results: Sequence[PageResult]) -> str:
    """A Markdown table: one row per key page, one per site (all its key pages
    pooled) and an overall row averaging the sites."""
    head = ("| site | key page | pages | template P | template R | template F1 "
            "| content P | content R | content F1 | fit ms |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n")
    rows = []

    def row(site: str, kp: str, s: Scores, n: str, ms: str) -> str:
        tp, tr, tf = s.template
        cp, cr, cf = s.content
        return (f"| {site} | {kp} | {n} | {tp:.3f} | {tr:.3f} | {tf:.3f} | {cp:.3f} "
                f"| {cr:.3f} | {cf:.3f} | {ms} |")

    by_site: dict[str, list[PageResult]] = {}
    for r in results:
        by_site.setdefault(r.site, []).append(r)
        if r.scores is None:
            rows.append(f"| {r.site} | {r.key_page} | error: {r.error} |||||||||")
        else:
            rows.append(row(r.site, r.key_page, r.scores, str(r.n_pages),
                            f"{r.fit_seconds * 1000:.1f}"))
    site_f: list[tuple[float, float]] = []
    for name, rs in by_site.items():
        ok = [r.scores for r in rs if r.scores is not None]
        if not ok:
            continue
        total = ok[0]
        for s in ok[1:]:
            total = total + s
        site_f.append((total.template[2], total.content[2]))
        rows.append(row(f"**{name}**", "all key pages", total, "",
                        f"{sum(r.fit_seconds for r in rs) / len(rs) * 1000:.1f}"))
    if site_f:
        tf = sum(f[0] for f in site_f) / len(site_f)
        cf = sum(f[1] for f in site_f) / len(site_f)
        rows.append(f"| **mean of sites** | | | | | {tf:.3f} | | | {cf:.3f} | |")
    return head + "\n".join(rows) + "\n"
