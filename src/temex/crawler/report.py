"""What a crawl tells its user about the pages it did not write: the reason
class of each error, the counts of ``summary.json`` and the finished line.

Every page of the index is one of: written (a file of its own), a duplicate
(``duplicate_of`` another page's file, with ``duplicate_proof``), skipped by
robots.txt (nothing was sent), a redirect stub (``<meta http-equiv=refresh>``
with next to nothing in the body: an HTML redirect; ``error`` names its
target, which is crawled as a link), or failed (``error``: the fetch failed,
or the body cannot be used: an empty page, an unreadable stored body, a stub
naming no target...). The summary counts each apart, failures by reason.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["error_reason", "finished_line", "is_redirect", "outcome_counts"]


class _Page(Protocol):
    url: str
    error: str | None
    duplicate_of: str | None
    duplicate_proof: str | None


# the start of an error message -> its reason class (messages of HttpSource,
# temex.page.files.unusable and the crawler)
_REASONS = (
    ("robots.txt", "robots.txt"), ("redirect stub", "redirect stub"),
    ("stored body unreadable", "unreadable body"), ("empty page", "empty page"),
    ("no page body", "no page body"), ("a feed or sitemap", "feed or sitemap"),
    ("not html", "not HTML"), ("too large", "too large"), ("timeout", "timeout"),
    ("redirected out of scope", "redirected out of scope"), ("redirect loop", "redirect loop"),
    ("too many redirects", "too many redirects"), ("refused", "refused"),
    ("cannot resolve", "cannot resolve"), ("cannot connect", "cannot connect"),
    ("server disconnected", "server disconnected"), ("incomplete body", "incomplete body"),
    ("connection reset", "connection reset"),
)
_HTTP = re.compile(r"HTTP (\d{3})\b")


def error_reason(error: str) -> str:
    """The reason class of an index row's ``error`` ("HTTP 404", "redirect
    stub", "unreadable body", ...; else the message up to its first
    parenthesis)."""
    low = error.lower()
    for start, name in _REASONS:
        if low.startswith(start):
            return name
    m = _HTTP.match(error)
    if m:
        return f"HTTP {m.group(1)}"
    return error.split("(")[0].strip()[:60] or "error"


def outcome_counts(results: Sequence[_Page], robots_skipped: set[str]) -> dict[str, Any]:
    """Counts of ``summary.json``: duplicates by proof, failures by reason
    (robots.txt skips apart: nothing was sent), redirect stubs and unreadable
    bodies on their own."""
    proofs = Counter((r.duplicate_proof or "").split(":")[0] for r in results if r.duplicate_of)
    reasons = Counter(error_reason(r.error) for r in results
                      if r.error and r.url not in robots_skipped and not is_redirect(r.error))
    return {"duplicate_proofs": dict(sorted(proofs.items())),
            "errors_by_reason": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
            "robots_disallowed": len(robots_skipped),
            "redirect_stubs": sum(1 for r in results if r.error and is_redirect(r.error)),
            "unreadable": reasons.get("unreadable body", 0)}


def is_redirect(error: str) -> bool:
    """A redirect stub that names its target: an HTML redirect (the target
    is crawled as a link), not a failure."""
    return error.startswith("redirect stub (meta refresh to ")


def _counted(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in d.items())


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def finished_line(s: dict[str, Any], out: str) -> str:
    """The last line of a crawl on stderr: what was fetched; of the pages,
    how many were written, recorded as duplicates (by proof), failed (by
    reason), were redirect stubs or disallowed by robots.txt; the templates.
    A page whose file is as it was is "unchanged", not "written"; a re-crawl
    that changed no file says "unchanged: no file written"."""
    pages = [f"{s['written']} written"]
    if s.get("unchanged"):
        pages.append(f"{s['unchanged']} unchanged")
    pages.append(_n(s["duplicates"], "duplicate", "duplicates"))
    if s["duplicates"]:
        pages[-1] += f" ({_counted(s['duplicate_proofs'])})"
    pages.append(f"{s['failed']} failed")
    if s["failed"]:
        pages[-1] += f" ({_counted(s['errors_by_reason'])})"
    if s["redirect_stubs"]:
        pages.append(_n(s["redirect_stubs"], "redirect stub", "redirect stubs")
                     + " (meta refresh, target followed)")
    if s["robots_disallowed"]:
        pages.append(f"{s['robots_disallowed']} disallowed by robots.txt")
    files = ""
    if s["mode"] == "recrawl" and not s["files_written"] and not s.get("files_removed"):
        files = "; unchanged: no file written"
    elif s.get("files_removed"):
        files = f"; {_n(s['files_removed'], 'file', 'files')} of pages gone removed"
    return (f"temex crawl: finished: {s['fetched']} fetched ({s['not_modified']} not modified); "
            f"{s['pages']} pages: {', '.join(pages)}; "
            f"{_n(s['templates'], 'template', 'templates')} ({s['templates_fitted']} fitted, "
            f"{s['templates_reused']} reused), {s['page_level']} page-level{files}; "
            f"{s['seconds']} s -> {out}")
