"""One-call extraction, used by the CLI, the web app and users.

``extract`` (one page) and ``extract_site`` (one page with other pages of its
site as evidence) return a page's main content as text, Markdown, HTML or a
JSON report in one call. ``extract_files`` loads a key page and candidate pages (given explicitly or
chosen from a folder by :mod:`temex.site.pool`), fits a detector and returns the
:class:`~temex.template.model.TemplateModel` with loads, timings and per-page errors.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from .content.extract import Content, ContentParams, extract_content
from .errors import PageError, PageLoadError, ParameterError, ParseError
from .page.dom import Document, parse
from .page.files import read_page, real_path
from .site.pool import choose_pages, load_candidate
from .template.detectors import DEFAULT_N_PAGES, ExtractOptions, get_detector
from .template.model import TemplateModel
from .template.site_index import SiteIndex

__all__ = ["DEFAULT_N_PAGES", "EXTRACT_FORMATS", "ExtractOptions", "extract", "extract_files",
           "extract_site", "fit_pages", "load_key_file"]

#: The formats of :func:`extract` and :func:`extract_site`.
EXTRACT_FORMATS = ("text", "markdown", "html", "json")


def _output(content: Content, fmt: str, front_matter: bool) -> str:
    if fmt == "text":
        return content.text()
    if fmt == "markdown":
        return content.markdown(front_matter=front_matter)
    if fmt == "html":
        return content.html()
    return json.dumps(content.report(), indent=2, ensure_ascii=False)


def _check_format(fmt: str) -> None:
    if fmt not in EXTRACT_FORMATS:
        raise ParameterError("format", f"one of {', '.join(EXTRACT_FORMATS)}", fmt)


def _params(params: ContentParams | None, comments: bool) -> ContentParams:
    params = params or ContentParams()
    return params if comments else replace(params, comments=False)


def extract(html: bytes | str, url: str | None = None, format: str = "markdown", *,
            front_matter: bool = False, params: ContentParams | None = None,
            comments: bool = True) -> str:
    """Main content of one page, with no site behind it.

    Parameters
    ----------
    html : bytes or str
        The page (bytes are decoded from the BOM, the declared charset or
        UTF-8/windows-1252).
    url : str, optional
        Where the page came from: relative links and images of the Markdown
        are resolved against it (or the page's ``<base>``).
    format : {"text", "markdown", "html", "json"}
        ``text``: one block per line; ``markdown``; ``html``: the kept
        blocks' HTML; ``json``: the report with the page's metadata.
    front_matter : bool
        Markdown only: the page's metadata as YAML front matter.
    params : ContentParams, optional
        Weights of the content extraction (defaults: the shipped ones).
    comments : bool
        False: the article alone, without comment sections and the replies
        of a thread (``ContentParams.comments``).

    Raises ParameterError for an unknown format and ParseError for input
    that is no HTML (empty, binary); a page without visible text gives an
    empty output (``json``: ``"empty": true`` and the reason).
    """
    _check_format(format)
    doc = parse(html, url=url or "")
    return _output(extract_content(doc, params=_params(params, comments)), format, front_matter)


def extract_site(html: bytes | str, pages: Iterable[bytes | str], url: str | None = None,
                 format: str = "markdown", *, front_matter: bool = False,
                 params: ContentParams | None = None, comments: bool = True) -> str:
    """Main content of one page with other pages of the same site as evidence.

    ``pages`` are the other pages' HTML (bytes or str); text blocks that
    repeat across them (menus, footers, teasers) are boilerplate
    (:class:`temex.template.site_index.SiteIndex`), on top of the page-level
    scorer. Other arguments as :func:`extract`. Other pages that cannot be
    parsed or have no body are skipped.
    """
    _check_format(format)
    doc = parse(html, url=url or "")
    others: list[Document] = []
    for p in pages:
        try:
            other = parse(p)
        except ParseError:
            continue
        if other.body >= 0:
            others.append(other)
    index = SiteIndex([doc, *others])
    return _output(extract_content(doc, index, params=_params(params, comments)), format,
                   front_matter)

def load_key_file(path: str | Path) -> Document:
    """Read and parse the key page; raises PageLoadError / ParseError with a
    one-line reason."""
    p = Path(path)
    try:
        data = read_page(p)
    except OSError as e:
        raise PageLoadError(f"{p}: cannot read ({e.strerror or e})") from None
    doc = parse(data, url=str(p))
    if doc.body < 0:
        raise ParseError(f"{p}: no page body")
    return doc


def fit_pages(key: Document, pages: Sequence[Document], options: ExtractOptions
              ) -> TemplateModel:
    """Fit the configured detector on already parsed pages."""
    det = get_detector(options.method, **options.detector_params())
    model: TemplateModel = det.fit(key, pages).model_
    model.loads = 1 + len(pages)
    return model


def extract_files(key_path: str | Path, pages: Sequence[str | Path] = (),
                  pages_dir: str | Path | None = None,
                  options: ExtractOptions | None = None) -> TemplateModel:
    """Extract the template of the key page at ``key_path``.

    Pages listed in ``pages`` are used as given (unreadable ones are reported
    in ``model.errors`` and skipped). With ``pages_dir`` (and fewer than
    ``options.n_pages`` listed pages), the rest are chosen from that folder by
    the rule of :mod:`temex.site.pool`.
    """
    options = options or ExtractOptions()
    t0 = time.perf_counter()
    key = load_key_file(key_path)
    t_key = time.perf_counter() - t0
    docs: list[Document] = []
    errors: list[PageError] = []
    tm: dict[str, float] = {"read": 0.0, "parse": 0.0}
    for p in pages:
        page = load_candidate(p, tm)
        if isinstance(page, PageError):
            errors.append(page)
        else:
            docs.append(page)
    t_parse = tm["read"] + tm["parse"]
    if pages_dir is not None and not Path(pages_dir).is_dir():
        raise PageLoadError(f"{pages_dir}: the pages folder is not a folder")
    if pages_dir is not None and len(docs) < options.n_pages:
        more, errs, chosen_tm = choose_pages(key, Path(key_path), Path(pages_dir),
                                             options.n_pages - len(docs))
        known = {real_path(d.url) for d in docs}
        docs.extend(d for d in more if real_path(d.url) not in known)
        errors.extend(errs)
        t_parse += chosen_tm["read"] + chosen_tm["parse"]
    model = fit_pages(key, docs, options)
    model.errors = [e.as_dict() for e in errors]
    model.timings = {"parse_key": t_key, "parse_pages": t_parse, **model.timings,
                     "total": time.perf_counter() - t0}
    return model
