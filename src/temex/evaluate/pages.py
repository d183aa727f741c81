"""Every page of a shared site, scored: the fixed sample and the two paths.

A site's named key pages flatter an extractor (they were in view while it
was written); the every-page figures score a fixed sample of every site's
pages with gold instead: ``per_site`` pages drawn by ``random.Random(seed)``
from the sorted HTML files whose content selector matches (every such page
where a site has fewer). Two temex paths are scored on it, token F1 of the
main text against the gold text (:func:`temex.evaluate.gold_text`):

* **site level**, ``temex content SITE_DIR``: the site index of every HTML
  file under the site's web root (:func:`temex.content.folder.index_folder`,
  as the command builds it), then each page's content;
* **page alone**, ``temex.extract(html, format="content")``: no other page.

Their difference, the *lift*, is what the site evidence adds to the page
(``bench/eval/every_page.py`` prints it beside the page-level peers).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from ..content.extract import ContentParams, extract_content
from ..content.folder import index_folder, key_page_mask
from ..errors import ParseError
from ..page.dom import parse
from ..page.files import html_files, read_page
from ..page.tokens import token_prf
from ..site.pool import SurveyCache
from . import NoGoldError, Site, gold_text, load_site

__all__ = ["SiteSample", "pages_dir_scores", "site_sample", "site_scores"]


@dataclass
class SiteSample:
    """A site, every HTML file under its web root, and the sampled pages
    with their gold text."""

    site: Site
    files: list[Path]
    pages: list[tuple[Path, str]]


def site_sample(site_dir: str | Path, per_site: int = 40, seed: int = 0) -> SiteSample:
    """The fixed sample of a shared site's pages with gold (module docstring)."""
    site = load_site(site_dir)
    files = html_files(site.root)
    with_gold = []
    for f in files:
        try:
            d = parse(read_page(f), url=str(f))
            g = gold_text(d, site.content_selector, site.template_selector)
        except (OSError, ParseError, NoGoldError):
            continue
        with_gold.append((f, g))
    if len(with_gold) > per_site:
        with_gold = sorted(random.Random(seed).sample(with_gold, per_site),
                           key=lambda t: str(t[0]))
    return SiteSample(site, files, with_gold)


def site_scores(sample: SiteSample, params: ContentParams = ContentParams(),
                mapping: bool = True) -> list[tuple[str, float, float]]:
    """Per sampled page: its path under the web root, the site level's token
    F1 (``mapping``: each page's key-page fit read by the decision, as
    ``temex content`` does by default) and the page alone's."""
    index, _, _ = index_folder(sample.files, sample.site.root)
    surveyed = SurveyCache()  # as iter_folder keeps the pool's surveys
    out = []
    for f, gold in sample.pages:
        doc = parse(read_page(f), url=str(f))
        mapped = key_page_mask(doc, f, sample.site.root, surveyed) if mapping else None
        site = token_prf(extract_content(doc, index, None, params, mapped=mapped).text(),
                         gold)[2]
        # what temex.extract(html, format="content") answers, on the same parse
        alone = token_prf(extract_content(doc, params=params).text(), gold)[2]
        out.append((f.relative_to(sample.site.root).as_posix(), site, alone))
    return out


def url_scores(sample: SiteSample, k: int, params: ContentParams = ContentParams()
               ) -> list[float]:
    """Token F1 of ``temex extract URL -f content`` for the first ``k``
    sampled pages, the site's web root served on 127.0.0.1: the live path
    (the site's links explored from the page, the default options, the
    private-address rule lifted for the local server; the page-level
    fallback where no page shares its template). A page that fails scores 0."""
    from urllib.parse import quote

    from ..content.fallback import page_level_result
    from ..content.render import render
    from ..errors import TemexError
    from ..site.runner import Limits, NoTemplateFound, UrlOptions, extract_url
    from ..site.sources.localserve import serve_folder

    out = []
    root = sample.site.root
    with serve_folder(root) as base:
        for f, gold in sample.pages[:k]:
            url = base + "/" + quote(Path(f).relative_to(root).as_posix())
            try:
                opts = UrlOptions(url=url)
                try:
                    model = extract_url(opts, Limits(allow_private=True)).model
                except NoTemplateFound as e:
                    model = page_level_result(e, opts).model
                text = render(model, "content", params)
            except (TemexError, OSError, TimeoutError):
                text = ""
            out.append(token_prf(text, gold)[2])
    return out


def pages_dir_scores(sample: SiteSample, params: ContentParams = ContentParams()
                     ) -> list[float]:
    """Per sampled page, the token F1 of ``temex extract PAGE --pages-dir
    ROOT -f content``: the template fitted on the pages the offline pool rule
    (:mod:`temex.site.pool`) chooses from the site's web root, and the main
    content under its mask. A page that fails scores 0."""
    from ..api import extract_files
    from ..content.render import render
    from ..errors import TemexError

    out = []
    for f, gold in sample.pages:
        try:
            model = extract_files(f, pages_dir=sample.site.root)
            text = render(model, "content", params)
        except TemexError:
            text = ""
        out.append(token_prf(text, gold)[2])
    return out

