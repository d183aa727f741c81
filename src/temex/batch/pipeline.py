"""The batch pipeline: index, group by site, fit once per template, strip all.

Steps (RTDM paper §1, §5: "the costly process of template detection is
performed over a small set of sample pages. Then, the derived template is
removed from the remaining pages"):

1. :func:`temex.batch.readers.index_inputs`: every record located as (file,
   offset), no bytes kept.
2. Group by site (:mod:`temex.batch.grouping`); sites with a done-marker are
   skipped (resume).
3. One task per site (:func:`run_site`), on the chosen engine: read and parse
   the first ``sample`` pages, cluster them by structure, fit each cluster of
   ≥ 2 pages once (``VoteDetector``: its leader as key page against up to
   ``n_pages`` most similar members; or a given saved template), save the
   :class:`~temex.template.saved.SavedTemplate`; count the sample's block texts once
   (:class:`temex.template.site_index.SiteIndex`, hashed, one per site, kept in each
   cluster's template); then stream over *all* the site's records: parse
   (the sample is not parsed again), pick the nearest cluster,
   :func:`temex.template.saved.apply` (template mask, stats), main content with
   :func:`temex.content.extract.extract_content` (site index — the page's own
   occurrence discounted only for sample pages — and
   :func:`temex.template.saved.text_mask`), content and Markdown; write rows and the
   done-marker.
   A site of more than ``chunk`` records (when more than one worker runs) is
   spread over the workers instead: one task fits it (:func:`fit_site`, the
   same fit), then tasks of ``chunk`` records each apply the fitted site
   (:func:`run_site` with ``task.fitted``) and write numbered parts that the
   driver joins in record order before writing the done-marker: the rows are
   those of one task.
4. Summary: every input record produced a row or an error row; the totals are
   printed on stderr and written to ``summary.json``.

Cost: per site O(sample fits) + O(n) per page for apply, main content and
render; every page is parsed once.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..content.extract import extract_content
from ..content.metadata import page_metadata
from ..content.params import ContentParams
from ..errors import ParseError
from ..page.dom import IGNORED_TAGS, Document, parse
from ..page.files import unusable
from ..site.pool import rank_by_similarity, vocabulary
from ..template.detectors.vote import VoteDetector
from ..template.model import TemplateModel
from ..template.saved import MatchCache, SavedTemplate, apply_with_text_mask, text_mask
from ..template.site_index import SiteIndex, page_fingerprint
from .engines import run_tasks
from .grouping import cluster, group_by_site, nearest
from .readers import Entry, RecordError, index_inputs, read_entry
from .writers import SiteWriter, is_done, mark_done, site_filename, write_jsonl_atomic

__all__ = ["BatchOptions", "SiteTask", "SiteFit", "run_site", "run_batch"]


@dataclass
class BatchOptions:
    """Knobs of a batch run (CLI flags of ``temex batch``)."""

    sample: int = 24          # pages per site read first to cluster and fit
    n_pages: int = 4          # pages compared with each cluster's key page
    cluster_threshold: float = 0.5
    min_cluster: int = 2      # smaller clusters join the nearest larger one
    output_format: str = "jsonl"
    markdown: bool = True
    template: str | None = None   # a saved template for every site (no fit)
    detector: dict[str, Any] = field(default_factory=dict)
    chunk: int = 200          # records per task of a big site spread over workers
    #: ``stats.template_nodes`` (the saved template's full mask, content-region
    #: rule included): only when asked, since nothing else of a row needs that
    #: mask (the main content uses the template *text* mask)
    template_stats: bool = False
    comments: bool = True     # --no-comments: comment threads left out of the content


@dataclass
class FittedSite:
    """What chunk tasks of a big site share (picklable, no parsed pages): each
    cluster leader's vocabulary (:func:`temex.site.pool.vocabulary`), its saved
    template, the site index of the sample."""

    vocabularies: list[frozenset[str]] | None  # None: a given template, no clusters
    saved: list[SavedTemplate | None]
    index: SiteIndex | None


@dataclass
class SiteTask:
    site: str
    entries: list[Entry]
    outdir: str
    options: BatchOptions
    part: int | None = None          # chunk number of a site spread over workers
    fitted: FittedSite | None = None  # the site's fit, for chunk tasks


def _row_url(e: Entry) -> str | None:
    """The record's URL; a local file's is its ``file:`` URL (never null)."""
    if e.url or e.kind != "file":
        return e.url
    return Path(os.path.abspath(e.path)).as_uri()  # links not followed: a loop is a page


def _row_error(e: Entry, site: str, reason: str) -> dict[str, Any]:
    return {"url": _row_url(e), "source": e.source, "site": site, "error": reason}


def _load(e: Entry):  # type: ignore[no-untyped-def]
    data, charset = read_entry(e)
    doc = parse(data, url=e.url or e.path, declared_encoding=charset)
    reason = unusable(doc)
    if reason:
        raise RecordError(reason)
    return doc


@dataclass
class SiteFit:
    """The fitted state of one site: cluster leaders, their saved templates
    (each carrying the site index), the site index of the sample pages and
    the parsed sample pages by entry position (not parsed again)."""

    leaders: list[Any]
    saved: list[SavedTemplate | None]
    index: SiteIndex | None
    parsed: dict[int, Document]


def _fit_clusters(task: SiteTask) -> SiteFit:
    """Leaders and saved templates of the site's template clusters, and the
    site index (block-text counts, :class:`temex.template.site_index.SiteIndex`) of the
    sample: one index per site, shared by its clusters (repeated text is
    specific to its template; docs/CONTENT.md)."""
    opt = task.options
    docs: list[Document] = []
    parsed: dict[int, Document] = {}
    seen: set[int] = set()
    for k, e in enumerate(task.entries):
        if len(docs) >= opt.sample:
            break
        try:
            doc = _load(e)
        except (RecordError, ParseError, OSError, ValueError, KeyError):
            continue
        parsed[k] = doc
        if doc.subtree_hash[0] in seen:  # the same page twice proves no template
            continue
        seen.add(doc.subtree_hash[0])
        docs.append(doc)
    index = SiteIndex(docs, hashed=True) if docs else None
    if opt.template:
        st = SavedTemplate.load(opt.template)
        if index is not None:  # this site's own evidence, not the template file's
            st.site_index = index
        return SiteFit([None], [st], st.site_index, parsed)
    if not docs:
        return SiteFit([], [], None, parsed)
    groups = cluster(docs, opt.cluster_threshold)
    big = [g for g in groups if len(g) >= opt.min_cluster] or [max(groups, key=len)]
    leaders = [docs[g[0]] for g in big]
    members = {id(docs[g[0]]): list(g) for g in big}
    for g in groups:  # small clusters join their nearest big cluster
        if len(g) < opt.min_cluster and g not in big:
            c, _ = nearest(leaders, docs[g[0]])
            members[id(leaders[c])].extend(g)
    saved: list[SavedTemplate | None] = []
    for lead in leaders:
        # a page showing the lead's own text (the same topic under another
        # URL) is no sample: mapped with its copy, the lead's content is
        # voted template
        own = page_fingerprint(lead)
        others = [docs[k] for k in members[id(lead)]
                  if docs[k] is not lead and page_fingerprint(docs[k]) != own]
        if not others:
            saved.append(None)
            continue
        pages = rank_by_similarity(lead, others, opt.n_pages)
        model = VoteDetector(**opt.detector).fit(lead, pages).model_
        st = SavedTemplate.from_models([model], site=task.site)
        st.site_index = index
        saved.append(st)
    return SiteFit(leaders, saved, index, parsed)


def _save_templates(task: SiteTask, saved: list[SavedTemplate | None]) -> None:
    if task.options.template:
        return
    name = site_filename(task.site)
    for k, st in enumerate(saved):
        if st is not None:
            (Path(task.outdir) / "templates").mkdir(parents=True, exist_ok=True)
            st.save(Path(task.outdir) / "templates" / f"{name}.c{k}.template.json")


def fit_site(task: SiteTask) -> FittedSite:
    """Fit one big site (as :func:`run_site` does) and save its templates; the
    result is shipped to the chunk tasks."""
    fit = _fit_clusters(task)
    _save_templates(task, fit.saved)
    vocab = ([vocabulary(d) for d in fit.leaders]
             if fit.leaders and fit.leaders[0] is not None else None)
    return FittedSite(vocab, fit.saved, fit.index)


def _nearest_vocabulary(vocabularies: list[frozenset[str]], doc: Document) -> tuple[int, float]:
    """:func:`temex.batch.grouping.nearest` on the leaders' vocabularies."""
    v = vocabulary(doc)
    best, best_s = -1, -1.0
    for c, lv in enumerate(vocabularies):
        s = len(lv & v) / len(lv | v) if lv or v else 1.0
        if s > best_s:
            best, best_s = c, s
    return best, best_s


