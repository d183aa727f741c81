"""Main content of every page of a local folder (offline collections).

A folder holds several pages of one site and no links are needed: the other
pages of the folder are the site-level evidence. *Fit* once per folder: parse
every page and count its block texts (:class:`temex.template.site_index.SiteIndex`, the
text-equality evidence of TeMex/ETDM without the mapping). *Apply* per page:
O(n) block scoring (:func:`temex.content.extract.extract_content`). A page that was
not in the fitted folder is applied the same way (``member=False``).

Two passes, one page in memory at a time (:func:`iter_folder`): the index
keeps only the block texts' counts, and each page is parsed again when its
content is taken and let go once it is given out. Holding every parsed page
for the second pass cost about 0.6 MB a page (1.9 GB for a folder of 3,300
pages); parsing twice costs one Lexbor parse more a page
(docs/journal/2026-11-22-content-folder-mode.md). ``etdm`` keeps the pages:
each is compared with its most similar pages of the folder.

The site decision reads one more verdict per page (``mapping``, on by
default): the page mapped with the pages of the folder that the offline
pool rule chooses for it (:func:`key_page_mask`, what ``temex extract PAGE
--pages-dir DIR`` fits), which costs reading those few pages again and one
mapping per page (docs/CONTENT.md, "Folder mode").

Mixed templates (big9 sites mix 2005–2017 layouts): repeated text is
template-specific, so one index over the whole folder serves every layout;
measured in docs/CONTENT.md, per-cluster indexes (:func:`temex.site.pool.similarity`)
only lose evidence. ``etdm=k`` additionally fits the ETDM vote detector of
each page against its ``k`` most similar pages of the folder (slower, see
docs/CONTENT.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ParseError, TemexError
from ..page.dom import Document, parse
from ..page.files import html_files, read_page
from ..site.pool import SurveyCache, similarity
from ..template.site_index import SiteIndex
from .extract import Content, ContentParams, extract_content

__all__ = ["FolderResult", "extract_folder", "index_folder", "iter_folder", "key_page_mask",
           "similar_pages_mask"]

Progress = Callable[[str, int, int], None]


@dataclass
class FolderResult:
    """Contents of a folder's pages, errors and timings (seconds)."""

    contents: dict[str, Content] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


def _name(f: Path, root: Path | None) -> str:
    return f.relative_to(root).as_posix() if root is not None else f.name


def _read(f: Path) -> Document | str:
    """The parsed page, or why it cannot be had (one line)."""
    try:
        d = parse(read_page(f), url=str(f))
    except (OSError, ParseError) as e:
        return str(e)
    return d if d.body >= 0 else "page has no body"


def index_folder(files: list[Path], root: Path | None = None,
                 progress: Progress | None = None, keep: bool = False
                 ) -> tuple[SiteIndex, dict[str, str], dict[str, Document]]:
    """The site index of ``files`` (pass 1), the parse errors by name and,
    with ``keep``, the parsed pages by name (else none is kept). The name is
    the file name, or with ``root`` the path relative to ``root``
    (``a/index.html``). ``progress`` is called as ``progress("parse",
    pages_done, pages)``."""
    index = SiteIndex()
    errors: dict[str, str] = {}
    docs: dict[str, Document] = {}
    for k, f in enumerate(files):
        if progress is not None:
            progress("parse", k, len(files))
        name = _name(f, root)
        d = _read(f)
        if isinstance(d, str):
            errors[name] = d
            continue
        index.add(d)
        if keep:
            docs[name] = d
    return index, errors, docs


def key_page_mask(doc: Document, path: Path, root: Path,
                  surveyed: SurveyCache | None = None) -> list[bool] | None:
    """The template mask of ``doc`` (read from ``path``) mapped with the
    pages under ``root`` that the offline pool rule chooses for it
    (:func:`temex.site.pool.choose_pages`, the default detector: the fit of
    ``temex extract PATH --pages-dir ROOT``); None where no page serves or
    the fit fails. ``surveyed`` keeps the candidates read for the folder's
    other pages. O(pool pages read + mapping)."""
    from ..site.pool import choose_pages
    from ..template.detectors import ExtractOptions

    try:
        pages, _, _ = choose_pages(doc, path, root, ExtractOptions().n_pages,
                                   surveyed=surveyed)
    except TemexError:
        return None
    return _default_fit(doc, pages)


