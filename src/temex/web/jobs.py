"""Extraction jobs: one URL in, a TemplateModel plus what the exploration saw out.

:func:`extract_url` is the library call shared by ``temex extract URL`` and
``temex serve``: it builds a page source (:class:`temex.sources.http.HttpSource`
or, with ``render=True``, :class:`temex.web.browser.BrowserSource`), runs
:func:`temex.explore.explore_async` (complete-subdigraph search) under the
caps of :class:`temex.web.security.Limits` and fits the configured detector.

:class:`JobManager` runs such extractions for the web app, one thread (with its
own event loop) per job, records progress events, keeps finished jobs for a
while and renders their outputs.
"""

from __future__ import annotations

import asyncio
import importlib.util
import itertools
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..api import ExtractOptions
from ..detectors import get_detector
from ..errors import PageLoadError, TemexError
from ..equality import DEFAULT_EQUALITY
from ..explore import DEFAULT_N
from ..model import TemplateModel
from ..render import FORMATS, render, report
from .security import JobSlots, Limits, check_url

__all__ = [
    "OUTPUTS",
    "Job",
    "JobManager",
    "NoTemplateFound",
    "UrlOptions",
    "UrlResult",
    "explore_available",
    "extract_url",
    "extract_url_async",
    "output",
]

#: Downloadable outputs: name -> (render format or special, media type, file name).
OUTPUTS: dict[str, tuple[str, str]] = {
    "template": ("text/html; charset=utf-8", "template.html"),
    "annotated": ("text/html; charset=utf-8", "annotated.html"),
    "content": ("text/plain; charset=utf-8", "content.txt"),
    "markdown": ("text/markdown; charset=utf-8", "content.md"),
    "html": ("text/html; charset=utf-8", "content.html"),
    "json": ("application/json", "report.json"),
}
OUTPUTS["saved"] = ("application/json", "template.temex.json")

ProgressFn = Callable[[dict[str, Any]], None]


class NoTemplateFound(PageLoadError):
    """The key page loaded but no page sharing its template was found."""


def explore_available() -> bool:
    return importlib.util.find_spec("temex.explore") is not None


