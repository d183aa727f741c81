"""Offline candidate pages: choose pages of a local folder for a key page.

With ``--pages-dir DIR`` the HTML files under DIR (a local mirror of the site)
are the pool, and temex chooses which to compare with the key page. The rule,
so that results are reproducible:

1. the key page's links, resolved inside DIR like a web server would
   (relative links against the key page's folder, root-relative links against
   DIR, ``/dir/`` to ``/dir/index.html``, fragments and queries dropped; links
   to the key page itself and outside DIR ignored): first the pages of the key
   page's *kind* (the same :func:`url_pattern`: digits, hashes and query
   values abstracted), then the *siblings*, pages whose URL has the
   same parent as the key page's (``/blog/a/`` and ``/blog/b/``) and, for a
   key page that is a file (``date.html``), the folder's own index file
   beside it (``index.html``: a flat archive's one listing among hundreds of
   linked messages would otherwise be met last), then the
   others, each group in the order the key page shows them (document order,
   the order a reader meets the menu);
2. then the remaining files, nearest folder first (same folder, then the
   folders that share the longest path prefix), by name within a folder;
   in both, variants of the key page or of an earlier candidate (one
   product's sizes and colours, :func:`temex.site.duplicates.variant_urls`;
   the same page under a session-id or sorting query) go last, the rule of
   live exploration (:func:`temex.site.duplicates.variants_last`);
3. files that cannot be read or parsed are reported (``PageError``) and
   skipped, and so are redirect stubs and pages without a body;
4. near-duplicates of the key page and of each other are dropped
   (:mod:`temex.site.duplicates`: the same page under another URL, variants
   of one product) and the pool refilled from the next files; when fewer
   than ``n`` distinct pages remain, pages whose text the key page holds
   (the chapters of a print view, a listing's sub-listings) come back, last
   (a print view of a whole book had no page left to compare);
5. of the first ``pool_size`` distinct usable pages (default ``2n + 2``), the ``n`` most
   similar in structure to the key page are compared (:func:`similarity`:
   Jaccard index of the tag.class vocabularies of the two bodies; ties keep
   the order above). A site often has page kinds with their own template
   (blog posts with a comment form and a sidebar, section pages without);
   a post is best compared with posts. Pages whose similarity is
   :data:`KIND_GAP` or more below the best one's are of another kind and are
   left out (:func:`near_best`), though fewer pages are compared: a listing
   is compared with the other listing alone rather than outvoted by
   message pages that share none of its chrome.
 Listing a folder of thousands of
files costs one ``os.walk``; candidates are parsed by Lexbor and surveyed
(vocabulary, shingles, usability) in one walk, and only the chosen pages are
built into Documents.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from selectolax.lexbor import LexborHTMLParser

from ..errors import PageError, ParseError
from ..page import kernel
from ..page.dom import (
    DEFAULT_MAX_ELEMENTS,
    IGNORED_TAGS,
    Document,
    build_document,
    lexbor_parse,
    parse,
)
from ..page.files import _FEED_TAGS, html_files, read_page, real_path, unusable
from ..page.urls import url_pattern
from .duplicates import (
    _WORD,
    DEFAULT_DUPLICATE,
    distinct_indices,
    jaccard,
    page_shingles,
    variants_last,
    word_shingles,
)

_DIGITS = re.compile(r"[0-9]+")

__all__ = ["KIND_GAP", "candidate_order", "candidate_reason", "choose_pages",
           "load_candidate", "local_link_order", "near_best", "set_aside_far",
           "jaccard", "most_similar", "rank_by_similarity", "similarity", "url_pattern", "vocabulary"]

def _resolve(href: str, key_file: Path, root: Path) -> Path | None:
    parts = urlsplit(href.strip())
    if parts.scheme and parts.scheme not in ("http", "https", "file"):
        return None
    if parts.scheme in ("http", "https") or parts.netloc:
        return None  # absolute URLs point at a live host, not this mirror
    path = unquote(parts.path)
    if not path:
        return None
    base = root if path.startswith("/") else key_file.parent
    target = real_path(base / path.lstrip("/"))
    if path.endswith("/") or target.is_dir():
        target = target / "index.html"
    try:
        target.relative_to(root)
    except ValueError:
        return None
    return target


def local_link_order(key: Document, key_file: Path, root: Path) -> list[Path]:
    """Files in ``root`` that the key page links to, in document order."""
    out: list[Path] = []
    seen = {real_path(key_file)}
    for i, tag in enumerate(key.tag):
        if tag != "a":
            continue
        href = dict(key.attrs[i]).get("href")
        if not href:
            continue
        target = _resolve(href, key_file, root)
        if target is None or target in seen:
            continue
        seen.add(target)
        if target.is_file():
            out.append(target)
    return out


def _proximity(key_file: Path, files: Iterable[Path]) -> list[Path]:
    kp = key_file.parent.parts

    def distance(f: Path) -> tuple[int, str]:
        fp = f.parent.parts
        common = 0
        for a, b in zip(kp, fp):
            if a != b:
                break
            common += 1
        return (len(kp) - common + len(fp) - common, str(f))

    return sorted(files, key=distance)


_INDEX_NAMES = ("index.html", "index.htm")


def _folder_index(key_file: Path) -> set[Path]:
    """The index files beside a key page that is a file (``index.html``
    beside ``date.html``): siblings too, though their URL is the folder's (a
    flat archive's listing beside its messages). An index page has none: its
    folder's index is the page itself."""
    if key_file.name.lower() in _INDEX_NAMES:
        return set()
    return {key_file.parent / name for name in _INDEX_NAMES}


