"""The local API of the browser extension (``extension/`` in the package).

The extension sends the page a person is looking at, as their browser shows
it, and gets back which of its elements are the template::

    POST /api/extension/template   {"url": ..., "html": ...[, "n", "max_loads", ...]}

``html`` is the tab's DOM serialised by the extension's content script: its
doctype, then ``document.documentElement.outerHTML`` of a copy of the DOM in
which every element carries its number in the live DOM's pre-order
(:data:`NUMBER_ATTR`). temex parses it as it parses any page (Lexbor, the
scripting flag on), reads each element's number and removes the attribute,
so the page compared with the candidates is the tab's DOM with nothing
added. The answer names template elements by those numbers: whatever the
parser does to a DOM that does not round-trip through HTML (a table built by
a script without ``<tbody>``, a ``<p>`` holding a ``<div>``, nesting deeper
than the parser keeps), a number names the live element it was given to,
where a child-index path would name another one after the first place the
two trees differ. Elements the parser adds (an implied ``<tbody>``) have no
number and are left out (``unnumbered``).

The candidate pages are found as for ``temex extract URL`` and the page's
jobs (:func:`temex.site.runner.extract_url`): the URL passes the address
guard, every page loaded does, the same caps (:class:`~temex.site.runner.Limits`)
and job slots apply; the tab's page counts as one of the loads but is not
fetched.

**Who may call it.** Only the extension: a web page must not be able to make
the local temex fetch addresses for it. A request is refused (403, nothing
fetched) unless

* its ``Origin`` is an extension's (``chrome-extension://``,
  ``moz-extension://``): browsers set ``Origin`` on every POST and a page
  cannot choose it; a request with an ``http(s)`` Origin, ``null`` or none
  is refused;
* it carries the header :data:`CLIENT_HEADER`: a page cannot send a custom
  header to another origin without a CORS preflight, and this route answers
  no preflight (``OPTIONS`` gets 405), so a form post or a "simple" fetch
  from a page cannot reach it either way.

The Host check of a loopback server (DNS rebinding) applies before it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ParseError, TemexError
from ..page.dom import build_document, lexbor_parse
from ..site.runner import Limits, NoTemplateFound, UrlOptions, UrlResult, extract_url
from ..site.sources.netguard import UrlRefused, check_url

__all__ = ["CLIENT_HEADER", "EXTENSION_ORIGINS", "NUMBER_ATTR", "caller_refused",
           "extension_routes", "numbered_document"]

#: Attribute carrying an element's number in the live DOM (the content script's).
NUMBER_ATTR = "data-temex-n"
#: Header every extension request carries (forces a CORS preflight on pages).
CLIENT_HEADER = "x-temex-extension"
#: Origins of extension pages and workers (Chromium, Firefox).
EXTENSION_ORIGINS = ("chrome-extension://", "moz-extension://")


def caller_refused(request: Request) -> str | None:
    """Why ``request`` is not the extension's (None when it is)."""
    origin = request.headers.get("origin")
    if origin is None:
        return "only the temex browser extension may call this (no Origin)"
    if not origin.startswith(EXTENSION_ORIGINS) or len(origin) <= len("moz-extension://"):
        return f"only the temex browser extension may call this (Origin {origin[:100]})"
    if request.headers.get(CLIENT_HEADER) != "1":
        return f"only the temex browser extension may call this (no {CLIENT_HEADER} header)"
    return None


def numbered_document(html: str, url: str, max_bytes: int) -> tuple[Any, list[int]]:
    """Parse the extension's serialised DOM: the Document (numbers removed)
    and, for each of its nodes, the live element's number (-1: an element
    the parser added, such as an implied ``<tbody>`` or the copy of a
    formatting element it reopens, which carries the number of the first).
    Raises ParseError."""
    parser, encoding = lexbor_parse(html, url, max_bytes=max_bytes)
    numbers: list[int] = []
    seen: set[int] = set()
    root = parser.root
    if root is None:
        raise ParseError(f"{url}: no document element")
    for el in root.traverse():
        if not el.is_element_node:
            continue
        raw = el.attributes.get(NUMBER_ATTR)
        if raw is not None:
            del el.attrs[NUMBER_ATTR]
        n = int(raw) if raw is not None and raw.isdigit() and len(raw) < 10 else -1
        if n in seen:  # a formatting element the parser reopened (a clone): not live
            n = -1
        seen.add(n)
        numbers.append(n)
    doc = build_document(parser, url, encoding)
    if len(doc) != len(numbers):  # pragma: no cover - one tree, walked twice
        raise ParseError(f"{url}: the parsed page changed while read")
    return doc, numbers