@dataclass
class UrlOptions:
    """Options of a URL extraction (the page's form, the API body, CLI flags)."""

    url: str
    n: int = DEFAULT_N         #: CS size sought (pages compared with the key page)
    max_loads: int = 10        #: pages requested, key page included
    method: str = "vote"
    equality: str = DEFAULT_EQUALITY
    threshold: float = 0.5
    render: bool = False       #: load pages through headless Chromium
    order: str = "menu"
    same_host: bool = False

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> UrlOptions:
        """Build from an API body; raises ValueError with a readable message."""
        if not isinstance(body, dict):
            raise ValueError("the body must be a JSON object")  # noqa: TRY004
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(body) - known)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        if not isinstance(body.get("url"), str):
            raise ValueError("'url' (a string) is required")  # noqa: TRY004
        o = cls(url=body["url"])
        for name in ("n", "max_loads"):
            if name in body:
                v = body[name]
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ValueError(f"'{name}' must be an integer")
                setattr(o, name, v)
        for name, allowed in (("method", ("vote", "intersect")),
                              ("order", ("menu", "paper", "document"))):
            if name in body:
                if body[name] not in allowed:
                    raise ValueError(f"'{name}' must be one of {', '.join(allowed)}")
                setattr(o, name, body[name])
        if "equality" in body:
            from ..equality import EQUALITIES
            if body["equality"] not in EQUALITIES:
                raise ValueError(f"'equality' must be one of {', '.join(sorted(EQUALITIES))}")
            o.equality = body["equality"]
        if "threshold" in body:
            t = body["threshold"]
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= 1:
                raise ValueError("'threshold' must be a number in (0, 1]")
            o.threshold = float(t)
        for name in ("render", "same_host"):
            if name in body:
                if not isinstance(body[name], bool):
                    raise ValueError(f"'{name}' must be true or false")
                setattr(o, name, body[name])
        return o

    def capped(self, limits: Limits) -> UrlOptions:
        """Check ranges and apply the server's caps (raises ValueError)."""
        if self.n < 1:
            raise ValueError("'n' must be at least 1")
        if self.max_loads < 2:
            raise ValueError("'max_loads' must be at least 2")
        o = UrlOptions(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        o.n = min(self.n, limits.max_n)
        o.max_loads = min(self.max_loads, limits.max_loads)
        return o

    def extract_options(self) -> ExtractOptions:
        return ExtractOptions(method=self.method, equality=self.equality,
                              threshold=self.threshold, n_pages=self.n)

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class UrlResult:
    """A model and the exploration that produced it."""

    model: TemplateModel
    exploration: Any  # temex.explore.Exploration
    options: UrlOptions

    def graph(self) -> dict[str, Any]:
        """Nodes and edges of the explored link graph (for the picture)."""
        ex = self.exploration
        cs = list(ex.cs)
        loaded = [u for u in ex.explored if any(u in e for e in ex.edges)]
        nodes = [{"id": "key", "url": ex.key.url, "role": "key"}]
        ids: dict[str, str] = {}
        for i, u in enumerate(dict.fromkeys(cs + loaded)):
            ids[u] = f"p{i}"
            nodes.append({"id": f"p{i}", "url": u, "role": "cs" if u in cs else "explored"})
        edges = set(ex.edges)
        mutual = [[ids[a], ids[b]] for a, b in ex.mutual_edges() if a in ids and b in ids]
        one_way = [[ids[a], ids[b]] for a, b in sorted(edges)
                   if a in ids and b in ids and (b, a) not in edges]
        # The key page links to every CS page (they were found among its links).
        key_edges = [["key", ids[u]] for u in cs]
        return {"nodes": nodes, "mutual": mutual, "one_way": one_way, "key_edges": key_edges}

    def summary(self) -> dict[str, Any]:
        m, ex = self.model, self.exploration
        return {
            "url": self.options.url,
            "key_url": ex.key.url,
            "title": _title(m),
            "pages": list(ex.cs),
            "complete": ex.complete,
            "loads": ex.loads,
            "requests": ex.requests,
            "counts": m.counts(),
            "timings": {k: round(v, 4) for k, v in m.timings.items()},
            "errors": m.errors,
            "options": self.options.as_dict(),
            "graph": self.graph(),
            "outputs": list(OUTPUTS),
        }


def _title(m: TemplateModel) -> str:
    k = m.key
    for i in range(len(k)):
        if k.tag[i] == "title":
            el = k.elements[i]
            return (el.text() or "").strip()[:200]
    return ""


def make_source(opts: UrlOptions, limits: Limits) -> Any:
    """The page source for a job: HTTP, or Chromium with ``render``."""
    if opts.render:
        from .browser import BrowserSource
        return BrowserSource(timeout=limits.page_timeout, max_bytes=limits.max_bytes,
                             allow_private=limits.allow_private,
                             guard_allow=limits.guard_allow)
    from ..sources.http import HttpSource
    return HttpSource(timeout=limits.page_timeout, max_bytes=limits.max_bytes,
                      allow_private=limits.allow_private, guard_allow=limits.guard_allow)


async def extract_url_async(opts: UrlOptions, limits: Limits | None = None,
                            progress: ProgressFn | None = None,
                            source: Any = None) -> UrlResult:
    """Explore the site of ``opts.url`` and extract the template of that page.

    Raises :class:`temex.web.security.UrlRefused` for a refused URL,
    :class:`temex.errors.PageLoadError` when the key page cannot be loaded,
    :class:`NoTemplateFound` when no page sharing the template was found,
    ``asyncio.TimeoutError`` past ``limits.job_timeout``.
    """
    limits = limits or Limits(allow_private=True)
    if not explore_available():  # pragma: no cover - branch not merged
        raise PageLoadError("URL targets need temex.explore (site explorer)")
    from ..explore import explore_async, fit_exploration

    opts = opts.capped(limits)
    await asyncio.to_thread(check_url, opts.url, limits.allow_private, limits.guard_allow,
                            max_length=limits.max_url_length)
    src = source if source is not None else make_source(opts, limits)
    t0 = time.perf_counter()

    def on_page(url: str, status: str, loads: int, max_loads: int) -> None:
        if progress:
            progress({"type": "page", "url": url, "status": status, "loads": loads,
                      "max_loads": max_loads})

    if progress:
        progress({"type": "start", "url": opts.url, "render": opts.render,
                  "max_loads": opts.max_loads, "n": opts.n})
    ex = await asyncio.wait_for(
        explore_async(opts.url, n=opts.n, max_loads=opts.max_loads, source=src,
                      same_host=opts.same_host, order=opts.order, progress=on_page),
        timeout=limits.job_timeout)
    if not ex.pages:
        hint = "" if opts.render else " (if the page builds its menu with JavaScript, " \
                                      "try render)"
        raise NoTemplateFound(f"{ex.key.url}: no page sharing its template was found among "
                              f"{ex.requests - 1} linked page(s){hint}")
    if progress:
        progress({"type": "fit", "pages": len(ex.pages), "complete": ex.complete})
    eo = opts.extract_options()
    det = get_detector(eo.method, **eo.detector_params())
    model = await asyncio.to_thread(fit_exploration, ex, det)
    model.timings["total"] = time.perf_counter() - t0
    return UrlResult(model, ex, opts)


def extract_url(opts: UrlOptions, limits: Limits | None = None,
                progress: ProgressFn | None = None) -> UrlResult:
    """Blocking :func:`extract_url_async` (own event loop; from a thread that
    already runs a loop, the work is done in a helper thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(extract_url_async(opts, limits, progress))
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = asyncio.run(extract_url_async(opts, limits, progress))
        except BaseException as e:  # noqa: BLE001 - re-raised below
            box["error"] = e

    t = threading.Thread(target=work, name="temex-extract-url")
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    result: UrlResult = box["result"]
    return result


def output(result: UrlResult, name: str) -> str:
    """Text of one downloadable output (:data:`OUTPUTS`)."""
    if name not in OUTPUTS:
        raise KeyError(name)
    if name == "json":
        import json
        data = report(result.model)
        data["graph"] = result.graph()
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if name == "saved":  # the site template, reusable by `temex strip --template`
        import json

        from ..saved import SavedTemplate

        saved = SavedTemplate.from_models([result.model], site=result.model.key.url)
        return json.dumps(saved.to_dict(), indent=2, ensure_ascii=False) + "\n"
    assert name in FORMATS
    return render(result.model, name)


# -- jobs ------------------------------------------------------------------------

@dataclass
class Job:
    id: str
    options: UrlOptions
    status: str = "queued"  # queued | running | done | failed
    created: float = field(default_factory=time.time)
    started: float = 0.0
    finished: float = 0.0
    events: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    result: UrlResult | None = None
    _cache: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def done(self) -> bool:
        return self.status in ("done", "failed")

    def add_event(self, ev: dict[str, Any]) -> None:
        with self._lock:
            ev = {"seq": len(self.events), "t": round(time.time() - self.created, 3), **ev}
            self.events.append(ev)

    def events_since(self, seq: int) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.events[max(0, seq):])

    def output(self, name: str) -> str:
        if self.result is None:
            raise KeyError(name)
        with self._lock:
            if name not in self._cache:
                self._cache[name] = output(self.result, name)
            return self._cache[name]

    def as_dict(self, since: int = 0) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "status": self.status,
                             "options": self.options.as_dict(), "error": self.error,
                             "events": self.events_since(since),
                             "elapsed": round((self.finished or time.time())
                                              - (self.started or self.created), 3)}
        if self.result is not None:
            d["result"] = self.result.summary()
        return d


class JobsFull(Exception):
    """All job slots are taken (HTTP 429)."""


class JobManager:
    """Runs jobs in threads, at most ``limits.max_jobs`` at once."""

    def __init__(self, limits: Limits,
                 runner: Callable[[UrlOptions, Limits, ProgressFn], UrlResult] | None = None
                 ) -> None:
        self.limits = limits
        self.slots = JobSlots(limits.max_jobs)
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._runner = runner or extract_url
        self._counter = itertools.count(1)

    def submit(self, opts: UrlOptions) -> Job:
        """Start a job. Raises ValueError / UrlRefused for bad input (checked
        before a slot is taken) and :class:`JobsFull` when no slot is free."""
        opts = opts.capped(self.limits)
        check_url(opts.url, self.limits.allow_private, self.limits.guard_allow,
                  max_length=self.limits.max_url_length)
        if not self.slots.try_acquire():
            raise JobsFull(f"{self.slots.size} job(s) already running; try again shortly")
        job = Job(id=f"{next(self._counter)}-{secrets.token_hex(6)}", options=opts)
        with self._lock:
            self.jobs[job.id] = job
            self._evict()
        job.add_event({"type": "queued", "url": opts.url})
        threading.Thread(target=self._run, args=(job,), daemon=True,
                         name=f"temex-job-{job.id}").start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self.jobs.get(job_id)

    def _evict(self) -> None:
        done = [j for j in self.jobs.values() if j.done]
        while len(self.jobs) > self.limits.keep_jobs and done:
            self.jobs.pop(done.pop(0).id, None)

    def _run(self, job: Job) -> None:
        job.status, job.started = "running", time.time()
        try:
            job.result = self._runner(job.options, self.limits, job.add_event)
            job.status = "done"
            s = job.result.summary()
            job.add_event({"type": "done", "loads": s["loads"], "pages": s["pages"],
                           "counts": s["counts"]})
        except asyncio.TimeoutError:
            job.error = f"the job took longer than {self.limits.job_timeout:g} s and was stopped"
            job.status = "failed"
        except TemexError as e:
            job.error = str(e)
            job.status = "failed"
        except Exception as e:  # noqa: BLE001 - report, never kill the server
            job.error = f"{type(e).__name__}: {e}".splitlines()[0]
            job.status = "failed"
        finally:
            job.finished = time.time()
            if job.status == "failed":
                job.add_event({"type": "failed", "error": job.error})
            self.slots.release()

