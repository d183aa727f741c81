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


def fit_folder(files: list[Path]) -> tuple[dict[str, Document], dict[str, str], SiteIndex]:
    """Parse ``files`` and build the site index; returns documents by file name,
    parse errors by file name, and the index."""
    docs: dict[str, Document] = {}
    errors: dict[str, str] = {}
    for f in files:
        try:
            d = parse(read_page(f), url=str(f))
        except (OSError, ParseError) as e:
            errors[f.name] = str(e)
            continue
        if d.body < 0:
            errors[f.name] = "page has no body"
            continue
        docs[f.name] = d
    return docs, errors, SiteIndex(docs.values())


def extract_folder(folder: str | Path, params: ContentParams = ContentParams(),
                   etdm: int = 0) -> FolderResult:
    """Main content of every HTML file directly in ``folder`` (sorted by name)."""
    files = [f for f in html_files(Path(folder)) if f.parent == Path(folder)]
    t0 = time.perf_counter()
    docs, errors, index = fit_folder(files)
    t1 = time.perf_counter()
    out = FolderResult(errors=dict(errors))
    for f in files:
        d = docs.get(f.name)
        if d is None:
            out.contents[f.name] = Content(None, None, [], reason=errors[f.name])
            continue
        template = None
        if etdm > 0:
            template = _etdm_template(d, [o for o in docs.values() if o is not d], etdm)
        out.contents[f.name] = extract_content(d, index, template, params)
    t2 = time.perf_counter()
    n = max(1, len(docs))
    out.timings = {"fit": t1 - t0, "apply": t2 - t1, "fit_per_page": (t1 - t0) / n,
                   "apply_per_page": (t2 - t1) / n}
    return out


def _etdm_template(doc: Document, others: list[Document], k: int) -> list[bool]:
    from ..template.detectors.vote import VoteDetector
    ranked = sorted(others, key=lambda o: -similarity(doc, o))[:k]
    return VoteDetector().fit(doc, ranked).model_.template