def _body_nodes(doc: Document) -> int:
    """Elements of ``<body>`` outside script, style, noscript and template
    (``TemplateModel.counts()["body_nodes"]``): subtrees skipped by size."""
    if doc.body < 0:
        return 0
    tag, size = doc.tag, doc.size
    n = 0
    i, end = doc.body, doc.body + size[doc.body]
    while i < end:
        if tag[i] in IGNORED_TAGS:
            i += size[i]
        else:
            n += 1
            i += 1
    return n


def _max_rss_mb() -> float:
    """Peak resident memory of this (worker) process so far, MB (Linux: KB units)."""
    try:
        import resource

        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    except (ImportError, OSError):  # pragma: no cover - non-Unix
        return 0.0


def run_site(task: SiteTask) -> dict[str, Any]:
    """Strip every record of one site; write its rows, templates and done-marker.

    Returns the site's counts (``pages``, ``errors``, ``seconds``, ``clusters``).
    """
    t0 = time.perf_counter()
    out = Path(task.outdir)
    opt = task.options
    parsed: dict[int, Document] = {}
    if task.fitted is None:
        fit = _fit_clusters(task)
        saved, index, parsed = fit.saved, fit.index, fit.parsed
        _save_templates(task, saved)
        leaders = fit.leaders
        has_leaders = bool(leaders) and leaders[0] is not None
    else:  # a chunk of a big site: the fit was done once by fit_site
        saved, index = task.fitted.saved, task.fitted.index
        vocabs = task.fitted.vocabularies
        has_leaders = bool(vocabs)
    writer = SiteWriter(out, task.site, opt.output_format, part=task.part)
    jsonl = opt.output_format == "jsonl"
    caches: dict[int, MatchCache] = {}  # per saved template: signatures seen on the site
    n_ok = n_err = 0
    name = site_filename(task.site)
    ticks = _Ticks(out, name if task.part is None else f"{name}.part{task.part}")
    for k, e in enumerate(task.entries):
        ticks(k)
        try:
            doc = parsed.pop(k, None) or _load(e)
        except (RecordError, ParseError, OSError, ValueError, KeyError) as err:
            writer.add(_row_error(e, task.site, str(err) or type(err).__name__))
            n_err += 1
            continue
        if has_leaders:
            c, sim = (nearest(leaders, doc) if task.fitted is None
                      else _nearest_vocabulary(vocabs or [], doc))
        else:
            c, sim = (0, 1.0) if saved else (-1, 0.0)
        st = saved[c] if c >= 0 else None
        mask: list[bool] | None = None
        if st is None:
            tmask = None
        elif opt.template_stats:  # the full mask (stats) and its text evidence, one match
            mask, tmask = apply_with_text_mask(st, doc, caches.setdefault(c, MatchCache()))
        else:
            tmask = text_mask(st, doc, cache=caches.setdefault(c, MatchCache()))
        member = index.member(doc) if index is not None else False
        main = extract_content(doc, index, tmask, ContentParams(comments=opt.comments),
                               member=member)
        text = main.text()
        row: dict[str, Any] = {"url": _row_url(e), "source": e.source, "site": task.site,
                               "template": f"{task.site}#c{c}" if st is not None else None,
                               "content": text}
        if jsonl:  # WARC records hold the text alone
            # no byline from the template's text evidence (the same with or
            # without --template-stats)
            row["metadata"] = page_metadata(doc, tmask)
            if opt.markdown:
                row["markdown"] = main.markdown()
        stats: dict[str, Any] = {"nodes": _body_nodes(doc)}
        if opt.template_stats:
            if mask is None:
                mask = [i < doc.body for i in range(len(doc))]
            stats["template_nodes"] = TemplateModel(key=doc, template=mask, votes=[], pages=[],
                                                    method="saved",
                                                    params={}).counts()["template_nodes"]
        stats.update({"content_chars": len(text), "content_blocks": len(main.chosen),
                      "similarity": round(sim, 3), "fitted": st is not None,
                      "in_sample": member})
        row["stats"] = stats
        writer.add(row)
        n_ok += 1
    writer.close()
    ticks.done()
    result = {"pages": n_ok, "errors": n_err, "clusters": len(saved),
              "seconds": round(time.perf_counter() - t0, 3), "max_rss_mb": _max_rss_mb()}
    if task.part is None:
        mark_done(out, task.site, result)
    return result


