"""One runner for URL extraction: ``temex extract URL`` (with or without
``--render``) and every job of ``temex serve`` call :func:`extract_url`.

It checks the URL (:func:`temex.site.sources.netguard.check_url`), builds one
page source from the options (:class:`~temex.site.sources.http.HttpSource`, or
:class:`~temex.site.sources.browser.BrowserSource` with ``render``; robots.txt,
the disk cache, per-host concurrency and timeouts apply to both), runs the
complete-subdigraph search (:func:`temex.site.explore.explore_async`) under
the caps of :class:`Limits` and fits the chosen detector on the pages found.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import PageLoadError
from ..template.detectors import ExtractOptions, get_detector
from ..template.equality import DEFAULT_EQUALITY
from ..template.model import TemplateModel
from .explore import DEFAULT_MAX_LOADS, DEFAULT_N, explore_async, fit_exploration
from .sources.netguard import check_url

__all__ = [
    "Limits",
    "NoTemplateFound",
    "UrlOptions",
    "UrlResult",
    "extract_url",
    "extract_url_async",
    "make_source",
]

ProgressFn = Callable[[dict[str, Any]], None]


@dataclass
class Limits:
    """Caps applied to a URL extraction: every job of the server, and
    ``temex extract URL`` (with the CLI's own values)."""

    max_loads: int = 30          #: pages requested per job, key page included
    max_n: int = 8               #: largest CS size a user may ask for
    max_bytes: int = 5 * 1024 * 1024  #: bytes per page (raw and decompressed)
    page_timeout: float = 20.0   #: seconds per page
    job_timeout: float = 120.0   #: seconds per job
    max_jobs: int = 2            #: jobs running at once (HTTP 429 beyond)
    keep_jobs: int = 50          #: finished jobs kept in memory
    max_url_length: int = 2048
    allow_private: bool = False  #: lift the address rule (``--allow-private``)
    #: allow-list of the guard (``--allow-host``; :func:`~temex.site.sources.netguard.parse_allow`)
    guard_allow: tuple[str, ...] = field(default_factory=tuple)


class NoTemplateFound(PageLoadError):
    """The key page loaded but no page sharing its template was found.

    ``exploration`` holds what was found (the key page, loads, errors):
    callers above the content layer answer with the page-level fallback
    (:func:`temex.content.fallback.page_level_result`) instead of failing."""

    def __init__(self, message: str, exploration: Any = None) -> None:
        super().__init__(message)
        self.exploration = exploration


@dataclass
class UrlOptions:
    """Options of a URL extraction (the page's form, the API body, CLI flags)."""

    url: str
    n: int = DEFAULT_N         #: CS size sought (pages compared with the key page)
    max_loads: int = DEFAULT_MAX_LOADS  #: pages requested, key page included
    method: str = "vote"
    equality: str = DEFAULT_EQUALITY
    threshold: float = 0.5
    render: bool = False       #: load pages through headless Chromium
    order: str = "menu"
    same_host: bool = False
    robots: bool = True        #: obey robots.txt
    cache: str | None = None   #: on-disk page cache folder (CLI only; not an API option)
    concurrency: int = 4       #: simultaneous requests per host
    #: every detector option (CLI only; None: method, equality and threshold above)
    detector: ExtractOptions | None = None

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> UrlOptions:
        """Build from an API body; raises ValueError with a readable message."""
        if not isinstance(body, dict):
            raise ValueError("the body must be a JSON object")  # noqa: TRY004
        known = set(cls.__dataclass_fields__) - {"cache", "detector"}
        unknown = sorted(set(body) - known)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        if not isinstance(body.get("url"), str):
            raise ValueError("'url' (a string) is required")  # noqa: TRY004
        o = cls(url=body["url"])
        for name in ("n", "max_loads", "concurrency"):
            if name in body:
                v = body[name]
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ValueError(f"'{name}' must be an integer")
                setattr(o, name, v)
        if "max_loads" not in body:  # the budget follows n, as the CLI's: the key page + n
            o.max_loads = o.n + 1
        for name, allowed in (("method", ("vote", "intersect")),
                              ("order", ("menu", "paper", "document"))):
            if name in body:
                if body[name] not in allowed:
                    raise ValueError(f"'{name}' must be one of {', '.join(allowed)}")
                setattr(o, name, body[name])
        if "equality" in body:
            from ..template.equality import EQUALITIES
            if body["equality"] not in EQUALITIES:
                raise ValueError(f"'equality' must be one of {', '.join(sorted(EQUALITIES))}")
            o.equality = body["equality"]
        if "threshold" in body:
            t = body["threshold"]
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= 1:
                raise ValueError("'threshold' must be a number in (0, 1]")
            o.threshold = float(t)
        for name in ("render", "same_host", "robots"):
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
        if self.concurrency < 1:
            raise ValueError("'concurrency' must be at least 1")
        o = UrlOptions(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        o.n = min(self.n, limits.max_n)
        o.max_loads = min(self.max_loads, limits.max_loads)
        return o

    def extract_options(self) -> ExtractOptions:
        if self.detector is not None:
            return self.detector
        return ExtractOptions(method=self.method, equality=self.equality,
                              threshold=self.threshold, n_pages=self.n)

    def as_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["detector"] = asdict(self.detector) if self.detector is not None else None
        return d


@dataclass
class UrlResult:
    """A model and the exploration that produced it."""

    model: TemplateModel
    exploration: Any  # temex.site.explore.Exploration
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
        from .sources.browser import BrowserSource
        return BrowserSource(timeout=limits.page_timeout, max_bytes=limits.max_bytes,
                             allow_private=limits.allow_private,
                             guard_allow=limits.guard_allow, concurrency=opts.concurrency,
                             respect_robots=opts.robots, cache_dir=opts.cache)
    from .sources.http import HttpSource
    return HttpSource(timeout=limits.page_timeout,
                      connect_timeout=min(limits.page_timeout, 10.0),
                      read_timeout=limits.page_timeout, max_bytes=limits.max_bytes,
                      concurrency=opts.concurrency, respect_robots=opts.robots,
                      cache_dir=opts.cache, allow_private=limits.allow_private,
                      guard_allow=limits.guard_allow)


async def extract_url_async(opts: UrlOptions, limits: Limits | None = None,
                            progress: ProgressFn | None = None,
                            source: Any = None, key_page: Any = None) -> UrlResult:
    """Explore the site of ``opts.url`` and extract the template of that page.

    Without ``limits`` the server's caps and its address guard apply
    (:class:`Limits`: private addresses refused). ``key_page``: the page at
    ``opts.url`` already parsed (a :class:`temex.page.dom.Document`, the DOM
    a browser shows), used instead of loading it; the guard still checks
    ``opts.url`` and every page loaded.

    Raises :class:`temex.web.security.UrlRefused` for a refused URL,
    :class:`temex.errors.PageLoadError` when the key page cannot be loaded,
    :class:`NoTemplateFound` when no page sharing the template was found,
    ``asyncio.TimeoutError`` past ``limits.job_timeout``.
    """
    limits = limits or Limits()
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
                      same_host=opts.same_host, order=opts.order,
                      concurrency=opts.concurrency, progress=on_page,
                      key_page=key_page),
        timeout=limits.job_timeout)
    if not ex.pages:
        hint = "" if opts.render else " (if the page builds its menu with JavaScript, " \
                                      "try render)"
        raise NoTemplateFound(f"{ex.key.url}: no page sharing its template was found among "
                              f"{ex.requests - 1} linked page(s){hint}", ex)
    if progress:
        progress({"type": "fit", "pages": len(ex.pages), "complete": ex.complete})
    eo = opts.extract_options()
    det = get_detector(eo.method, **eo.detector_params())
    model = await asyncio.to_thread(fit_exploration, ex, det)
    model.timings["total"] = time.perf_counter() - t0
    return UrlResult(model, ex, opts)


def extract_url(opts: UrlOptions, limits: Limits | None = None,
                progress: ProgressFn | None = None, key_page: Any = None) -> UrlResult:
    """Blocking :func:`extract_url_async` (own event loop; from a thread that
    already runs a loop, the work is done in a helper thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(extract_url_async(opts, limits, progress, key_page=key_page))
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = asyncio.run(extract_url_async(opts, limits, progress,
                                                          key_page=key_page))
        except BaseException as e:  # noqa: BLE001 - re-raised below
            box["error"] = e

    t = threading.Thread(target=work, name="temex-extract-url")
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    result: UrlResult = box["result"]
    return result
