"""``temex fit PAGES... -o site.template.json``: fit a site's template once and
save it (docs/TEMPLATE_FORMAT.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .common import (
    EXIT_FAILED,
    EXIT_OK,
    add_force_argument,
    is_stdio,
    load_page,
    positive_int,
    refuse_existing,
    say,
    write_output,
)

if TYPE_CHECKING:
    from ..page.dom import Document
    from ..template.saved import SavedTemplate
    from ..template.site_index import SiteIndex

__all__ = ["DETECTOR_NAMES", "add_parser", "cmd_fit", "fit_files", "fit_saved"]

DETECTOR_NAMES = ("vote", "intersect", "rtdm", "chunks")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    fit: argparse.ArgumentParser = sub.add_parser("fit", help="fit a site template once and save it as JSON",
                         description="Fit the template of a site from some of its pages "
                                     "and save it (docs/TEMPLATE_FORMAT.md).")
    fit.add_argument("pages", nargs="+", metavar="SITE_PAGE",
                     help="HTML files of one site (- : one read from stdin)")
    fit.add_argument("-o", "--output", required=True, metavar="FILE",
                     help="where to write the template (e.g. site.template.json; - : stdout)")
    add_force_argument(fit)
    fit.add_argument("--method", choices=DETECTOR_NAMES, default="vote",
                     help="detector (default: vote)")
    fit.add_argument("--keys", type=positive_int, default=2,
                     help="key pages fitted and merged (default 2)")
    fit.add_argument("-n", "--n-pages", type=positive_int, default=4,
                     help="pages compared with each key page (default 4)")
    fit.add_argument("--site", default="", help="site name stored in the template")
    fit.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on stderr")

    fit.set_defaults(func=cmd_fit)
    return fit


def fit_saved(docs: list[Document], method: str = "vote", keys: int = 2, n_pages: int = 4,
              site: str = "", progress: Callable[[int, int], None] | None = None
              ) -> SavedTemplate:
    """Fit ``keys`` key pages each against its ``n_pages`` most similar other
    pages and merge them into one :class:`SavedTemplate`. Pages are first
    clustered by structure (:func:`temex.batch.grouping.cluster`); only the
    largest cluster is used (one template per file); the site index
    (:class:`temex.template.site_index.SiteIndex`) counts every page given. Cost: ``keys``
    fits."""
    from ..site.pool import vocabulary
    from ..template.site_index import SiteIndex

    index = SiteIndex(docs, hashed=True)  # every page: repeated text for main content
    return _fit_sample(index, [vocabulary(d) for d in docs], docs.__getitem__, method, keys,
                       n_pages, site, progress)


def fit_files(paths: list[str], method: str = "vote", keys: int = 2, n_pages: int = 4,
              site: str = "", read: Callable[[int, int], None] | None = None,
              progress: Callable[[int, int], None] | None = None) -> SavedTemplate | None:
    """:func:`fit_saved` of the page files ``paths`` (``-``: stdin), one page
    in memory at a time: each is read, counted into the site index and let
    go, its ``tag.class`` vocabulary kept (the clusters and each key's most
    similar pages are chosen from those); the key pages and the pages they
    are compared with are read again to fit. A page that cannot be used is
    said on stderr and skipped; None when fewer than 2 are usable.
    ``read(done, total)`` is called per file read."""
    from ..site.pool import vocabulary
    from ..template.site_index import SiteIndex

    index = SiteIndex(hashed=True)
    usable: list[str] = []
    vocabs: list[frozenset[str]] = []
    stdin: Document | None = None  # read once: it cannot be read again
    for k, path in enumerate(paths):
        doc = load_page(path)
        if read is not None:
            read(k + 1, len(paths))
        if doc is None:
            continue
        index.add(doc)
        vocabs.append(vocabulary(doc))
        usable.append(path)
        if is_stdio(path):
            stdin = doc
    if len(usable) < 2:
        return None

    def again(k: int) -> Document:
        if is_stdio(usable[k]) and stdin is not None:
            return stdin
        doc = load_page(usable[k])
        if doc is None:  # changed since it was read: said by load_page
            raise _Gone(usable[k])
        return doc

    return _fit_sample(index, vocabs, again, method, keys, n_pages, site, progress)


class _Gone(Exception):
    """A page that was usable when first read and is not when read again."""


def _fit_sample(index: SiteIndex, vocabs: list[frozenset[str]], page: Callable[[int], Document],
                method: str, keys: int, n_pages: int, site: str,
                progress: Callable[[int, int], None] | None) -> SavedTemplate:
    """The fit of :func:`fit_saved` from the pages' vocabularies, ``page(k)``
    giving page ``k`` when it is compared."""
    from ..batch.grouping import cluster_vocabularies
    from ..site.pool import most_similar
    from ..template.detectors import get_detector
    from ..template.saved import SavedTemplate

    groups = cluster_vocabularies(vocabs)
    biggest = max(groups, key=len)
    if len(groups) > 1:
        say(f"pages form {len(groups)} structure clusters; fitting the largest "
            f"({len(biggest)} of {len(vocabs)} pages)")
    models = []
    chosen = biggest[:max(1, keys)]
    for k, key in enumerate(chosen):
        if progress is not None:
            progress(k, len(chosen))
        others = [m for m in biggest if m != key]
        try:
            pages = [page(others[j])
                     for j in most_similar(vocabs[key], [vocabs[m] for m in others], n_pages)]
            doc = page(key)
        except _Gone:
            continue
        if pages:
            models.append(get_detector(method).fit(doc, pages).model_)
        del pages, doc  # a model keeps its key page, not the pages compared
    st = SavedTemplate.from_models(models, site=site)
    st.site_index = index
    return st


def cmd_fit(args: argparse.Namespace) -> int:
    from .progress import Progress

    refuse_existing(args.output, args.force)

    with Progress(len(args.pages), "fit", "pages", quiet=args.quiet) as bar:
        bar.stage("read", len(args.pages))

        def tick(k: int, n: int) -> None:
            if k == 0:
                bar.stage("fit key pages", n)
            bar.update(k)

        saved = fit_files(args.pages, args.method, args.keys, args.n_pages, args.site,
                          lambda k, n: bar.update(k), tick)
    if saved is None:
        say("needs at least 2 usable pages of the site")
        return EXIT_FAILED
    if is_stdio(args.output):
        sys.stdout.write(json.dumps(saved.to_dict(), ensure_ascii=False, indent=1) + "\n")
    else:
        write_output(json.dumps(saved.to_dict(), ensure_ascii=False, indent=1) + "\n",
                     args.output, args.force)
    if args.quiet:
        return EXIT_OK
    say(f"template of {len(saved.keys)} key page(s), {len(saved.texts)} template "
        f"texts, {len(saved.structure)} paths -> "
        f"{'stdout' if is_stdio(args.output) else args.output}")
    return EXIT_OK