def page_path(f: Path) -> Path:
    """The URL-like path of a mirrored file: ``a/b/index.html`` → ``a/b``."""
    return f.parent if f.name.lower() in _INDEX_NAMES else f.with_suffix("")


def candidate_order(key: Document, key_file: Path, root: Path,
                    kind_files: bool = False) -> Iterator[Path]:
    """All files of ``root`` in the order of the module docstring's rule.
    With ``kind_files``, the folder's files of the key page's kind that it
    does not link come right after the linked ones of its kind."""
    key_file = real_path(key_file)
    root = real_path(root)
    linked = local_link_order(key, key_file, root)
    parent = page_path(key_file).parent
    key_page = page_path(key_file)
    # a key page outside the folder (read from stdin) has no kind there
    kind = url_pattern(str(key_page.relative_to(root))) if key_page.is_relative_to(root) else None

    def same_kind(f: Path) -> bool:
        return url_pattern(str(page_path(f).relative_to(root))) == kind

    # stable: pages of the key page's kind (URL pattern) first, then siblings
    beside = _folder_index(key_file)
    linked.sort(key=lambda f: (not same_kind(f),
                               page_path(f).parent != parent and f not in beside))
    done = set(linked) | {key_file}
    resolved = (real_path(f) for f in html_files(root))
    rest = _proximity(key_file, (f for f in resolved if f not in done))
    if kind_files and kind is not None:
        n_kind = sum(1 for f in linked if same_kind(f))
        more = [f for f in rest if same_kind(f)]
        linked = linked[:n_kind] + more + linked[n_kind:]
        rest = [f for f in rest if not same_kind(f)]
    if not key_page.is_relative_to(root):
        yield from linked
        yield from rest
        return
    # the key page's variants (and each candidate's) last, as live
    # exploration tries them (temex.site.duplicates.variants_last)
    yield from variants_last(itertools.chain(linked, rest), _page_url(key_file, root),
                             lambda f: _page_url(f, root), same_page=True)


def _page_url(f: Path, root: Path) -> str:
    """The root-relative URL path of a mirrored file (:func:`page_path`),
    a saved query (``index.html?page=2.html``) kept as the query."""
    return "/" + page_path(f).relative_to(root).as_posix()


