"""Markdown fidelity per element type: temex's Markdown against a reference.

    .venv/bin/python -m bench.eval.bench_markdown [--data DIR] [--datasets readability,wceb2025]
        [--limit N] [--write docs/CONTENT.md]

WebMainBench (its figures for trafilatura: 0.69 text, 0.13 code, 0.17 table)
scores an
extractor's Markdown per element type with an edit similarity against a gold
Markdown. None of the development sets keeps its gold's structure (data
README: readability's gold is Readability.js's output stripped to text
blocks, code one line per line and table cells joined by a space; wceb2025's
LLM gold had its Markdown removed where the marked-up string is not in the
page), so there is no gold Markdown to compare with. What can be measured
honestly is the *page's own structure restricted to the gold*: the
**reference** is temex's Markdown writer (:func:`temex.content.text.markdown_text`)
over the elements whose text blocks the gold holds (most word trigrams in the
gold text: the training labels of ``bench/train/train_content_model.py``). It
measures whether an extractor keeps each kind of element that the gold keeps,
in its structure, not how well temex's writer matches an independent
converter; trafilatura's Markdown (``output_format="markdown"``, tables and
formatting on) is scored against the same reference, after the same
normalisation (markup stripped per type), so that the syntax of its tables
and lists does not count against it.

Types: ``code`` (fenced blocks), ``formula`` (``$$…$$``, and ``$…$`` around TeX),
``table`` (``|`` rows, separator rows dropped, cells joined by a space),
``list`` (``-``/``*``/``+``/``1.`` items), ``heading`` (``#`` lines) and
``text`` (every other line, inline markup stripped). Per page and type: the
type's text of both, whitespace collapsed, edit similarity
``1 − Levenshtein(a, b) / max(|a|, |b|)``; averaged over the pages whose
reference has the type (an extractor that drops it scores 0 there). Needs
the ``Levenshtein`` package (``pip install '.[bench]'``).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from bench.common import DATA_HELP, data_dir
from temex.content.extract import ContentParams, extract_content  # noqa: E402
from temex.content.text import markdown_text  # noqa: E402
from temex.evaluate.content_sets import pages_by_site  # noqa: E402
from temex.page.blocks import page_blocks  # noqa: E402
from temex.page.dom import parse  # noqa: E402
from temex.page.tokens import tokens  # noqa: E402

TYPES = ("text", "heading", "list", "code", "table", "formula")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
# $$…$$, and $…$ only around TeX (a backslash, ^, _ or {): "$5 and $10" is
# no formula; \[…\] is an escaped link text in Markdown, not display math
_FORMULA = re.compile(r"\$\$(.+?)\$\$"
                      r"|(?<![\\$\w])\$(?=[^$\s])([^$\n]*?[\\^_{][^$\n]*?)(?<=\S)\$(?!\w)",
                      re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"(\*\*|__|[*_`])")
_ESC = re.compile(r"\\([\\`*_\[\]<>#+\-.!|$(){}])")


def _inline(s: str) -> str:
    s = _IMAGE.sub("", s)
    s = _LINK.sub(r"\1", s)
    s = _ESC.sub(r"\1", _MARKS.sub("", s))
    return s


def by_type(md: str) -> dict[str, str]:
    """The text of each element type of a Markdown document (module
    docstring), markup stripped, whitespace collapsed."""
    parts: dict[str, list[str]] = {t: [] for t in TYPES}

    def formulas(s: str) -> str:
        for m in _FORMULA.finditer(s):
            parts["formula"].append(next(g for g in m.groups() if g is not None))
        return _FORMULA.sub(" ", s)

    fence = ""
    for line in md.splitlines():
        m = _FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = ""
            else:
                parts["code"].append(line)
            continue
        if m:
            fence = m.group(1)
            continue
        line = formulas(line)
        if not line.strip():
            continue
        if line.lstrip().startswith("|"):
            if not _TABLE_SEP.match(line):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                parts["table"].append(_inline(" ".join(c for c in cells if c)))
        elif _HEADING.match(line):
            parts["heading"].append(_inline(_HEADING.sub("", line)))
        elif _LIST.match(line):
            parts["list"].append(_inline(_LIST.sub("", line)))
        else:
            parts["text"].append(_inline(line.lstrip("> ")))
    return {t: " ".join(" ".join(v).split()) for t, v in parts.items()}


def similarity(a: str, b: str) -> float:
    """Edit similarity: 1 − Levenshtein distance / the longer length."""
    import Levenshtein

    if not a and not b:
        return 1.0
    return 1.0 - Levenshtein.distance(a, b) / max(len(a), len(b))


def reference(doc, gold: str) -> str:  # type: ignore[no-untyped-def]
    """temex's Markdown writer over the elements whose blocks the gold holds."""
    from temex.evaluate.training import labels_for

    blocks = page_blocks(doc)
    btok = [tokens(" ".join(doc.text[i] for i in ps)) for ps in blocks.pieces]
    lab = labels_for(btok, gold)
    keep = [b >= 0 and lab[b] > 0.5 for b in blocks.block_of]
    return markdown_text(doc, keep)


