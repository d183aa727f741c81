"""Main content of every page of a local folder (offline collections).

A folder holds several pages of one site and no links are needed: the other
pages of the folder are the site-level evidence. *Fit* once per folder: parse
every page and count its block texts (:class:`temex.template.site_index.SiteIndex`, the
text-equality evidence of TeMex/ETDM without the mapping). *Apply* per page:
O(n) block scoring (:func:`temex.content.extract.extract_content`). A page that was
not in the fitted folder is applied the same way (``member=False``).

Mixed templates (big9 sites mix 2005–2017 layouts): repeated text is
template-specific, so one index over the whole folder serves every layout;
measured in docs/CONTENT.md, per-cluster indexes (:func:`temex.site.pool.similarity`)
only lose evidence. ``etdm=k`` additionally fits the ETDM vote detector of
each page against its ``k`` most similar pages of the folder (slower, see
docs/CONTENT.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ParseError
from ..page.dom import Document, parse
from ..page.files import html_files, read_page
from ..site.pool import similarity
from ..template.site_index import SiteIndex
from .extract import Content, ContentParams, extract_content

__all__ = ["FolderResult", "extract_folder", "fit_folder"]


@dataclass
class FolderResult:
    """Contents of a folder's pages, errors and timings (seconds)."""

    contents: dict[str, Content] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


def _name(f: Path, root: Path | None) -> str:
    return f.relative_to(root).as_posix() if root is not None else f.name


def fit_folder(files: list[Path], root: Path | None = None,
               progress: Callable[[str, int, int], None] | None = None
               ) -> tuple[dict[str, Document], dict[str, str], SiteIndex]:
    """Parse ``files`` and build the site index; returns documents by name,
    parse errors by name, and the index. The name is the file name, or with
    ``root`` the path relative to ``root`` (``a/index.html``). ``progress``
    is called as ``progress("parse", pages_done, pages)``."""
    docs: dict[str, Document] = {}
    errors: dict[str, str] = {}
    for k, f in enumerate(files):
        if progress is not None:
            progress("parse", k, len(files))
        name = _name(f, root)
        try:
            d = parse(read_page(f), url=str(f))
        except (OSError, ParseError) as e:
            errors[name] = str(e)
            continue
        if d.body < 0:
            errors[name] = "page has no body"
            continue
        docs[name] = d
    return docs, errors, SiteIndex(docs.values())


def extract_folder(folder: str | Path, params: ContentParams = ContentParams(),
                   etdm: int = 0, recursive: bool = False,
                   progress: Callable[[str, int, int], None] | None = None) -> FolderResult:
    """Main content of every HTML file directly in ``folder`` (sorted by name),
    or with ``recursive`` of every HTML file under it, named by its path
    relative to ``folder`` (``a/index.html``); every page read is evidence.
    ``progress(stage, done, total)`` is called per page of each stage
    (``parse``, ``extract``)."""
    root = Path(folder)
    files = html_files(root)
    if not recursive:
        files = [f for f in files if f.parent == root]
    t0 = time.perf_counter()
    docs, errors, index = fit_folder(files, root if recursive else None, progress)
    t1 = time.perf_counter()
    out = FolderResult(errors=dict(errors))
    for k, f in enumerate(files):
        if progress is not None:
            progress("extract", k, len(files))
        name = _name(f, root if recursive else None)
        d = docs.get(name)
        if d is None:
            out.contents[name] = Content(None, None, [], reason=errors[name])
            continue
        template = None
        if etdm > 0:
            template = _etdm_template(d, [o for o in docs.values() if o is not d], etdm)
        out.contents[name] = extract_content(d, index, template, params)
    if progress is not None:
        progress("extract", len(files), len(files))
    t2 = time.perf_counter()
    n = max(1, len(docs))
    out.timings = {"fit": t1 - t0, "apply": t2 - t1, "fit_per_page": (t1 - t0) / n,
                   "apply_per_page": (t2 - t1) / n}
    return out


def _etdm_template(doc: Document, others: list[Document], k: int) -> list[bool]:
    from ..template.detectors.vote import VoteDetector
    ranked = sorted(others, key=lambda o: -similarity(doc, o))[:k]
    return VoteDetector().fit(doc, ranked).model_.template
