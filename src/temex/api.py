"""One-call extraction, used by the CLI, the web app and users.

``extract`` (one page) and ``extract_site`` (one page with other pages of its
site as evidence) return a page's main content as text, Markdown, HTML or a
JSON report in one call. ``extract_files`` loads a key page and candidate pages (given explicitly or
chosen from a folder by :mod:`temex.site.pool`), fits a detector and returns the
:class:`~temex.template.model.TemplateModel` with loads, timings and per-page errors.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .content.extract import Content, ContentParams, extract_content
from .errors import PageError, PageLoadError, ParameterError, ParseError
from .page.dom import Document, parse
from .page.files import read_page, real_path
from .template.defaults import DEFAULT_N_PAGES

if TYPE_CHECKING:
    from .template.detectors import ExtractOptions
    from .template.model import TemplateModel

# The site and detector layers load on first use (extract_site, extract_files,
# fit_pages, ExtractOptions), so that extract(html) loads only what it runs.

__all__ = ["DEFAULT_N_PAGES", "EXTRACT_FORMATS", "ExtractOptions", "bare_extraction", "extract",
           "extract_files", "extract_site", "fit_pages", "load_key_file"]

log = logging.getLogger("temex")

#: The formats of :func:`extract` and :func:`extract_site` (``text`` and
#: ``txt`` are other names of ``content``: :mod:`temex.content.formats`).
EXTRACT_FORMATS = ("content", "markdown", "html", "json")


def _output(content: Content, fmt: str, front_matter: bool) -> str:
    if fmt == "content":
        return content.text(front_matter=front_matter)
    if fmt == "markdown":
        return content.markdown(front_matter=front_matter)
    if fmt == "html":
        return content.html()
    return json.dumps(content.report(), indent=2, ensure_ascii=False)


def _settings(format: str, output_format: str | None, front_matter: bool,
              with_metadata: bool | None, comments: bool, include_comments: bool | None
              ) -> tuple[str, bool, bool]:
    """(format, front_matter, comments) of temex's names and trafilatura's
    (``output_format``, ``with_metadata``, ``include_comments``: each, when
    given, in place of temex's own). An unknown format is a ParameterError."""
    from .content.formats import canonical_format

    fmt = canonical_format(output_format if output_format is not None else format)
    if fmt not in EXTRACT_FORMATS:
        raise ParameterError("format", f"one of {', '.join(EXTRACT_FORMATS)} (text and txt: "
                             "content)", output_format if output_format is not None else format)
    if with_metadata is not None:
        front_matter = bool(with_metadata)
    if include_comments is not None:
        comments = bool(include_comments)
    return fmt, front_matter, comments


def _check_html(html: object, name: str, where: str) -> bool:
    """A wrong type is the caller's mistake: TypeError, said at the entry.
    None (no page: a download that failed) is False, logged, as trafilatura
    answers it."""
    if html is None:
        log.warning("temex.%s: no page (None), returning None", where)
        return False
    if not isinstance(html, (bytes, bytearray, str)):
        raise TypeError(f"temex.{where}: {name} must be the page as bytes or str, "
                        f"not {type(html).__name__}")
    return True


def _check_url(url: object, where: str) -> None:
    if url is not None and not isinstance(url, str):
        raise TypeError(f"temex.{where}: url must be a str or None, not {type(url).__name__}")


def _parse_or_none(html: bytes | bytearray | str, url: str | None, where: str
                   ) -> Document | None:
    """The parsed page, or None (with the reason logged) for input that is
    no usable HTML: empty, binary, too large."""
    try:
        return parse(bytes(html) if isinstance(html, bytearray) else html, url=url or "")
    except ParseError as e:
        log.warning("temex.%s: no usable HTML, returning None: %s", where, e)
        return None


def _params(params: ContentParams | None, comments: bool) -> ContentParams:
    params = params or ContentParams()
    return params if comments else replace(params, comments=False)


def _page_content(html: object, url: object, params: ContentParams | None, comments: bool,
                  where: str) -> Content | None:
    """The page-level content of one page for :func:`extract` and
    :func:`bare_extraction`: their argument checks, then None (logged) for no
    page or no usable HTML."""
    _check_url(url, where)
    if not _check_html(html, "html", where):
        return None
    assert isinstance(html, (bytes, bytearray, str)) and (url is None or isinstance(url, str))
    doc = _parse_or_none(html, url, where)
    if doc is None:
        return None
    return extract_content(doc, params=_params(params, comments))


def extract(html: bytes | str | None, url: str | None = None, format: str = "markdown", *,
            front_matter: bool = False, params: ContentParams | None = None,
            comments: bool = True, output_format: str | None = None,
            with_metadata: bool | None = None, include_comments: bool | None = None
            ) -> str | None:
    """Main content of one page, with no site behind it.

    trafilatura's names are accepted too (the README maps them):
    ``extract(html, url=..., output_format="txt", with_metadata=True,
    include_comments=False)``; the default format is temex's, Markdown.

    Parameters
    ----------
    html : bytes or str
        The page (bytes are decoded from the BOM, the declared charset or
        UTF-8/windows-1252; a declared charset that does not decode the
        bytes is replaced, and the report says so).
    url : str, optional
        Where the page came from: relative links and images of the Markdown
        are resolved against it (or the page's ``<base>``).
    format : {"content", "markdown", "html", "json"}
        ``content`` (also ``text``, ``txt``): one block per line;
        ``markdown``; ``html``: the kept blocks' HTML; ``json``: the report
        with the page's metadata (also under trafilatura's key names).
    front_matter : bool
        ``content`` and ``markdown``: the page's metadata first, as YAML
        front matter.
    params : ContentParams, optional
        Weights of the content extraction (defaults: the shipped ones).
    comments : bool
        False: the article alone, without comment sections and the replies
        of a thread (``ContentParams.comments``).
    output_format, with_metadata, include_comments
        trafilatura's names of ``format``, ``front_matter`` and
        ``comments``; when given, they are used in their place.

    Returns
    -------
    str or None
        The content; None for no page (``None``) or input that is no usable
        HTML (empty, blank, binary, over the size cap), the reason logged on
        the ``temex`` logger (as trafilatura does). A page without visible text gives an
        empty output (``json``: ``"empty": true`` and the reason).

    Raises TypeError for a wrong type (``html`` not bytes or str, ``url``
    not a str) and ParameterError for an unknown format.
    """
    fmt, front_matter, comments = _settings(format, output_format, front_matter, with_metadata,
                                            comments, include_comments)
    content = _page_content(html, url, params, comments, "extract")
    return None if content is None else _output(content, fmt, front_matter)


def bare_extraction(html: bytes | str | None, url: str | None = None, *,
                    params: ContentParams | None = None, comments: bool = True,
                    include_comments: bool | None = None) -> dict[str, object] | None:
    """Main content and metadata of one page as a dict, as trafilatura's
    ``bare_extraction`` gives them: its metadata keys (``title``,
    ``author``, ``date``, ``hostname``, ``sitename``, ``description``,
    ``categories``, ``tags``, ``image``, ``language``, ``license``,
    ``fingerprint``: :func:`temex.content.metadata.trafilatura_fields`),
    ``url``, ``text`` (one block per line) and ``markdown``. None, logged,
    for no page or input that is no usable HTML, as :func:`extract`."""
    from .content.metadata import trafilatura_fields

    _, _, comments = _settings("content", None, False, None, comments, include_comments)
    content = _page_content(html, url, params, comments, "bare_extraction")
    if content is None:
        return None
    text = content.text()
    return {**trafilatura_fields(content.metadata(), url or "", text), "url": url,
            "text": text, "markdown": content.markdown()}


def extract_site(html: bytes | str | None, pages: Iterable[bytes | str], url: str | None = None,
                 format: str = "markdown", *, front_matter: bool = False,
                 params: ContentParams | None = None, comments: bool = True,
                 output_format: str | None = None, with_metadata: bool | None = None,
                 include_comments: bool | None = None, mapping: bool = True) -> str | None:
    """Main content of one page with other pages of the same site as evidence.

    ``pages`` are the other pages' HTML (bytes or str); text blocks that
    repeat across them (menus, footers, teasers) are boilerplate
    (:class:`temex.template.site_index.SiteIndex`), on top of the page-level
    scorer. ``mapping``: the page is also mapped with its most similar
    ``pages`` and the site decision reads that template mask, as ``temex
    content`` does (:func:`temex.content.folder.similar_pages_mask`; False:
    the text counts alone, cheaper). Other arguments, the return value
    (None for a key page that is no usable HTML) and errors as
    :func:`extract`; ``pages`` that is not an
    iterable of bytes or str is a TypeError. Other pages that cannot be
    parsed or have no body are skipped.
    """
    fmt, front_matter, comments = _settings(format, output_format, front_matter, with_metadata,
                                            comments, include_comments)
    usable = _check_html(html, "html", "extract_site")
    _check_url(url, "extract_site")
    if isinstance(pages, (str, bytes, bytearray)) or not isinstance(pages, Iterable):
        raise TypeError("temex.extract_site: pages must be an iterable of pages (bytes or "
                        f"str), not {type(pages).__name__}")
    pages = list(pages)
    for p in pages:
        if p is None or not _check_html(p, "every item of pages", "extract_site"):
            raise TypeError("temex.extract_site: every item of pages must be the page as "
                            "bytes or str, not None")
    if not usable:
        return None
    assert html is not None
    doc = _parse_or_none(html, url, "extract_site")
    if doc is None:
        return None
    others: list[Document] = []
    for p in pages:
        try:
            other = parse(bytes(p) if isinstance(p, bytearray) else p)
        except ParseError:
            continue
        if other.body >= 0:
            others.append(other)
    from .template.site_index import SiteIndex

    index = SiteIndex([doc, *others])
    mapped = None
    if mapping and others:
        from .content.folder import similar_pages_mask

        mapped = similar_pages_mask(doc, others)
    return _output(extract_content(doc, index, params=_params(params, comments), mapped=mapped),
                   fmt, front_matter)

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


def follow_key_stubs(key: Document, key_path: Path, root: Path | None
                     ) -> tuple[Document, Path, list[str]]:
    """A key file that is a meta-refresh redirect stub, followed as
    exploration follows one (:func:`temex.site.loading.load_key`): to the
    file its relative target names (a folder's ``index.html``), inside
    ``root`` (the pages folder; else the key file's folder), at most
    :data:`~temex.page.files.MAX_REFRESH_HOPS` stubs, never one twice. Returns the page, its
    path and the stubs passed; raises PageLoadError with a one-line reason
    when a stub's target cannot be had."""
    from urllib.parse import unquote, urlsplit

    from .page.files import MAX_REFRESH_HOPS, stub_href, unusable

    top = real_path(root if root is not None else key_path.parent)
    passed: list[str] = []
    while True:
        href = stub_href(key, unusable(key))
        if href is None:
            return key, key_path, passed
        target = urlsplit(href)
        where = f"{passed[0] if passed else key_path}: its meta refresh to {href}"
        if target.scheme or target.netloc:
            raise PageLoadError(f"{where}: not a file of the pages folder")
        path = key_path.parent / unquote(target.path) if target.path else key_path
        if path.is_dir():
            path = path / "index.html"
        if not real_path(path).is_relative_to(top):
            raise PageLoadError(f"{where}: outside {top}")
        passed.append(str(key_path))
        if real_path(path) in {real_path(Path(p)) for p in passed}:
            raise PageLoadError(f"{passed[0]}: meta-refresh redirect loop back to {path}")
        if len(passed) > MAX_REFRESH_HOPS:
            raise PageLoadError(f"{passed[0]}: more than {MAX_REFRESH_HOPS} meta-refresh "
                                "redirects")
        key, key_path = load_key_file(path), path


def fit_pages(key: Document, pages: Sequence[Document], options: ExtractOptions
              ) -> TemplateModel:
    """Fit the configured detector on already parsed pages."""
    from .template.detectors import get_detector

    det = get_detector(options.method, **options.detector_params())
    model: TemplateModel = det.fit(key, pages).model_
    model.loads = 1 + len(pages)
    return model


def extract_files(key_path: str | Path, pages: Sequence[str | Path] = (),
                  pages_dir: str | Path | None = None,
                  options: ExtractOptions | None = None,
                  follow_stubs: bool = True) -> TemplateModel:
    """Extract the template of the key page at ``key_path``.

    Pages listed in ``pages`` are used as given (unreadable ones are reported
    in ``model.errors`` and skipped). With ``pages_dir`` (and fewer than
    ``options.n_pages`` listed pages), the rest are chosen from that folder by
    the rule of :mod:`temex.site.pool`. A key file that is a meta-refresh
    redirect stub is followed to the file it names (:func:`follow_key_stubs`;
    ``follow_stubs=False``: used as it is, as for a page read from stdin,
    whose relative target names no known file).
    """
    from .site.pool import choose_pages, load_candidate
    from .template.detectors import ExtractOptions

    options = options or ExtractOptions()
    t0 = time.perf_counter()
    key = load_key_file(key_path)
    stubs: list[str] = []
    if follow_stubs:
        key, key_path, stubs = follow_key_stubs(
            key, Path(key_path), Path(pages_dir) if pages_dir is not None else None)
    t_key = time.perf_counter() - t0
    docs: list[Document] = []
    errors: list[PageError] = []
    reasons: dict[str, str] = {}
    set_aside: dict[str, str] = {}
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
                                             options.n_pages - len(docs), reasons=reasons,
                                             set_aside=set_aside)
        known = {real_path(d.url) for d in docs}
        docs.extend(d for d in more if real_path(d.url) not in known)
        errors.extend(errs)
        t_parse += chosen_tm["read"] + chosen_tm["parse"]
    model = fit_pages(key, docs, options)
    if not docs:
        from .content.fallback import page_level_fallback

        where = f"in {pages_dir}" if pages_dir is not None else "given"
        page_level_fallback(model, f"no usable page {where} to compare with "
                                   f"({len(errors)} skipped)" if errors else
                            f"no other page {where} to compare with")
    model.errors = [e.as_dict() for e in errors]
    if stubs:  # the key file was a meta-refresh stub: the page it sends to was used
        model.extra["redirect_stubs"] = stubs
    model.extra["candidates"] = [{"page": d.url, "why": reasons.get(d.url, "given")}
                                 for d in docs]
    if set_aside:  # found, not compared: pages of another kind (pool.near_best)
        model.extra["set_aside"] = [{"page": p, "why": why} for p, why in set_aside.items()]
    model.timings = {"parse_key": t_key, "parse_pages": t_parse, **model.timings,
                     "total": time.perf_counter() - t0}
    return model


def __getattr__(name: str) -> object:
    # ExtractOptions, a public name of this module, lives with the detectors
    if name == "ExtractOptions":
        from .template.detectors import ExtractOptions

        return ExtractOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
