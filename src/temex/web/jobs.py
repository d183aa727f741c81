"""Extraction jobs of the web app.

Each job runs the one URL runner (:func:`temex.site.runner.extract_url`, shared
with ``temex extract URL``) in a thread with its own event loop.
:class:`JobManager` records progress events, keeps finished jobs for a while
and renders their outputs (:func:`output`).
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..content.render import FORMATS, render, report
from ..errors import TemexError
from ..site.runner import (
    Limits,
    NoTemplateFound,
    ProgressFn,
    UrlOptions,
    UrlResult,
    extract_url,
    extract_url_async,
)
from .security import JobSlots, check_url
from .views import style_view, view_base

__all__ = [
    "OUTPUTS",
    "Job",
    "JobManager",
    "NoTemplateFound",
    "OutputFailed",
    "UrlOptions",
    "UrlResult",
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

        from ..template.saved import SavedTemplate

        saved = SavedTemplate.from_models([result.model], site=result.model.key.url)
        return json.dumps(saved.to_dict(), indent=2, ensure_ascii=False) + "\n"
    assert name in FORMATS
    return render(result.model, name)


# -- jobs ------------------------------------------------------------------------

class OutputFailed(Exception):
    """An output that could not be rendered when the job finished (its reason)."""


@dataclass
class Job:
    """One job. When it finishes, its outputs and the base of its views are
    rendered once and kept zlib-compressed with the summary; the parsed pages,
    the model and the exploration are dropped (a finished job
    holds what its outputs need, not its pages)."""

    id: str
    options: UrlOptions
    status: str = "queued"  # queued | running | done | failed
    created: float = field(default_factory=time.time)
    started: float = 0.0
    finished: float = 0.0
    events: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    summary: dict[str, Any] | None = None
    kept_bytes: int = 0
    _outputs: dict[str, bytes] = field(default_factory=dict, repr=False)
    _failed: dict[str, str] = field(default_factory=dict, repr=False)
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

    def keep(self, result: UrlResult) -> None:
        """Render every output and the view base of ``result``; keep them
        compressed. A format that fails is kept as its one-line reason."""
        for name in (*OUTPUTS, _VIEW):
            try:
                text = (view_base(result.model, result.exploration.key.url)
                        if name == _VIEW else output(result, name))
                self._outputs[name] = zlib.compress(text.encode("utf-8", "surrogatepass"), 6)
            except Exception as e:  # noqa: BLE001 - one output, not the server
                self._failed[name] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        self.summary = {**result.summary(), "outputs": list(OUTPUTS)}
        self.kept_bytes = sum(len(b) for b in self._outputs.values())

    def _text(self, name: str) -> str:
        if name in self._failed:
            raise OutputFailed(self._failed[name])
        if name not in self._outputs:
            raise KeyError(name)
        return zlib.decompress(self._outputs[name]).decode("utf-8", "surrogatepass")

    def output(self, name: str) -> str:
        """Text of one output (:data:`OUTPUTS`) of a finished job."""
        if name not in OUTPUTS:
            raise KeyError(name)
        return self._text(name)

    def view(self, mode: str, highlight: bool = False) -> str:
        """The key page for the viewer (:mod:`temex.web.views`)."""
        return style_view(self._text(_VIEW), mode, highlight)

    def as_dict(self, since: int = 0) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "status": self.status,
                             "options": self.options.as_dict(), "error": self.error,
                             "events": self.events_since(since),
                             "elapsed": round((self.finished or time.time())
                                              - (self.started or self.created), 3)}
        if self.summary is not None:
            d["result"] = self.summary
        return d


_VIEW = "view"  # key of the view base among a job's kept texts


def _trim_memory() -> None:
    """Give freed heap back to the system (glibc ``malloc_trim``): a job's
    pages are freed in its own thread's malloc arena, which glibc otherwise
    keeps mapped. No-op elsewhere."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class JobsFull(Exception):
    """All job slots are taken (HTTP 429)."""


class JobManager:
    """Runs jobs in threads, at most ``limits.max_jobs`` at once; keeps the
    last ``limits.keep_jobs`` finished jobs, at most ``keep_bytes`` of their
    compressed outputs in all."""

    def __init__(self, limits: Limits,
                 runner: Callable[[UrlOptions, Limits, ProgressFn], UrlResult] | None = None,
                 keep_bytes: int = 256 * 1024 * 1024) -> None:
        self.limits = limits
        self.slots = JobSlots(limits.max_jobs)
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._runner = runner or extract_url
        self._counter = itertools.count(1)
        self.keep_bytes = keep_bytes
        self.evicted = 0

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

    def _evict(self, spare: Job | None = None) -> None:
        """Drop the oldest finished jobs beyond ``limits.keep_jobs`` jobs or
        :attr:`keep_bytes` bytes of kept outputs (running jobs stay, and so
        does ``spare``, the job that has just finished)."""
        done = [j for j in self.jobs.values() if j.done and j is not spare]
        kept = sum(j.kept_bytes for j in done)
        while done and (len(self.jobs) > self.limits.keep_jobs or kept > self.keep_bytes):
            j = done.pop(0)
            kept -= j.kept_bytes
            self.jobs.pop(j.id, None)
            self.evicted += 1

    def _run(self, job: Job) -> None:
        job.status, job.started = "running", time.time()
        status, final = "failed", None
        try:
            try:
                result = self._runner(job.options, self.limits, job.add_event)
            except NoTemplateFound as e:
                from ..content.fallback import page_level_result

                result = page_level_result(e, job.options)
                job.add_event({"type": "fallback",
                               "reason": f"page-level fallback: {result.model.fallback}"})
            job.keep(result)
            del result
            status = "done"
            s = job.summary or {}
            final = {"type": "done", "loads": s.get("loads"), "pages": s.get("pages"),
                     "counts": s.get("counts")}
        except asyncio.TimeoutError:
            job.error = f"the job took longer than {self.limits.job_timeout:g} s and was stopped"
        except TemexError as e:
            job.error = str(e)
        except Exception as e:  # noqa: BLE001 - report, never kill the server
            job.error = f"{type(e).__name__}: {e}".splitlines()[0]
        finally:
            job.finished = time.time()
            if status == "failed" and not job.error:
                job.error = "the job was stopped"
            # the status is published last: the slot is free before it (a
            # client that polls the status and then submits again is never
            # refused for it) and so is the last event (the event stream
            # reads the status before the events and ends when it is final)
            self.slots.release()
            job.add_event(final or {"type": "failed", "error": job.error})
            job.status = status
            with self._lock:
                self._evict(spare=job)
            _trim_memory()