def similar_pages_mask(doc: Document, others: list[Document]) -> list[bool] | None:
    """The same fit where the pages are given, not a folder to walk (a
    content set's site folder): ``doc`` mapped with its ``n_pages`` most
    similar ``others`` (:func:`temex.site.pool.similarity`)."""
    from ..template.detectors import ExtractOptions

    ranked = sorted(others, key=lambda o: -similarity(doc, o))[:ExtractOptions().n_pages]
    return _default_fit(doc, ranked)


def _default_fit(doc: Document, pages: list[Document]) -> list[bool] | None:
    """The template mask of ``doc`` fitted on ``pages`` by the default
    detector (``ExtractOptions()``); None without pages or when it fails."""
    from ..template.detectors import ExtractOptions, get_detector

    if not pages:
        return None
    options = ExtractOptions()
    try:
        detector = get_detector(options.method, **options.detector_params())
        return list(detector.fit(doc, pages).model_.template)
    except TemexError:
        return None


def iter_folder(folder: str | Path, params: ContentParams = ContentParams(),
                etdm: int = 0, recursive: bool = False,
                progress: Progress | None = None,
                timings: dict[str, float] | None = None,
                errors: dict[str, str] | None = None,
                mapping: bool = True) -> Iterator[tuple[str, Content]]:
    """``(name, Content)`` of every HTML file directly in ``folder`` (sorted
    by name), or with ``recursive`` of every HTML file under it, named by its
    path relative to ``folder`` (``a/index.html``), one at a time; every
    page read is evidence. A page that cannot be read or parsed gives an
    empty :class:`Content` whose ``reason`` says why, and is listed in
    ``errors`` (when given). ``timings`` (when given) receives ``fit`` and
    ``apply`` seconds and their per-page shares once the last page is given.
    ``progress(stage, done, total)`` is called per page of each stage
    (``parse``, ``extract``). ``mapping``: the site decision also reads
    each page's :func:`key_page_mask` (False: the text counts alone,
    several times faster)."""
    root = Path(folder)
    files = html_files(root)
    if not recursive:
        files = [f for f in files if f.parent == root]
    base = root if recursive else None
    t0 = time.perf_counter()
    index, failed, docs = index_folder(files, base, progress, keep=etdm > 0)
    t1 = time.perf_counter()
    apply_s = 0.0
    surveyed = SurveyCache()
    for k, f in enumerate(files):
        if progress is not None:
            progress("extract", k, len(files))
        t = time.perf_counter()
        name = _name(f, base)
        d = docs.get(name)
        if d is None and name not in failed:
            # parsed again: the first pass kept only the counts
            again = _read(f)
            if isinstance(again, str):  # changed or went away since pass 1
                failed[name] = again
            else:
                d = again
        if d is None:
            if errors is not None:
                errors[name] = failed[name]
            c = Content(None, None, [], reason=failed[name])
        else:
            template = None
            if etdm > 0:
                template = _etdm_template(d, [o for o in docs.values() if o is not d], etdm)
            mapped = (key_page_mask(d, f, root, surveyed) if mapping and template is None
                      and params.site_decision else None)
            c = extract_content(d, index, template, params, mapped=mapped)
        apply_s += time.perf_counter() - t
        yield name, c
    if progress is not None:
        progress("extract", len(files), len(files))
    if timings is not None:
        n = max(1, len(files) - len(failed))
        timings.update({"fit": t1 - t0, "apply": apply_s, "fit_per_page": (t1 - t0) / n,
                        "apply_per_page": apply_s / n})


def extract_folder(folder: str | Path, params: ContentParams = ContentParams(),
                   etdm: int = 0, recursive: bool = False,
                   progress: Progress | None = None, mapping: bool = True) -> FolderResult:
    """Every page of :func:`iter_folder` at once (each page held in memory
    with its content: for large folders iterate instead)."""
    out = FolderResult()
    for name, c in iter_folder(folder, params, etdm, recursive, progress, out.timings,
                               out.errors, mapping):
        out.contents[name] = c
    return out


def _etdm_template(doc: Document, others: list[Document], k: int) -> list[bool]:
    from ..template.detectors.vote import VoteDetector
    ranked = sorted(others, key=lambda o: -similarity(doc, o))[:k]
    return VoteDetector().fit(doc, ranked).model_.template