def vocabulary(doc: Document) -> frozenset[str]:
    """The set of ``tag.class`` and ``tag#id`` tokens of the body (digit runs in
    names replaced by ``#``), cached on the document."""
    cached = doc.__dict__.get("_vocabulary")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    k = kernel.get()
    if k is not None:  # the same loop, compiled
        body = doc.body
        vocab = frozenset(k.vocabulary(doc.tag, doc.id, doc.classes, body,
                                       body + doc.size[body] if body >= 0 else body, _DIGITS))
        doc.__dict__["_vocabulary"] = vocab
        return vocab
    out: set[str] = set()
    done: set[tuple[str, str, tuple[str, ...]]] = set()  # elements repeat their names
    tags, ids, classes = doc.tag, doc.id, doc.classes
    for i in doc.in_body():
        t, id_, cs = tags[i], ids[i], classes[i]
        if not id_ and not cs:
            out.add(t)
            continue
        key = (t, id_, cs)
        if key in done:
            continue
        done.add(key)
        out.add(t)
        for c in cs:
            out.add(t + "." + _DIGITS.sub("#", c))
        if id_:
            out.add(t + "#" + _DIGITS.sub("#", id_))
    vocab = frozenset(out)
    doc.__dict__["_vocabulary"] = vocab
    return vocab


def similarity(a: Document, b: Document) -> float:
    """Jaccard index (:func:`temex.site.duplicates.jaccard`) of the two
    pages' :func:`vocabulary`; on the vocabularies of pages no longer held,
    ``jaccard`` itself. O(n)."""
    return jaccard(vocabulary(a), vocabulary(b))


#: Candidates whose :func:`similarity` to the key page is this much or more
#: below the best candidate's are of another kind (:func:`near_best`). Chosen
#: leaving one site out (docs/journal/2026-11-25-core-what-changed-and-what-each-change.md,
#: pages of another kind set aside): 0.4 and 0.45 change no site but the mailing-list archive
#: (and codare by 0.001); 0.1 to 0.3 cut pages of the key page's own kind on
#: other sites.
KIND_GAP = 0.4


def near_best(similarities: Sequence[float], gap: float | None = KIND_GAP) -> list[int]:
    """Indices of the candidates whose similarity to the key page is less
    than ``gap`` below the best one's (all of them when there are none or
    ``gap`` is None), in their order. The skeleton is the key page's kind
    where the URL cannot tell it (a flat archive's ``date.html`` and
    ``index.html``): a page sharing half the vocabulary of the best one
    shares its template less than the best one does, and a vote that counts
    it can only lose the chrome the key page shares with its own kind. Our
    addition: the hyperlink paper (§3.3) compares
    the complete subdigraph's pages whatever their structure. O(k)."""
    if not similarities or gap is None:
        return list(range(len(similarities)))
    best = max(similarities)
    return [k for k, s in enumerate(similarities) if s > best - gap]


def set_aside_far(similarities: Sequence[float], gap: float | None = KIND_GAP
                  ) -> dict[int, str]:
    """The candidates :func:`near_best` leaves out, each index with why, for
    the report (the offline pool's ``set_aside``, live
    ``Exploration.set_aside``). O(k)."""
    near = set(near_best(similarities, gap))
    best = max(similarities, default=0.0)
    return {k: f"another kind by structure: tag.class similarity {s:.2f}, "
               f"the best page's {best:.2f}"
            for k, s in enumerate(similarities) if k not in near}


def rank_by_similarity(key: Document, pages: list[Document], n: int) -> list[Document]:
    """The ``n`` pages most similar to ``key``; stable for ties."""
    ranked = most_similar(vocabulary(key), [vocabulary(d) for d in pages], n)
    return [pages[k] for k in ranked]


def most_similar(key: frozenset[str], vocabs: Sequence[frozenset[str]], n: int) -> list[int]:
    """Positions of the ``n`` vocabularies most like ``key`` (:func:`jaccard`),
    in their order; stable for ties: :func:`rank_by_similarity` of pages that
    are no longer held, by their kept :func:`vocabulary`."""
    order = sorted(range(len(vocabs)), key=lambda k: -jaccard(key, vocabs[k]))
    return sorted(order[:max(0, n)])


