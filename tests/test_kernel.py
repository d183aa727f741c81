"""The compiled kernel: it runs when built for a declared
selectolax, turns itself off when it misreads, and gives the pure-Python
path's output.

Real pages, real parsers, both paths in one process (the pure path is
chosen by setting the loader's state, as ``TEMEX_KERNEL=0`` does) and through
the CLI in subprocesses. Every shared page is compared by
``bench/probes/kernel_identity.py``; here every 7th page (the Document arrays of
every shared page are also compared with the reference builder by
tests/test_dom.py, through whichever path runs).
"""

from __future__ import annotations

import importlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import selectolax

from temex.evaluate.identity import outputs as _content
from temex.page import kernel

REPO = Path(__file__).resolve().parents[1]


def _built() -> bool:
    """Every layer's compiled module imports (kernel.LAYERS)."""
    try:
        kernel.layers()
    except ImportError:
        return False
    return True


SUPPORTED = selectolax.__version__ in kernel.SELECTOLAX_VERSIONS
needs_kernel = pytest.mark.skipif(not (_built() and SUPPORTED),
                                  reason="the compiled kernel is not built for this selectolax")


def _pure() -> tuple[None, str]:
    return None, "off in this test"


def test_the_expected_page_reader_runs() -> None:
    """Built for a declared selectolax: on; not built: off and said so.
    ``TEMEX_EXPECT_KERNEL`` (1 or 0, set by .ci/run) pins the expectation,
    so that the pure-path CI run cannot test the kernel by mistake."""
    on = kernel.get() is not None
    expect = os.environ.get("TEMEX_EXPECT_KERNEL")
    if expect is not None:
        assert on == (expect == "1"), kernel.status()
    if _built() and SUPPORTED and os.environ.get("TEMEX_KERNEL", "1") != "0":
        assert on, kernel.status()
    if not _built():
        assert not on and "not built" in kernel.status()


def test_version_names_the_page_reader() -> None:
    def version(**env: str) -> str:
        r = subprocess.run([sys.executable, "-m", "temex", "--version"], capture_output=True,
                           text=True, timeout=60, env={**os.environ, **env}, check=False)
        assert r.returncode == 0, r.stderr
        return r.stdout

    out = version()
    assert out.startswith("temex ") and "kernel" in out
    assert ("compiled kernel on" in out) == (kernel.get() is not None)
    assert "off (TEMEX_KERNEL=0): pure-Python path" in version(TEMEX_KERNEL="0")


class _Misreading:
    """The real kernel with one of its answers changed."""

    def __init__(self, real: Any, wrong: str) -> None:
        self.real, self.wrong = real, wrong
        self.LAYOUT = real.LAYOUT

    def node_fields(self, address: int) -> tuple[int, ...]:
        got = self.real.node_fields(address)
        return (got[0], got[1], got[2] + 8, *got[3:]) if self.wrong == "parent" else got

    def flatten(self, *args: Any) -> Any:
        got = self.real.flatten(*args)
        if self.wrong == "cap":
            return None
        if self.wrong == "text":
            text = list(got[9])
            text[-1] += "x"
            return (*got[:9], text, *got[10:])
        if self.wrong == "address":
            return (got[0][8:] + got[0][:8], *got[1:])
        return got

    def tag_flags(self, *args: Any) -> bytes:
        return self.real.tag_flags(*args)  # type: ignore[no-any-return]

    def events(self, *args: Any) -> list[int | str]:
        got = self.real.events(*args)
        return [e for e in got if not isinstance(e, str)] if self.wrong == "events" else got

    def dot(self, f: list[float], w: list[float]) -> float:
        got: float = self.real.dot(f, w)
        if self.wrong == "sum":  # one unit in the last place off: other additions
            import math
            return math.nextafter(got, math.inf)
        return got

    def psum(self, xs: list[float]) -> float:
        return self.real.psum(xs)  # type: ignore[no-any-return]


