"""The ASGI app of ``temex serve`` (Starlette): a page for people and a JSON API.

Routes (see :data:`OPENAPI` and docs/WEB.md)::

    GET  /                                  the page (static/index.html)
    POST /api/extract                       start a job -> 202 {"id": ...}
    GET  /api/jobs/{id}?since=N             status, events from N, result summary
    GET  /api/jobs/{id}/events              the same events as server-sent events
    GET  /api/jobs/{id}/output/{format}     template|annotated|content|markdown|html|json
    GET  /api/jobs/{id}/view/{mode}         page|template|content (?highlight=1), for the iframe
    GET  /openapi.json                      OpenAPI 3.1 description
    GET  /api/health                        liveness and limits
    POST /api/extension/template            the browser extension's (extension_api.py)
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..content.formats import canonical_format
from ..site.explore import DEFAULT_N
from ..site.runner import Limits, UrlOptions
from ..site.sources.browser import render_unavailable
from ..site.sources.netguard import LIFT_HINT, UrlRefused
from ..template.equality import DEFAULT_EQUALITY, EQUALITIES
from .extension_api import extension_routes
from .jobs import OUTPUTS, JobManager, JobsFull, OutputFailed
from .security import APP_CSP, SANDBOX_CSP, security_headers
from .views import VIEWS

__all__ = ["OPENAPI", "create_app"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers or None)


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The request body, or None as soon as it is known to exceed ``limit``
    bytes: from its Content-Length, else while it streams in (nothing past
    the limit is read or kept)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _refused(e: UrlRefused) -> str:
    """The guard's refusal in the web's terms, without the command line's
    flags (a web user cannot pass them): ``refused: 10.0.0.1 is not a public
    address; this server fetches public addresses only``."""
    why = str(e).replace(f" ({LIFT_HINT})", "")
    if why != str(e):  # an address the guard refuses
        why += "; this server fetches public addresses only"
    return why


def create_app(limits: Limits | None = None, *, allowed_hosts: list[str] | None = None,
               manager: JobManager | None = None, example_url: str | None = None
               ) -> Starlette:
    """Build the app. ``limits.allow_private`` is ``--allow-private``;
    ``allowed_hosts`` (Host header values, default: any) guards a server bound
    to loopback against DNS rebinding from web pages; ``example_url`` (the
    demo site of ``temex serve --demo``) is offered on the start page."""
    limits = limits or Limits()
    jobs = manager or JobManager(limits)

    def job_or_404(request: Request) -> Any:
        job = jobs.get(request.path_params["job_id"])
        return job

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8",
                            headers=security_headers(APP_CSP) | {"X-Frame-Options": "DENY"})

    async def extract(request: Request) -> Response:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return _error(415, "send the options as JSON (Content-Type: application/json)")
        raw = await _read_body(request, MAX_BODY)
        if raw is None:
            return _error(413, f"request body over {MAX_BODY} bytes",
                          Connection="close")
        try:
            body = json.loads(raw or b"null")
            opts = UrlOptions.from_json(body)
        except RecursionError:
            return _error(400, "bad JSON (nested too deeply)")
        except (ValueError, UnicodeDecodeError) as e:
            return _error(400, str(e) if not isinstance(e, json.JSONDecodeError)
                          else f"bad JSON ({e.msg})")
        if opts.render and render_unavailable():
            return _error(400, "rendering with Chromium is not available on this server: "
                               + render_unavailable())
        try:
            job = await asyncio.to_thread(jobs.submit, opts)
        except UrlRefused as e:
            return _error(400, _refused(e))
        except ValueError as e:
            return _error(400, str(e))
        except JobsFull as e:
            return _error(429, str(e), **{"Retry-After": "5"})
        return JSONResponse({"id": job.id, "status": job.status,
                             "job": f"/api/jobs/{job.id}",
                             "events": f"/api/jobs/{job.id}/events"}, status_code=202,
                            headers={"Location": f"/api/jobs/{job.id}"})

    async def job_status(request: Request) -> Response:
        job = job_or_404(request)
        if job is None:
            return _error(404, "no such job (finished jobs are kept for a while only)")
        try:
            since = max(0, int(request.query_params.get("since", "0")))
        except ValueError:
            return _error(400, "'since' must be an integer")
        return JSONResponse(job.as_dict(since))

    async def job_events(request: Request) -> Response:
        job = job_or_404(request)
        if job is None:
            return _error(404, "no such job")
        try:
            start = int(request.headers.get("last-event-id", "-1")) + 1
        except ValueError:
            start = 0

        async def stream() -> Any:
            seq = start
            yield "retry: 1000\n\n"
            while True:
                done = job.done  # read before the events so none is missed
                for ev in job.events_since(seq):
                    seq = ev["seq"] + 1
                    yield f"id: {ev['seq']}\nevent: {ev['type']}\ndata: {json.dumps(ev)}\n\n"
                if done:
                    yield f"event: end\ndata: {json.dumps({'status': job.status})}\n\n"
                    return
                await asyncio.sleep(0.2)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    def _ready(request: Request) -> Any:
        job = job_or_404(request)
        if job is None:
            return _error(404, "no such job")
        if job.status != "done":
            return _error(409, f"job is {job.status}" + (f": {job.error}" if job.error else ""))
        return job

    async def job_output(request: Request) -> Response:
        job = _ready(request)
        if isinstance(job, Response):
            return job
        fmt = canonical_format(request.path_params["fmt"])  # text, txt: content
        if fmt not in OUTPUTS:
            return _error(404, f"unknown format {fmt!r}; choose from {', '.join(OUTPUTS)}")
        try:
            text = await asyncio.to_thread(job.output, fmt)
        except OutputFailed as e:
            return _error(500, f"the {fmt} output could not be made: {e}")
        media, filename = OUTPUTS[fmt]
        headers = security_headers(SANDBOX_CSP)
        if request.query_params.get("download", "1") != "0":
            headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return Response(text, media_type=media, headers=headers)

    async def job_view(request: Request) -> Response:
        job = _ready(request)
        if isinstance(job, Response):
            return job
        mode = request.path_params["mode"]
        if mode not in VIEWS:
            return _error(404, f"unknown view {mode!r}; choose from {', '.join(VIEWS)}")
        hl = request.query_params.get("highlight", "0") in ("1", "true", "yes")
        try:
            html = await asyncio.to_thread(job.view, mode, hl)
        except OutputFailed as e:
            return _error(500, f"the view could not be made: {e}")
        return Response(html, media_type="text/html; charset=utf-8",
                        headers=security_headers(SANDBOX_CSP) | {"Cache-Control": "no-store"})

    async def openapi(request: Request) -> Response:
        return JSONResponse(OPENAPI)

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": __version__,
                             "running_jobs": jobs.slots.running,
                             "limits": {"max_jobs": limits.max_jobs,
                                        "max_loads": limits.max_loads, "max_n": limits.max_n,
                                        "max_bytes": limits.max_bytes,
                                        "job_timeout": limits.job_timeout,
                                        "allow_private": limits.allow_private},
                             "outputs": list(OUTPUTS), "equalities": sorted(EQUALITIES),
                             "default_equality": DEFAULT_EQUALITY,
                             "render": {"available": not render_unavailable(),
                                        "reason": render_unavailable() or None},
                             "example": example_url})

    routes = [
        Route("/", index),
        Route("/api/extract", extract, methods=["POST"]),
        Route("/api/jobs/{job_id}", job_status),
        Route("/api/jobs/{job_id}/events", job_events),
        Route("/api/jobs/{job_id}/output/{fmt}", job_output),
        Route("/api/jobs/{job_id}/view/{mode}", job_view),
        Route("/openapi.json", openapi),
        Route("/api/health", health),
        *extension_routes(limits, jobs),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = []
    if allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.jobs = jobs
    app.state.limits = limits
    return app


_OPTIONS_SCHEMA = {
    "type": "object", "required": ["url"], "additionalProperties": False,
    "properties": {
        "url": {"type": "string", "format": "uri", "description": "key page (http/https)"},
        "n": {"type": "integer", "minimum": 1, "default": DEFAULT_N,
              "description": "CS size: pages sharing the template to find (capped)"},
        "max_loads": {"type": "integer", "minimum": 2,
                      "description": "pages requested, key page included (capped); "
                                     "default n + 1: the key page and n more"},
        "method": {"type": "string", "enum": ["vote", "intersect"], "default": "vote"},
        "equality": {"type": "string", "default": DEFAULT_EQUALITY,
                     "description": "node equality relation (temex.template.equality.EQUALITIES)"},
        "threshold": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.5},
        "render": {"type": "boolean", "default": False,
                   "description": "load pages through headless Chromium"},
        "order": {"type": "string", "enum": ["menu", "paper", "document"], "default": "menu"},
        "same_host": {"type": "boolean", "default": False},
    },
}
_ERR = {"description": "error", "content": {"application/json": {"schema": {
    "type": "object", "properties": {"error": {"type": "string"}}}}}}
_JOB_ID = {"name": "job_id", "in": "path", "required": True, "schema": {"type": "string"}}

#: Hand-written OpenAPI description served at /openapi.json.
OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "temex", "version": __version__,
             "description": "Site-level web template extraction (TeMex): give a URL, get "
                            "the template of that page, its content and a report."},
    "paths": {
        "/api/extract": {"post": {
            "summary": "Start an extraction job",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Options"}}}},
            "responses": {
                "202": {"description": "job started", "content": {"application/json": {
                    "schema": {"type": "object", "properties": {
                        "id": {"type": "string"}, "status": {"type": "string"},
                        "job": {"type": "string"}, "events": {"type": "string"}}}}}},
                "400": _ERR | {"description": "bad options or refused URL"},
                "413": _ERR | {"description": "body too large"},
                "415": _ERR | {"description": "not JSON"},
                "429": _ERR | {"description": "too many jobs running"}}}},
        "/api/jobs/{job_id}": {"get": {
            "summary": "Job status, events and result summary",
            "parameters": [_JOB_ID, {"name": "since", "in": "query",
                                     "schema": {"type": "integer", "minimum": 0},
                                     "description": "first event number to return"}],
            "responses": {"200": {"description": "the job", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Job"}}}},
                "404": _ERR | {"description": "unknown job"}}}},
        "/api/jobs/{job_id}/events": {"get": {
            "summary": "Job events as server-sent events (ends with event 'end')",
            "parameters": [_JOB_ID],
            "responses": {"200": {"description": "event stream",
                                  "content": {"text/event-stream": {}}},
                          "404": _ERR | {"description": "unknown job"}}}},
        "/api/jobs/{job_id}/output/{format}": {"get": {
            "summary": "One output of a finished job (attachment unless download=0)",
            "parameters": [_JOB_ID, {"name": "format", "in": "path", "required": True,
                                     "schema": {"type": "string", "enum": list(OUTPUTS)}},
                           {"name": "download", "in": "query",
                            "schema": {"type": "integer", "enum": [0, 1], "default": 1}}],
            "responses": {"200": {"description": "the output"},
                          "404": _ERR | {"description": "unknown job or format"},
                          "409": _ERR | {"description": "job not finished or failed"}}}},
        "/api/jobs/{job_id}/view/{mode}": {"get": {
            "summary": "The key page prepared for the sandboxed viewer",
            "parameters": [_JOB_ID, {"name": "mode", "in": "path", "required": True,
                                     "schema": {"type": "string", "enum": list(VIEWS)}},
                           {"name": "highlight", "in": "query",
                            "schema": {"type": "integer", "enum": [0, 1]}}],
            "responses": {"200": {"description": "HTML (served with CSP sandbox)",
                                  "content": {"text/html": {}}},
                          "409": _ERR | {"description": "job not finished or failed"}}}},
        "/api/health": {"get": {"summary": "Liveness and limits",
                                "responses": {"200": {"description": "ok"}}}},
    },
    "components": {"schemas": {
        "Options": _OPTIONS_SCHEMA,
        "Job": {"type": "object", "properties": {
            "id": {"type": "string"},
            "status": {"type": "string", "enum": ["queued", "running", "done", "failed"]},
            "error": {"type": ["string", "null"]},
            "events": {"type": "array", "items": {"type": "object"}},
            "result": {"type": "object", "description": "summary: key_url, pages (CS), "
                       "loads, requests, counts, timings, errors, graph, outputs"}}},
    }},
}