class _Ticks:
    """Pages handled so far by a site's worker, in OUTDIR/.progress/SITE (at
    most every 0.2 s per worker process, whichever site it is on), so that the
    main process reports pages, not sites. The clock is the process's, not the
    site's: a run of many small sites would otherwise write, rename and
    delete a file for each (a third of a millisecond per file created)."""

    last = 0.0  # of this process: when a count was last written

    def __init__(self, out: Path, name: str) -> None:
        self.path = out / PROGRESS_DIR / name
        self.wrote = False

    def __call__(self, k: int) -> None:
        now = time.monotonic()
        if now - _Ticks.last >= 0.2:
            _Ticks.last = now
            try:
                self.path.parent.mkdir(exist_ok=True)
                tmp = self.path.parent / (self.path.name + ".tmp")
                tmp.write_text(str(k))
                tmp.replace(self.path)  # the reader never sees a half-written count
                self.wrote = True
            except OSError:
                pass

    def done(self) -> None:
        if self.wrote:
            self.path.unlink(missing_ok=True)


PROGRESS_DIR = ".progress"


def _poll_progress(out: Path, finished: list[int], total: int,
                   tick: Callable[[int, int], None], stop: threading.Event) -> None:
    """Call ``tick(pages handled, total)`` every 0.25 s until ``stop``."""
    while not stop.wait(0.25):
        n = finished[0]
        try:
            for f in (out / PROGRESS_DIR).iterdir():
                if f.name.endswith(".tmp"):
                    continue
                try:
                    n += int(f.read_text() or 0)
                except (OSError, ValueError):
                    continue
        except OSError:
            pass
        tick(min(n, total), total)