def answer(result: UrlResult, numbers: list[int], fallback: str | None) -> dict[str, Any]:
    """The JSON answer: template elements of ``<body>`` (as the annotated
    output marks them) by live number, counts, pages compared, loads."""
    m, ex = result.model, result.exploration
    doc = m.key
    template: list[int] = []
    kind: list[int] = []
    unnumbered = 0
    kt = m.kind_template
    for i in doc.in_body():
        if not m.template[i]:
            continue
        if numbers[i] < 0:
            unnumbered += 1
            continue
        template.append(numbers[i])
        if kt and kt[i]:
            kind.append(numbers[i])
    return {"url": result.options.url, "template": template, "kind": kind,
            "unnumbered": unnumbered, "counts": m.counts(), "pages": [d.url for d in ex.pages],
            "loads": ex.loads, "requests": ex.requests, "fallback": fallback,
            "errors": m.errors}


def extension_routes(limits: Limits, jobs: Any) -> list[Route]:
    """The routes to mount; ``jobs`` (the app's :class:`~temex.web.jobs.JobManager`)
    lends its job slots, so extension requests and the page's jobs together
    stay within ``limits.max_jobs``."""
    max_body = 2 * limits.max_bytes + 64 * 1024

    async def template(request: Request) -> Response:
        why = caller_refused(request)
        if why:
            return JSONResponse({"error": why}, status_code=403)
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return JSONResponse({"error": "send JSON (Content-Type: application/json)"},
                                status_code=415)
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_body:
            return JSONResponse({"error": f"page over {max_body} bytes"}, status_code=413,
                                headers={"Connection": "close"})
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():  # nothing past the cap is kept
            size += len(chunk)
            if size > max_body:
                return JSONResponse({"error": f"page over {max_body} bytes"}, status_code=413,
                                    headers={"Connection": "close"})
            chunks.append(chunk)
        raw = b"".join(chunks)
        try:
            body = json.loads(raw or b"null")
            if not isinstance(body, dict):
                raise ValueError("the body must be a JSON object")  # noqa: TRY004
            html = body.pop("html", None)
            if not isinstance(html, str):
                raise ValueError("'html' (the serialised page, a string) is required")
            opts = UrlOptions.from_json(body).capped(limits)
        except RecursionError:
            return JSONResponse({"error": "bad JSON (nested too deeply)"}, status_code=400)
        except (ValueError, UnicodeDecodeError) as e:
            msg = f"bad JSON ({e.msg})" if isinstance(e, json.JSONDecodeError) else str(e)
            return JSONResponse({"error": msg}, status_code=400)
        try:
            await asyncio.to_thread(check_url, opts.url, limits.allow_private,
                                    limits.guard_allow, max_length=limits.max_url_length)
        except UrlRefused as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        if not jobs.slots.try_acquire():
            return JSONResponse({"error": f"{jobs.slots.size} job(s) already running; "
                                          "try again shortly"}, status_code=429,
                                headers={"Retry-After": "5"})
        try:
            return JSONResponse(await asyncio.to_thread(_run, html, opts, limits))
        except ParseError as e:
            return JSONResponse({"error": f"the page could not be read: {e}"}, status_code=400)
        except asyncio.TimeoutError:
            return JSONResponse({"error": f"took longer than {limits.job_timeout:g} s"},
                                status_code=504)
        except UrlRefused as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        except TemexError as e:
            return JSONResponse({"error": str(e)}, status_code=502)
        finally:
            jobs.slots.release()

    return [Route("/api/extension/template", template, methods=["POST"])]


def _run(html: str, opts: UrlOptions, limits: Limits) -> dict[str, Any]:
    """Parse, explore, fit (in a worker thread, with its own event loop)."""
    doc, numbers = numbered_document(html, opts.url, 2 * limits.max_bytes)
    try:
        result = extract_url(opts, limits, key_page=doc)
        fallback = None
    except NoTemplateFound as e:
        from ..content.fallback import page_level_result

        result = page_level_result(e, opts)
        fallback = f"page-level fallback: {result.model.fallback}"
    return answer(result, numbers, fallback)
