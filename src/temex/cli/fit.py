"""``temex fit PAGES... -o site.template.json``: fit a site's template once and
save it (docs/TEMPLATE_FORMAT.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import EXIT_FAILED, EXIT_OK, load_pages

if TYPE_CHECKING:
    from ..page.dom import Document
    from ..template.saved import SavedTemplate

__all__ = ["DETECTOR_NAMES", "add_parser", "cmd_fit", "fit_saved"]

DETECTOR_NAMES = ("vote", "intersect", "rtdm", "chunks")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    fit: argparse.ArgumentParser = sub.add_parser("fit", help="fit a site template once and save it as JSON",
                         description="Fit the template of a site from some of its pages "
                                     "and save it (docs/TEMPLATE_FORMAT.md).")
    fit.add_argument("pages", nargs="+", metavar="SITE_PAGE", help="HTML files of one site")
    fit.add_argument("-o", "--output", required=True, metavar="FILE",
                     help="where to write the template (e.g. site.template.json)")
    fit.add_argument("--method", choices=DETECTOR_NAMES, default="vote",
                     help="detector (default: vote)")
    fit.add_argument("--keys", type=int, default=2,
                     help="key pages fitted and merged (default 2)")
    fit.add_argument("-n", "--n-pages", type=int, default=4,
                     help="pages compared with each key page (default 4)")
    fit.add_argument("--site", default="", help="site name stored in the template")

    fit.set_defaults(func=cmd_fit)
    return fit


def fit_saved(docs: list[Document], method: str = "vote", keys: int = 2, n_pages: int = 4,
              site: str = "") -> SavedTemplate:
    """Fit ``keys`` key pages each against its ``n_pages`` most similar other
    pages and merge them into one :class:`SavedTemplate`. Pages are first
    clustered by structure (:func:`temex.batch.grouping.cluster`); only the
    largest cluster is used (one template per file); the site index
    (:class:`temex.template.site_index.SiteIndex`) counts every page given. Cost: ``keys``
    fits."""
    from ..batch.grouping import cluster
    from ..site.pool import rank_by_similarity
    from ..template.detectors import get_detector
    from ..template.saved import SavedTemplate
    from ..template.site_index import SiteIndex

    index = SiteIndex(docs, hashed=True)  # every page: repeated text for main content
    groups = cluster(docs)
    biggest = max(groups, key=len)
    if len(groups) > 1:
        print(f"temex: pages form {len(groups)} structure clusters; fitting the largest "
              f"({len(biggest)} of {len(docs)} pages)", file=sys.stderr)
    docs = [docs[k] for k in biggest]
    models = []
    for key in docs[:max(1, keys)]:
        others = [d for d in docs if d is not key]
        pages = rank_by_similarity(key, others, n_pages)
        if pages:
            models.append(get_detector(method).fit(key, pages).model_)
    st = SavedTemplate.from_models(models, site=site)
    st.site_index = index
    return st


def cmd_fit(args: argparse.Namespace) -> int:
    docs = load_pages(args.pages)
    if len(docs) < 2:
        print("temex: fit needs at least 2 usable pages of the site", file=sys.stderr)
        return EXIT_FAILED
    saved = fit_saved(docs, args.method, args.keys, args.n_pages, args.site)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    saved.save(args.output)
    print(f"temex: template of {len(saved.keys)} key page(s), {len(saved.texts)} template "
          f"texts, {len(saved.structure)} paths -> {args.output}", file=sys.stderr)
    return EXIT_OK
