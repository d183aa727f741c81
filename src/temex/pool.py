"""Offline candidate pages: choose pages of a local folder for a key page.

With ``--pages-dir DIR`` the HTML files under DIR (a local mirror of the site)
are the pool, and temex chooses which to compare with the key page. The rule,
so that results are reproducible:

1. the key page's links, in the order the key page shows them (document order,
   the order a reader meets the menu), resolved inside DIR like a web server
   would: relative links against the key page's folder, root-relative links
   against DIR, ``/dir/`` to ``/dir/index.html``, fragments and queries dropped;
   links to the key page itself and links outside DIR are ignored;
2. then the remaining files, nearest folder first (same folder, then the
   folders that share the longest path prefix), by name within a folder;
3. files that cannot be read or parsed are reported (``PageError``) and
   skipped; the next file takes their place.

The first ``n`` usable pages are compared. Listing a folder of thousands of
files costs one ``os.walk``; only chosen pages are read and parsed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .dom import Document, parse
from .errors import ParseError

__all__ = ["PageError", "load_file", "local_link_order", "choose_pages", "html_files"]

HTML_SUFFIXES = (".html", ".htm", ".xhtml")


@dataclass(frozen=True)
class PageError:
    """A page that could not be used, and why."""

    page: str
    error: str

    def as_dict(self) -> dict[str, str]:
        return {"page": self.page, "error": self.error}


def load_file(path: str | os.PathLike[str]) -> Document:
    """Read and parse one HTML file. Raises OSError or ParseError."""
    p = Path(path)
    data = p.read_bytes()
    return parse(data, url=str(p))


def html_files(folder: Path) -> list[Path]:
    """All HTML files under ``folder``, sorted (deterministic)."""
    out = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for f in sorted(files):
            if f.lower().endswith(HTML_SUFFIXES):
                out.append(Path(root) / f)
    return out


def _resolve(href: str, key_file: Path, root: Path) -> Path | None:
    parts = urlsplit(href.strip())
    if parts.scheme and parts.scheme not in ("http", "https", "file"):
        return None
    if parts.scheme in ("http", "https") or parts.netloc:
        return None  # absolute URLs point at a live host, not this mirror
    path = unquote(parts.path)
    if not path:
        return None
    base = root if path.startswith("/") else key_file.parent
    target = (base / path.lstrip("/")).resolve()
    if path.endswith("/") or target.is_dir():
        target = target / "index.html"
    try:
        target.relative_to(root)
    except ValueError:
        return None
    return target


def local_link_order(key: Document, key_file: Path, root: Path) -> list[Path]:
    """Files in ``root`` that the key page links to, in document order."""
    out: list[Path] = []
    seen = {key_file.resolve()}
    for i, tag in enumerate(key.tag):
        if tag != "a":
            continue
        href = dict(key.attrs[i]).get("href")
        if not href:
            continue
        target = _resolve(href, key_file, root)
        if target is None or target in seen:
            continue
        seen.add(target)
        if target.is_file():
            out.append(target)
    return out


def _proximity(key_file: Path, files: Iterable[Path]) -> list[Path]:
    kp = key_file.parent.parts

    def distance(f: Path) -> tuple[int, str]:
        fp = f.parent.parts
        common = 0
        for a, b in zip(kp, fp):
            if a != b:
                break
            common += 1
        return (len(kp) - common + len(fp) - common, str(f))

    return sorted(files, key=distance)


def candidate_order(key: Document, key_file: Path, root: Path) -> Iterator[Path]:
    """All files of ``root`` in the order of the module docstring's rule."""
    key_file = key_file.resolve()
    root = root.resolve()
    linked = local_link_order(key, key_file, root)
    yield from linked
    done = set(linked) | {key_file}
    yield from _proximity(key_file, (f.resolve() for f in html_files(root)
                                     if f.resolve() not in done))


def choose_pages(key: Document, key_file: Path, root: Path, n: int
                 ) -> tuple[list[Document], list[PageError], dict[str, float]]:
    """Load the first ``n`` usable candidate pages (see the module rule).

    Returns the pages, the errors met on the way and timings (``read``,
    ``parse`` seconds).
    """
    pages: list[Document] = []
    errors: list[PageError] = []
    t_read = t_parse = 0.0
    for f in candidate_order(key, key_file, root):
        if len(pages) >= n:
            break
        t0 = time.perf_counter()
        try:
            data = f.read_bytes()
        except OSError as e:
            errors.append(PageError(str(f), f"cannot read: {e.strerror or e}"))
            continue
        t1 = time.perf_counter()
        t_read += t1 - t0
        try:
            doc = parse(data, url=str(f))
        except ParseError as e:
            errors.append(PageError(str(f), str(e)))
            continue
        finally:
            t_parse += time.perf_counter() - t1
        if doc.body < 0 or doc.size[doc.body] < 2:
            errors.append(PageError(str(f), "no page body (redirect stub or empty page)"))
            continue
        pages.append(doc)
    return pages, errors, {"read": t_read, "parse": t_parse}