def _split(task: SiteTask, fitted: FittedSite) -> list[SiteTask]:
    size = max(1, task.options.chunk)
    return [SiteTask(task.site, task.entries[a:a + size], task.outdir, task.options,
                     part=k, fitted=fitted)
            for k, a in enumerate(range(0, len(task.entries), size))]


def _join_parts(out: Path, site: str, results: list[dict[str, Any]]) -> None:
    """Join a chunked site's part files in record order into the files one
    task would have written, then write its done-marker."""
    sites = out / "sites"
    name = site_filename(site)
    for suffix in (".jsonl", ".warc.gz", ".errors.jsonl"):
        files = [sites / f"{name}.part{k}{suffix}" for k in range(len(results))]
        if not any(f.exists() for f in files):
            continue
        tmp = sites / f"{name}{suffix}.part"
        with tmp.open("wb") as dst:
            for f in files:
                if f.exists():
                    dst.write(f.read_bytes())
        tmp.replace(sites / f"{name}{suffix}")
        for f in files:
            f.unlink(missing_ok=True)
    counts = {"pages": sum(r["pages"] for r in results),
              "errors": sum(r["errors"] for r in results),
              "clusters": max((r.get("clusters", 0) for r in results), default=0),
              "seconds": round(sum(r.get("seconds", 0.0) for r in results), 3),
              "max_rss_mb": max((r.get("max_rss_mb", 0.0) for r in results), default=0.0),
              "parts": len(results)}
    mark_done(out, site, counts)


def _crash_rows(task: SiteTask, exc: BaseException) -> dict[str, Any]:
    """A task that crashed still yields one error row per record."""
    reason = f"site task failed: {type(exc).__name__}: {exc}"[:500]
    rows = [_row_error(e, task.site, reason) for e in task.entries]
    part = "" if task.part is None else f".part{task.part}"
    write_jsonl_atomic(Path(task.outdir) / "sites" / f"{site_filename(task.site)}{part}.jsonl",
                       rows)
    return {"pages": 0, "errors": len(rows), "clusters": 0, "seconds": 0.0, "crashed": True}