def _read_candidate(path: str | os.PathLike[str], timings: dict[str, float] | None
                    ) -> bytes | PageError:
    """The bytes of a candidate file, or why it cannot be read; adds the
    seconds spent to ``timings["read"]`` when given."""
    t0 = time.perf_counter()
    try:
        return read_page(path)
    except ParseError as e:
        return PageError(str(path), str(e))
    except OSError as e:
        return PageError(str(path), f"cannot read: {e.strerror or e}")
    finally:
        if timings is not None:
            timings["read"] = timings.get("read", 0.0) + time.perf_counter() - t0


def load_candidate(path: str | os.PathLike[str], timings: dict[str, float] | None = None
                   ) -> Document | PageError:
    """Read, parse and check one candidate page; a page that cannot serve
    becomes a :class:`PageError` with the reason. Adds seconds spent to
    ``timings["read"]`` and ``timings["parse"]`` when given."""
    data = _read_candidate(path, timings)
    if isinstance(data, PageError):
        return data
    t1 = time.perf_counter()
    try:
        doc = parse(data, url=str(path))
    except ParseError as e:
        return PageError(str(path), str(e))
    finally:
        if timings is not None:
            timings["parse"] = timings.get("parse", 0.0) + time.perf_counter() - t1
    reason = unusable(doc)
    return PageError(str(path), reason) if reason else doc


@dataclass(eq=False)
class _Candidate:
    """A candidate read and parsed by Lexbor, not yet built into a Document:
    what choosing needs (vocabulary, shingles), the same values
    :func:`vocabulary` and :func:`~temex.site.duplicates.page_shingles` give on
    the built Document (tests/test_candidates.py)."""

    path: str
    parser: LexborHTMLParser
    encoding: str
    vocabulary: frozenset[str]
    shingles: frozenset[int]

    def build(self) -> Document:
        doc = build_document(self.parser, self.path, self.encoding)
        doc.__dict__["_vocabulary"] = self.vocabulary
        doc.__dict__["_shingles"] = self.shingles
        return doc


def _survey(parser: LexborHTMLParser, url: str, max_elements: int = DEFAULT_MAX_ELEMENTS
            ) -> tuple[frozenset[str], list[str], str | None]:
    """One walk of the Lexbor tree reading only what choosing needs, in the
    terms of ``page/dom.py``'s ``_flatten`` (element numbers in pre-order,
    own text, body): the body's :func:`vocabulary`, the words of its visible
    own texts in element order, and :func:`~temex.page.files.unusable`'s
    reason. No attribute tuples, children, depths or sizes."""
    root = parser.root
    assert root is not None
    tags: list[str] = []
    index: dict[int, int] = {}
    in_body: list[bool] = []
    ignored: list[bool] = []
    own: dict[int, list[str]] = {}
    vocab: set[str] = set()
    class_names: dict[str, tuple[str, ...]] = {}
    refresh = False
    body = -1
    body_size = 0
    n = 0
    for node in root.traverse(include_text=True, skip_empty=True):
        if node.is_text_node:
            t = node.text_content
            if t and not t.isspace():
                up = node.parent
                p = index.get(up.mem_id, -1) if up is not None else -1
                if p >= 0 and in_body[p] and not ignored[p]:
                    pieces = own.get(p)
                    if pieces is None:
                        own[p] = [t]
                    else:
                        pieces.append(t)
            continue
        if not node.is_element_node:
            continue
        if n >= max_elements:
            raise ParseError(f"{url or 'page'}: over the limit of {max_elements} elements")
        up = node.parent if n else None
        p = index.get(up.mem_id, -1) if up is not None else -1
        index[node.mem_id] = n
        tag = (node.tag or "").lower()
        tags.append(tag)
        inside = p >= 0 and in_body[p]
        if not inside and body < 0 and tag == "body":
            body, inside = n, True
        in_body.append(inside)
        ignored.append(tag in IGNORED_TAGS or (p >= 0 and ignored[p]))
        n += 1
        if inside:
            body_size += 1
            vocab.add(tag)
            a = node.attributes
            if a:
                v = a.get("id")
                v = v.strip() if v else ""
                if v:
                    vocab.add(tag + "#" + _DIGITS.sub("#", v))
                cls = a.get("class")
                if cls:
                    names = class_names.get(cls)
                    if names is None:  # each class attribute's tokens once a page
                        names = class_names[cls] = tuple({"." + _DIGITS.sub("#", c)
                                                          for c in cls.split()})
                    for c in names:
                        vocab.add(tag + c)
        elif body < 0 and tag == "meta":
            a = node.attributes
            if a and dict(sorted([(k.lower(), v or "") for k, v in a.items()
                                  if k not in ("id", "class")])).get(
                                      "http-equiv", "").lower() == "refresh":
                refresh = True
    words: list[str] = []
    body_text = ""
    for i in sorted(own):  # element order, as page_shingles() reads doc.text
        text = " ".join(" ".join(own[i]).split())
        if i == body:
            body_text = text
        words.extend(w.lower() for w in _WORD.findall(text))
    reason: str | None = None
    if body < 0:
        reason = "no page body"
    elif any(tags[i] in _FEED_TAGS for i in range(body, min(n, body + 4))):
        reason = "a feed or sitemap, not a page"
    elif body_size < 2 and not body_text:
        reason = "empty page"
    elif refresh and body_size < 10:
        reason = "redirect stub (meta refresh)"
    return frozenset(vocab), words, reason