def run(data: Path, datasets: list[str], limit: int) -> dict[str, dict[str, dict[str, float]]]:
    try:
        import trafilatura
    except ImportError:
        trafilatura = None
    out: dict[str, dict[str, dict[str, float]]] = {}
    for ds in datasets:
        refs = [r for pages in pages_by_site(data, ds).values() for r in pages]
        if limit:
            refs = refs[:limit]
        scores: dict[str, dict[str, list[float]]] = {"temex": {t: [] for t in TYPES},
                                                     "trafilatura": {t: [] for t in TYPES}}
        count = {t: 0 for t in TYPES}
        for ref in refs:
            raw = ref.read()
            doc = parse(raw, url=str(ref.html))
            if doc.body < 0:
                continue
            want = by_type(reference(doc, ref.gold_text()))
            got = {"temex": by_type(extract_content(parse(raw, url=str(ref.html)),
                                                    params=ContentParams()).markdown())}
            if trafilatura is not None:
                md = trafilatura.extract(raw.decode("utf-8", "replace"), output_format="markdown",
                                         include_tables=True, include_formatting=True) or ""
                got["trafilatura"] = by_type(md)
            for t in TYPES:
                if not want[t]:
                    continue
                count[t] += 1
                for name, g in got.items():
                    scores[name][t].append(similarity(want[t], g[t]))
        out[ds] = {name: {t: statistics.mean(v) for t, v in s.items() if v}
                   for name, s in scores.items() if any(s.values())}
        out[ds]["pages"] = {t: float(c) for t, c in count.items()}
        print(f"  {ds}: {len(refs)} pages", file=sys.stderr, flush=True)
    return out


def markdown(res: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = ["| dataset | extractor | " + " | ".join(TYPES) + " |",
             "|---|---|" + "---:|" * len(TYPES)]
    for ds, r in res.items():
        for name, s in r.items():
            if name == "pages":
                cells = [f"{int(s[t])}" for t in TYPES]
                lines.append(f"| {ds} | pages with the type | " + " | ".join(cells) + " |")
                continue
            cells = [f"{s[t]:.3f}" if t in s else "-" for t in TYPES]
            lines.append(f"| {ds} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


MARK = "<!-- bench_markdown results -->"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=None,
                    help=DATA_HELP)
    ap.add_argument("--datasets", default="readability,wceb2025")
    ap.add_argument("--limit", type=int, default=0, help="first N pages per dataset")
    ap.add_argument("--write", metavar="MD", help="replace this file's section after "
                                                  f"{MARK!r} (up to the next heading)")
    args = ap.parse_args()
    res = run(data_dir(args.data), [d for d in args.datasets.split(",") if d], args.limit)
    md = markdown(res)
    print(md)
    if args.write:
        p = Path(args.write)
        s = p.read_text(encoding="utf-8")
        head, _, tail = s.partition(MARK)
        rest = tail.split("\n#", 1)
        p.write_text(head + MARK + "\n\n" + md + ("\n#" + rest[1] if len(rest) > 1 else ""),
                     encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