@needs_kernel
def test_self_check_turns_a_misreading_kernel_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from temex.page.kernel_check import self_check

    k = kernel.layers()
    assert self_check(k) == ""
    for wrong in ("parent", "cap", "text", "address", "events", "sum"):
        assert self_check(_Misreading(k, wrong)), wrong
    monkeypatch.setattr(selectolax, "__version__", "9.9.9")
    monkeypatch.delenv("TEMEX_KERNEL", raising=False)
    module, why = kernel._load()
    assert module is None and "selectolax 9.9.9" in why and "pure-Python path" in why


def test_a_partial_build_runs_the_pure_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel runs only when every layer imports: with one missing, the
    pure-Python path runs and the status names what is missing."""
    monkeypatch.setattr(kernel, "LAYERS", (*kernel.LAYERS, "temex.content._no_such_kernel"))
    monkeypatch.delenv("TEMEX_KERNEL", raising=False)
    module, why = kernel._load()
    assert module is None and "not built" in why and why.endswith("pure-Python path")
    if _built():
        assert "missing: temex.content._no_such_kernel)" in why


def _resolve(dotted: str) -> Any:
    """What a dotted name names: its longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(dotted)


def test_every_compiled_function_names_its_python_twin() -> None:
    """``kernel.TWINS``: every Python twin resolves (on every install, the
    pure one too); with the kernel built, every compiled name resolves in
    its layer, and every public function and class of every layer is named
    there, and once in the namespace ``kernel.get`` gives."""
    assert kernel.TWINS
    for compiled, twin in kernel.TWINS.items():
        assert compiled.rpartition(".")[0] in kernel.LAYERS, compiled
        assert _resolve(twin) is not None, twin
    if not _built():
        return
    for compiled in kernel.TWINS:
        assert callable(_resolve(compiled)), compiled
    public = {f"{layer}.{name}" for layer in kernel.LAYERS
              for name, value in vars(importlib.import_module(layer)).items()
              if not name.startswith("_") and callable(value)}
    assert public == set(kernel.TWINS), public ^ set(kernel.TWINS)
    merged = vars(kernel.layers())
    assert all(merged[c.rpartition(".")[2]] is _resolve(c) for c in kernel.TWINS)