def _survey_candidate(path: str | os.PathLike[str], timings: dict[str, float]
                      ) -> _Candidate | PageError:
    """:func:`load_candidate` without building the Document: the same errors,
    the vocabulary and shingles read from the Lexbor tree."""
    data = _read_candidate(path, timings)
    if isinstance(data, PageError):
        return data
    t1 = time.perf_counter()
    try:
        parser, encoding = lexbor_parse(data, url=str(path))
        vocab, words, reason = _survey(parser, str(path))
    except ParseError as e:
        return PageError(str(path), str(e))
    finally:
        timings["parse"] = timings.get("parse", 0.0) + time.perf_counter() - t1
    if reason:
        return PageError(str(path), reason)
    return _Candidate(str(path), parser, encoding, vocab, word_shingles(words))


class SurveyCache:
    """Candidates surveyed once for many key pages of one folder (folder
    mode maps every page with its own pool, and pools of pages of one kind
    overlap): the last ``size`` surveys by path, each holding its Lexbor
    tree (a few hundred kB), the oldest let go first. The files must not
    change while it is in use."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._held: dict[str, _Candidate | PageError] = {}

    def survey(self, path: str | os.PathLike[str], timings: dict[str, float]
               ) -> _Candidate | PageError:
        key = os.fspath(path)
        got = self._held.pop(key, None)
        if got is None:
            got = _survey_candidate(path, timings)
            if len(self._held) >= self.size:
                del self._held[next(iter(self._held))]
        self._held[key] = got  # the most recent last
        return got


def candidate_reason(f: Path, key: Document, key_file: Path, root: Path) -> str:
    """Why ``f`` was a candidate, in the order of the module rule: ``kind``
    (the key page's URL pattern), ``sibling`` (its folder), ``linked``
    (linked from it), ``folder`` (the nearest folders)."""
    key_file, f = real_path(key_file), real_path(f)
    key_page, page = page_path(key_file), page_path(f)
    if key_page.is_relative_to(root) and page.is_relative_to(root) and (
            url_pattern(str(page.relative_to(root)))
            == url_pattern(str(key_page.relative_to(root)))):
        return "kind"
    if page.parent == key_page.parent or f in _folder_index(key_file):
        return "sibling"
    if f in set(local_link_order(key, key_file, root)):
        return "linked"
    return "folder"


def choose_pages(key: Document, key_file: Path, root: Path, n: int,
                 pool_size: int | None = None, duplicate: float | None = DEFAULT_DUPLICATE,
                 kind_files: bool = False, reasons: dict[str, str] | None = None,
                 kind_gap: float | None = KIND_GAP, set_aside: dict[str, str] | None = None,
                 surveyed: SurveyCache | None = None
                 ) -> tuple[list[Document], list[PageError], dict[str, float]]:
    """Load candidate pages and keep the ``n`` best (see the module rule).

    Near-duplicates of the key page and of each other are dropped
    (:func:`temex.site.duplicates.distinct_pages`, ``duplicate=None``: kept)
    and the pool is refilled from the next files, reading at most
    ``4 × pool_size`` files; when fewer than ``n`` distinct pages remain,
    pages whose text the key page holds (its chapters when it is a print
    view, sub-listings of a listing) come back, last
    (:func:`temex.site.duplicates.distinct_indices` with ``held``). With
    ``kind_files``, the folder's files of the key page's URL kind that it
    does not link come right after the linked ones of its kind (measured
    and off by default: docs/EVALUATION.md). Of the ``n`` most similar, those
    :func:`near_best` sets aside with ``kind_gap`` are not compared (None:
    all ``n`` are); ``set_aside``, when given, is filled with their paths
    and why (:func:`set_aside_far`). ``reasons``, when given, is
    filled with each chosen page's path and why it was a candidate
    (:func:`candidate_reason`, `` (held by the key page)`` added for the
    fallback). Returns the pages, the errors met on the way and timings
    (``read``, ``parse`` seconds). ``surveyed``: candidates already read
    for another key page of the folder are not read again.
    """
    pages: list[_Candidate] = []
    errors: list[PageError] = []
    timings = {"read": 0.0, "parse": 0.0}
    if pool_size is None:
        pool_size = 2 * n + 2
    pool_size = max(pool_size, n)
    order = candidate_order(key, key_file, root, kind_files)
    cap = 4 * pool_size
    read = 0
    distinct: list[_Candidate] = []
    exhausted = False
    while not exhausted:
        want = pool_size - len(distinct)
        while want > 0 and read < cap:
            f = next(order, None)
            if f is None:
                exhausted = True
                break
            read += 1
            page = (surveyed.survey(f, timings) if surveyed is not None
                    else _survey_candidate(f, timings))
            if isinstance(page, PageError):
                errors.append(page)
            else:
                pages.append(page)
                want -= 1
        if duplicate is None:
            distinct = pages
        else:
            kept = distinct_indices(page_shingles(key), [p.shingles for p in pages], duplicate)
            distinct = [pages[k] for k in kept]
        if len(distinct) >= pool_size or read >= cap:
            break
    held: set[str] = set()
    if duplicate is not None and len(distinct) < n:
        # too few: pages whose text the key page holds come back, last
        kept = distinct_indices(page_shingles(key), [p.shingles for p in pages], duplicate,
                                held=True)
        held = {pages[k].path for k in kept} - {p.path for p in distinct}
        distinct = [pages[k] for k in kept]
    # rank_by_similarity on the vocabularies; only the chosen pages are built
    vk = vocabulary(key)
    sims = [jaccard(vk, d.vocabulary) for d in distinct]
    ranking = sorted(range(len(distinct)), key=lambda k: -sims[k])[:n]
    if kind_gap is not None:  # pages of another kind by skeleton left out
        far = set_aside_far([sims[k] for k in ranking], kind_gap)
        if set_aside is not None:
            set_aside.update({distinct[ranking[j]].path: why for j, why in far.items()})
        ranking = [k for j, k in enumerate(ranking) if j not in far]
    t0 = time.perf_counter()
    chosen = [distinct[k].build() for k in sorted(ranking)]
    timings["parse"] += time.perf_counter() - t0
    if reasons is not None:
        for d in chosen:
            why = candidate_reason(Path(d.url), key, key_file, real_path(root))
            reasons[d.url] = why + (" (held by the key page)" if d.url in held else "")
    return chosen, errors, timings