def run_batch(inputs: list[str], outdir: str | Path, options: BatchOptions | None = None,
              engine: str = "local", workers: int | None = None,
              scheduler: str | None = None, progress: bool = True,
              tick: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Run the whole pipeline; returns the summary (also in OUTDIR/summary.json).
    ``progress`` prints a line per finished site; ``tick(records handled,
    records)`` is called as pages are stripped (from a thread, every 0.25 s)."""
    opt = options or BatchOptions()
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    entries, counts = index_inputs(inputs)
    bad = [e for e in entries if e.error and e.url is None and e.kind == "warc"]
    write_jsonl_atomic(out / "index_errors.jsonl",
                       [{"url": None, "source": e.source, "site": None, "error": e.error}
                        for e in bad])
    good = [e for e in entries if not (e.error and e.url is None and e.kind == "warc")]
    sites = group_by_site(good)
    tasks, skipped, done_pages, done_errors = [], 0, 0, 0
    for site, es in sites.items():
        marker = is_done(out, site)
        if marker is not None:
            skipped += 1
            done_pages += int(marker.get("pages", 0))
            done_errors += int(marker.get("errors", 0))
            continue
        tasks.append(SiteTask(site, es, str(out), opt))
    tasks.sort(key=lambda t: -len(t.entries))  # big sites first: better packing
    t_index = time.perf_counter() - t0
    n_pages = n_errors = 0
    peak = 0.0
    total = sum(len(t.entries) for t in tasks)
    big = [t for t in tasks if len(t.entries) > max(1, opt.chunk)] if (workers or os.cpu_count() or 1) > 1 else []
    parts: dict[str, list[dict[str, Any]]] = {}  # site -> counts of its finished chunks
    n_parts: dict[str, int] = {}
    if big:  # fit each big site once, then spread its records over the workers
        tasks = [t for t in tasks if len(t.entries) <= max(1, opt.chunk)]
        chunks: list[SiteTask] = []
        for task, res in run_tasks(fit_site, big, engine, workers, scheduler):
            if isinstance(res, BaseException):
                if progress:
                    traceback.print_exception(res, file=sys.stderr)
                chunks.append(task)  # in one piece, as without chunks
                continue
            split = _split(task, res)
            n_parts[task.site] = len(split)
            chunks.extend(split)
        tasks = chunks + tasks
    finished = [0]
    stop = threading.Event()
    poller = None
    if tick is not None:
        tick(0, total)
        poller = threading.Thread(target=_poll_progress, args=(out, finished, total, tick, stop),
                                  daemon=True)
        poller.start()
    try:
        for k, (task, res) in enumerate(run_tasks(run_site, tasks, engine, workers,
                                                  scheduler), 1):
            if isinstance(res, BaseException):
                if progress:
                    traceback.print_exception(res, file=sys.stderr)
                res = _crash_rows(task, res)
            if task.part is not None:
                parts.setdefault(task.site, []).append(res)
                if len(parts[task.site]) == n_parts[task.site]:
                    _join_parts(out, task.site, parts.pop(task.site))
            n_pages += res["pages"]
            n_errors += res["errors"]
            finished[0] = n_pages + n_errors
            peak = max(peak, float(res.get("max_rss_mb", 0.0)))
            if progress:
                el = time.perf_counter() - t0
                print(f"temex batch: [{k}/{len(tasks)} sites] {task.site}: {res['pages']} pages, "
                      f"{res['errors']} errors | {n_pages + n_errors}/{total} records, "
                      f"{(n_pages + n_errors) / el if el else 0:.1f} pages/s", file=sys.stderr)
    finally:
        stop.set()
        if poller is not None and tick is not None:
            poller.join()
            shutil.rmtree(out / PROGRESS_DIR, ignore_errors=True)
            tick(finished[0], total)
    seconds = time.perf_counter() - t0
    summary = {"records": len(entries), "pages": n_pages + done_pages,
               "errors": n_errors + done_errors + len(bad), "index_errors": len(bad),
               "ignored_non_page_warc_records": counts["ignored"],
               "sites": len(sites), "sites_skipped_done": skipped,
               "seconds": round(seconds, 3), "index_seconds": round(t_index, 3),
               "pages_per_second": round((n_pages + n_errors) / seconds, 2) if seconds else 0.0,
               "worker_peak_rss_mb": peak, "engine": engine, "options": asdict(opt)}
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    if progress:
        print(f"temex batch: finished: {summary['records']} records -> {summary['pages']} "
              f"pages stripped, {summary['errors']} errors ({len(bad)} in indexing), "
              f"{counts['ignored']} non-page WARC records ignored; {len(sites)} sites "
              f"({skipped} already done); {summary['pages_per_second']} pages/s",
              file=sys.stderr)
    return summary