@pytest.mark.slow
@needs_kernel
def test_kernel_and_pure_path_give_the_same_content(data_dir: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 7th shared page: the Document arrays, the page's main content
    (kept blocks, text, Markdown), text and Markdown of a random half of its
    elements, and its body text are the same on both paths."""
    pages = sorted(p for p in data_dir.rglob("*.htm*") if p.is_file())[::7]
    assert len(pages) > 500
    for path in pages:
        raw = path.read_bytes()
        fast = _content(raw, path.name)
        with monkeypatch.context() as m:
            m.setattr(kernel, "_state", _pure())
            pure = _content(raw, path.name)
        assert fast == pure, path


@needs_kernel
def test_kernel_and_pure_path_hide_the_same_elements(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blocks of a page of hidden elements, dialogs, popovers and tab
    panels are the same on both paths."""
    from test_content import TABS_PAGE

    from temex.page.blocks import page_blocks
    from temex.page.dom import parse as parse_page

    html = TABS_PAGE.replace("</main>", "<dialog><p>closed</p></dialog><dialog open><p>open</p>"
                             "</dialog><div role=dialog aria-modal=true><p>modal</p></div>"
                             "<div hidden id='S:1'><p>streamed</p></div></main>")

    def blocks() -> tuple[list[int], list[str]]:
        b = page_blocks(parse_page(html))
        return b.node, b.joined

    fast = blocks()
    with monkeypatch.context() as m:
        m.setattr(kernel, "_state", _pure())
        assert blocks() == fast
    assert "open" in fast[1] and "streamed" in fast[1] and "closed" not in fast[1]


@needs_kernel
def test_batch_rows_and_templates_are_the_pure_paths(data_dir: Path, tmp_path: Path) -> None:
    """``temex batch`` through the CLI, once with the kernel and once with
    ``TEMEX_KERNEL=0``: byte-identical rows (content, Markdown, metadata,
    stats) and saved templates."""
    src = tmp_path / "in"
    for ds, n_sites in (("big9", 2), ("dragnet", 3), ("cleanportaleval", 1)):
        for site in sorted(p for p in (data_dir / "content" / ds).iterdir() if p.is_dir())[:n_sites]:
            shutil.copytree(site, src / ds / site.name)
    wiki = sorted((data_dir / "sites" / "wikinotes" / "www").rglob("index.html"))[:30]
    for k, f in enumerate(wiki):
        (src / "wiki" / "wikinotes").mkdir(parents=True, exist_ok=True)
        shutil.copy(f, src / "wiki" / "wikinotes" / f"{k}.html")
    outs = {}
    for name, env in (("kernel", {}), ("pure", {"TEMEX_KERNEL": "0"})):
        out = tmp_path / name
        r = subprocess.run([sys.executable, "-m", "temex", "batch", *map(str, sorted(src.iterdir())),
                            "-o", str(out), "-j", "1", "-q", "--template-stats"],
                           capture_output=True, text=True, timeout=600,
                           env={**os.environ, **env}, check=False)
        assert r.returncode == 0, r.stderr[-2000:]
        outs[name] = out
    files = sorted(p.relative_to(outs["kernel"]) for p in outs["kernel"].rglob("*")
                   if p.is_file() and p.parts[-2] in ("sites", "templates"))
    assert len(files) > 10
    assert files == sorted(p.relative_to(outs["pure"]) for p in outs["pure"].rglob("*")
                           if p.is_file() and p.parts[-2] in ("sites", "templates"))
    rows = 0
    for f in files:
        assert (outs["kernel"] / f).read_bytes() == (outs["pure"] / f).read_bytes(), f
        if f.suffix == ".jsonl":
            rows += sum(1 for line in (outs["kernel"] / f).read_text().splitlines()
                        if "markdown" in json.loads(line))
    assert rows > 60


@needs_kernel
def test_block_keys_are_norm_key_of_the_joined_texts() -> None:
    """``norm_keys`` may lower-case last because no code point lower-cases to
    or from a space or a decimal digit (checked for all of them here); it
    gives :func:`norm_key` on strings of spaces, digits of several scripts,
    letters whose lower case is longer or depends on context (final sigma),
    surrogates and control characters."""
    from temex.page import _array_kernel, _kernel
    from temex.page.blocks import norm_key

    for cp in range(0x110000):
        c = chr(cp)
        low = c.lower()
        assert any(x.isspace() for x in low) == c.isspace(), hex(cp)
        assert any(x.isdecimal() for x in low) == c.isdecimal(), hex(cp)
    rng = random.Random(24)
    alphabet = [chr(i) for i in [*range(0x250), 0x3A3, 0x130, 0x660, 0x661, 0x966, 0xFF10,
                                 0x2003, 0x3000, 0x85, 0xA0, 0x1C, 0xD800, 0xDC00, 0x10400]]
    strings = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
               for _ in range(20000)]
    strings += ["", " ", "ΑΣ 1", "ΑΣ1Α", "Page 12 of 3", "  a\u3000b\t9\u0969x "]
    assert _array_kernel.norm_keys(strings) == [norm_key(s) for s in strings]
    # block words: sre's Unicode word class on every code point
    word = re.compile(r"\w+")
    assert all(_array_kernel.words_of(["a" + chr(cp) + "b"])[0]
               == word.findall(("a" + chr(cp) + "b").lower())
               for cp in range(0x110000))
    assert _array_kernel.words_of(strings) == [word.findall(s.lower()) for s in strings]
    # the own texts of flatten: whitespace collapsed as str.split does
    assert [_kernel.collapse(s) for s in strings] == [" ".join(s.split()) for s in strings]
    texts = ["a", "B 1", "", "ç"]
    pieces = [[0], [1, 3], [0, 1, 2, 3]]
    assert _array_kernel.join_pieces(texts, pieces) == [" ".join(texts[i] for i in ps)
                                                        for ps in pieces]


@needs_kernel
def test_possible_starts_is_the_two_counts(data_dir: Path) -> None:
    """The parse's start-tag bound, one pass in C: ``count("<") -
    count("</")`` on every width of str and on real pages."""
    from temex.page import _array_kernel
    from temex.page.dom import decode_html

    texts = ["", "<", "</", "<<//", "a</b<", "\u00e9<x</y", "\U0001F600<</<a", "<\u0100/",
             "x<" * 50 + "</" * 7]
    rnd = random.Random(3)
    texts += ["".join(rnd.choice("<</ab\u00e9\u4e00\U0001F600") for _ in range(rnd.randint(0, 30)))
              for _ in range(500)]
    texts += [decode_html(p.read_bytes())[0]
              for p in sorted((data_dir / "content" / "big9").rglob("*.html"))[::25]]
    for t in texts:
        assert _array_kernel.possible_starts(t) == t.count("<") - t.count("</"), t[:40]


def _parses(raw: bytes) -> bool:
    from temex.errors import ParseError
    from temex.page.dom import parse

    try:
        parse(raw)
    except ParseError:
        return False
    return True


@needs_kernel
def test_site_and_fit_primitives_are_the_pure_paths(data_dir: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On real pages of every shared site and content dataset, both paths:
    block texts, keys and their hashes, block words, name flags and their
    counts down the tree, page fingerprints, vocabularies,
    mapping signatures, and the exact top-down mapping of the first page of a
    site to its next ones under ``label`` and ``strict`` with the default
    table bound and with bounds small enough to take the size-bound and the
    greedy alignments (the mapping's items in order); attribute lookups and
    the kept elements of every other block."""
    from temex.content.output import Content
    from temex.page.blocks import page_blocks
    from temex.page.dom import parse
    from temex.page.names import ancestor_counts, flagged_below, name_flags
    from temex.site.pool import vocabulary
    from temex.template import mapping
    from temex.template.detectors.vote import VoteDetector
    from temex.template.equality import get_equality
    from temex.template.saved import MatchCache, SavedTemplate, apply, node_signatures
    from temex.template.site_index import page_fingerprint

    def verdict(id_: str, classes: tuple[str, ...]) -> bool:
        return "nav" in id_ or any(c.startswith(("s", "m")) for c in classes)

    def primitives(raw: bytes) -> list[Any]:
        doc = parse(raw)
        b = page_blocks(doc)
        flags = name_flags(doc, verdict)
        inner = name_flags(doc, verdict, doc.body + 1)
        return [b.joined, b.key, b.hashed_key, b.words, page_fingerprint(doc), vocabulary(doc),
                mapping.signatures(doc, get_equality("label")),
                mapping.signatures(doc, get_equality("strict")),
                flags, inner, ancestor_counts(doc, flags), ancestor_counts(doc, inner, doc.body + 1),
                flagged_below(doc, flags), flagged_below(doc, inner, doc.body + 1),
                doc.attribute_values("role"), doc.attribute_values("href"),
                Content(doc, b, list(range(0, len(b), 2))).keep_mask()]

    # files only: a site may have a folder named like a page (``blog.html/``)
    groups = [sorted(f for f in d.rglob("*.htm*") if f.is_file())[:4]
              for d in sorted((data_dir / "sites").iterdir()) if d.is_dir()]
    groups += [sorted(s.glob("*.htm*"))[:3] for ds in sorted((data_dir / "content").iterdir())
               for s in sorted(ds.iterdir())[:4] if s.is_dir()]
    pairs = masks = 0
    for files in groups:
        raws = [r for r in (f.read_bytes() for f in files) if _parses(r)]
        fast = [primitives(r) for r in raws]
        with monkeypatch.context() as m:
            m.setattr(kernel, "_state", _pure())
            assert fast == [primitives(r) for r in raws], files[0]
        docs = [parse(r) for r in raws]
        for name in ("label", "strict"):
            eq = get_equality(name)
            for max_cells, proxy in ((mapping.DEFAULT_MAX_CELLS, mapping.PROXY_CELLS), (6, 250_000),
                                     (1, 30)):
                monkeypatch.setattr(mapping, "PROXY_CELLS", proxy)
                for d2 in docs[1:]:
                    got = mapping.etdm(docs[0], d2, eq, max_cells=max_cells)
                    want = (mapping._Aligner(docs[0], d2, eq, max_cells).run(0, 0)
                            if eq.equal(docs[0], 0, d2, 0) else {})
                    assert list(got.items()) == list(want.items()), (files[0], name, max_cells)
                    pairs += bool(want)
                monkeypatch.undo()
        if len(docs) >= 2:  # a saved template's match, with and without cached signatures
            saved = SavedTemplate.from_models([VoteDetector().fit(docs[0], docs[1:]).model_])
            for raw in raws:
                runs = []
                for state in (None, _pure()):
                    with monkeypatch.context() as m:
                        if state is not None:
                            m.setattr(kernel, "_state", state)
                        cache = MatchCache()
                        signed = parse(raw)
                        node_signatures(signed)
                        runs.append([apply(saved, parse(raw), None),
                                     apply(saved, parse(raw), None, cache),
                                     apply(saved, parse(raw), None, cache),
                                     apply(saved, signed, None)])
                assert runs[0] == runs[1], files[0]
                masks += 1
    assert pairs > 300
    assert masks > 100


@pytest.mark.slow
@needs_kernel
def test_content_features_and_probabilities_are_the_pure_paths(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every 7th shared page: the scorer's feature rows (page, and with site
    evidence made up from the page), its stage-2 context rows and both
    models' probabilities are equal on both paths, value for value; so are
    name flags judged with a memo kept across pages and without one."""
    from temex.content.features import block_features, context_features, negative_words
    from temex.content.params import ContentParams
    from temex.content.rules import rule_signals
    from temex.content.scorer import load_model
    from temex.page.blocks import page_blocks
    from temex.page.dom import parse
    from temex.page.names import name_flags

    models = load_model()
    memo: dict[Any, int] = {}

    def verdict(id_: str, classes: tuple[str, ...]) -> bool:
        return bool(negative_words(id_, classes))

    def scored(raw: bytes) -> list[Any]:
        doc = parse(raw)
        blocks = page_blocks(doc)
        n = len(blocks)
        rule = rule_signals(doc, blocks, [False] * n, ContentParams())
        site = {"pages": 3, "df": [(7 * b) % 4 for b in range(n)],
                "rule": rule_signals(doc, blocks, [b % 3 == 0 for b in range(n)], ContentParams())}
        page_rows, site_rows = block_features(doc, blocks, rule), block_features(doc, blocks, rule,
                                                                                 site)
        s1 = models["page"].stage1(page_rows)
        width = len(models["page"].names1)
        return [page_rows, site_rows, s1, context_features(doc, blocks, s1),
                models["page"].probabilities(doc, blocks, page_rows),
                models["site"].probabilities(doc, blocks, site_rows),
                models["page"].probabilities(doc, blocks, site_rows, width),
                name_flags(doc, verdict, memo=memo) == name_flags(doc, verdict)]

    pages = [r for r in (p.read_bytes() for p in sorted(data_dir.rglob("*.htm*"))[::7]
                         if p.is_file()) if _parses(r)]
    assert len(pages) > 500
    checked = 0
    for raw in pages:
        fast = scored(raw)
        with monkeypatch.context() as m:
            m.setattr(kernel, "_state", _pure())
            pure = scored(raw)
        assert fast == pure
        assert fast[-1] is True
        checked += len(fast[0]) > 0
    assert checked > 500


@needs_kernel
def test_feature_rows_are_laid_out_by_the_feature_definitions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's rows are as wide as the groups of
    ``content/feature_columns.py`` say (their widths passed in); a group
    whose width is not that of the values the kernel writes is refused, not
    written over its neighbours."""
    from temex.content import _kernel as content_kernel
    from temex.content import features
    from temex.content.feature_columns import FEATURES, GROUPS, SITE_FEATURES, WIDTHS
    from temex.content.params import ContentParams
    from temex.content.rules import rule_signals
    from temex.page.blocks import page_blocks
    from temex.page.dom import parse

    if kernel.get() is None:  # built, and turned off (TEMEX_KERNEL=0): nothing refuses
        pytest.skip(kernel.status())
    assert WIDTHS == (*map(len, GROUPS), len(SITE_FEATURES))
    assert sum(WIDTHS[:-1]) == len(FEATURES)
    assert all(k in (-1, w) for k, w in zip(content_kernel.FEATURE_WIDTHS, WIDTHS, strict=True))
    doc = parse(b"<html><head><title>A page</title></head><body><h1>A page</h1>"
                b"<p>Some text, a sentence. Another one.</p><ul><li>a<li>b</ul></body></html>")
    blocks = page_blocks(doc)
    rule = rule_signals(doc, blocks, [False] * len(blocks), ContentParams())
    rows = features.block_features(doc, blocks, rule)
    assert len(rows) == len(blocks) and all(len(r) == len(FEATURES) for r in rows)
    monkeypatch.setattr(features, "WIDTHS", (WIDTHS[0] + 1, *WIDTHS[1:]))
    with pytest.raises(ValueError, match="feature group widths"):
        features.block_features(doc, blocks, rule)


@needs_kernel
def test_compiled_markdown_writer_escapes_what_text_py_escapes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled writer scans text for the characters of text.py's
    ``_ESCAPED`` in C: the same set; and a page of every construct it writes
    (nested and numbered lists, a data table and a layout table, code with a
    language and backticks, quotes, links made absolute, images, emphasis,
    escapes at line starts) gives the pure writer's Markdown."""
    from temex.content import _text_kernel
    from temex.content.text import _ESCAPED, markdown_text
    from temex.page.dom import parse

    assert _ESCAPED == _text_kernel.ESCAPABLE
    html = ("<html><head><base href='http://example.org/d/'></head><body><h1>T <em>x</em></h1>"
            "<p>1. not a list * a_b [c] <b>bold <a href='p?q=1 2'>link</a></b> | pipe</p>"
            "<ol start=' 3'><li>a<ul><li># b<li><p>c</p><p>d</p></ul><li>e</ol>"
            "<table><tr><th>h1<th>h2<tr><td>a|b<td><i>c</i></table>"
            "<table><tr><td><p>layout</p></td></tr></table>"
            "<pre class='language-py'><code>x = `a`\n```\ny</code></pre>"
            "<blockquote><p>q1</p><blockquote><p>q2</p></blockquote></blockquote>"
            "<p><img alt='A [pic]' src='i.png'><img alt='' src='n.png'>"
            "<a href='javascript:x()'>js</a> <code>c`d</code> <kbd> </kbd></p>"
            "<h2>a<br>b</h2><ul><li><h3>in item</h3></li></ul>- dash<br>+ plus</body></html>")
    doc = parse(html.encode(), url="http://example.org/d/page.html")
    rng = random.Random(7)
    masks = [[True] * len(doc)] + [[rng.random() < 0.6 for _ in range(len(doc))]
                                   for _ in range(40)]
    fast = [markdown_text(doc, m) for m in masks]
    with monkeypatch.context() as mp:
        mp.setattr(kernel, "_state", _pure())
        assert fast == [markdown_text(doc, m) for m in masks]
    assert "| h1 | h2 |" in fast[0] and "```py" in fast[0] and "3. a" in fast[0]
