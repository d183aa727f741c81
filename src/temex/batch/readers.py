"""Input readers: index records first, read their bytes later by offset.

Inputs are folders of HTML (and WARC) files, WARC files (``.warc``, ``.warc.gz``; read
with FastWARC) and JSON Lines files (``.jsonl``, one ``{"url": ..., "html":
...}`` object a line). :func:`index_inputs` makes one pass and returns, for
every record, an :class:`Entry` (file, kind, offset, url) — no page bytes —
so a site's pages can be read by the worker that strips them
(:func:`read_entry` seeks to the offset).

Nothing is silently lost: every place of an input that does not yield a page
becomes an :class:`Entry` with ``error`` set (unreadable file, malformed JSON
line, a corrupt WARC region up to the next record that can be read — the
reader re-synchronises on the next gzip member or ``WARC/1.`` line; when the
bytes that do not parse follow a page record whose digest does not vouch for
it, that record's Content-Length was short and it is the one reported, once;
a record cut off by the end of the file is "truncated"). WARC
records that are not pages (warcinfo, request, metadata, revisit) are counted
as ``ignored``, not output.

Cost: one sequential pass over every input (WARC payloads are skipped, not
decoded); memory O(records) for the entries.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import ParseError
from ..page.files import read_page

__all__ = ["Entry", "RecordError", "index_inputs", "read_entry", "HTML_SUFFIXES"]

HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
_GZ_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."


def _fastwarc() -> tuple[Any, Any]:
    """FastWARC (a base dependency), imported when a WARC file is read, so that
    folders and JSONL never need it; missing, it is one line, not a traceback."""
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
    except ImportError:
        raise RecordError("reading WARC needs the fastwarc package: pip install fastwarc "
                          "(a dependency of temex; reinstall temex)") from None
    return ArchiveIterator, WarcRecordType.response | WarcRecordType.resource


class RecordError(Exception):
    """A record that cannot be read or is not an HTML page (one-line reason)."""


@dataclass(frozen=True)
class Entry:
    """One input record, located but not read.

    ``kind`` is "file", "warc" or "jsonl"; ``offset`` the byte offset of the
    WARC record / JSON line (-1 for files); ``root`` the input folder a file
    was found under (for grouping by folder); ``error`` set when the record is
    already known to be unusable.
    """

    kind: str
    path: str
    offset: int = -1
    url: str | None = None
    root: str | None = None
    error: str | None = None

    @property
    def source(self) -> str:
        return self.path if self.offset < 0 else f"{self.path}@{self.offset}"


def _is_warc(p: Path) -> bool:
    n = p.name.lower()
    return n.endswith((".warc", ".warc.gz", ".arc.gz"))


def _is_jsonl(p: Path) -> bool:
    return p.name.lower().endswith((".jsonl", ".ndjson"))


def index_inputs(inputs: list[str]) -> tuple[list[Entry], dict[str, int]]:
    """Index every input. Returns the entries in input order and counters
    (``ignored`` non-page WARC records, ``files`` read)."""
    entries: list[Entry] = []
    counts = {"ignored": 0, "files": 0}
    for inp in inputs:
        p = Path(inp)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if not f.is_file():
                    if f.suffix.lower() in HTML_SUFFIXES and not f.is_dir():
                        # a FIFO, a device or a symlink loop named like a page:
                        # reported, not silently dropped (and never opened)
                        entries.append(Entry("file", str(f), root=str(p),
                                             error="not a regular file"))
                    continue
                if f.suffix.lower() in HTML_SUFFIXES:
                    entries.append(Entry("file", str(f), root=str(p)))
                elif _is_warc(f):
                    entries.extend(_index_warc(f, counts))
                else:  # JSONL in folders is often metadata (manifests): name it
                    continue
                counts["files"] += 1
        elif not p.exists():
            entries.append(Entry("file", str(p), error="input not found"))
        elif _is_warc(p):
            entries.extend(_index_warc(p, counts))
            counts["files"] += 1
        elif _is_jsonl(p):
            entries.extend(_index_jsonl(p))
            counts["files"] += 1
        else:
            entries.append(Entry("file", str(p), root=str(p.parent)))
            counts["files"] += 1
    return entries, counts


def _index_jsonl(p: Path) -> Iterator[Entry]:
    try:
        f = p.open("rb")
    except OSError as e:
        yield Entry("jsonl", str(p), 0, error=f"cannot read: {e.strerror or e}")
        return
    with f:
        off = 0
        for line in f:
            start, off = off, off + len(line)
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                url = obj.get("url")
                if not isinstance(obj.get("html"), str):
                    yield Entry("jsonl", str(p), start, url if isinstance(url, str) else None,
                                error="JSON line has no \"html\" string")
                    continue
                yield Entry("jsonl", str(p), start, url if isinstance(url, str) else None)
            except (ValueError, UnicodeDecodeError) as e:
                yield Entry("jsonl", str(p), start, error=f"malformed JSON line: {e}"[:200])


def _find_next(fh: BinaryIO, start: int, magic: bytes) -> int:
    """Offset of the next ``magic`` at or after ``start``, -1 at end of file."""
    fh.seek(start)
    pos, tail = start, b""
    while True:
        chunk = fh.read(1 << 20)
        if not chunk:
            return -1
        data = tail + chunk
        k = data.find(magic)
        if k >= 0:
            return pos - len(tail) + k
        tail = data[-(len(magic) - 1):]
        pos += len(chunk)


def _index_warc(p: Path, counts: dict[str, int]) -> Iterator[Entry]:
    try:
        ArchiveIterator, _PAGE_TYPES = _fastwarc()
    except RecordError as e:
        yield Entry("warc", str(p), 0, error=str(e))
        return
    try:
        size = p.stat().st_size
        fh = p.open("rb")
    except OSError as e:
        yield Entry("warc", str(p), 0, error=f"cannot read: {e.strerror or e}")
        return
    with fh:
        head = fh.read(3)
        magic = _GZ_MAGIC if head == _GZ_MAGIC else _WARC_MAGIC
        start = 0
        bad_from: int | None = None  # start of an unreported corrupt region
        reason = ""
        first_try = False
        # A page record is yielded once the bytes after it are known to be the
        # next record: when they are not, its Content-Length is too short (or
        # data was inserted after it) and that record is the one reported,
        # once, with the bytes that follow it.
        pending: Entry | None = None
        blamed: Entry | None = None
        while 0 <= start < size:
            fh.seek(start)
            last = -1
            failure: str | None = None
            try:
                for rec in ArchiveIterator(fh, parse_http=False, stream_detect=True):
                    if bad_from is not None:  # resynchronised: report the region
                        yield _region_error(p, bad_from, start, reason, blamed)
                        bad_from, blamed = None, None
                    if pending is not None:
                        yield pending
                        pending = None
                    last = rec.stream_pos
                    if not rec.record_type & _PAGE_TYPES:
                        counts["ignored"] += 1
                        continue
                    pending = Entry("warc", str(p), last, rec.headers.get("WARC-Target-URI"))
            except OSError as e:
                failure = str(e) or type(e).__name__
            if failure is None:
                break
            if bad_from is None:
                bad_from, reason, first_try = (last + 1 if last >= 0 else start), failure, True
                if pending is not None and pending.offset == last and not _digest_ok(pending):
                    blamed = pending
                elif pending is not None:
                    yield pending
                pending = None
            elif first_try and last < 0:
                bad_from, first_try = start, False  # the failing record starts here
            start = _find_next(fh, max(start, last) + 1, magic)
        if pending is not None:
            yield pending
        if bad_from is not None:
            yield _region_error(p, bad_from, size, reason, blamed)


def _digest_ok(e: Entry) -> bool:
    """True when the record at ``e`` has a WARC-Block-Digest and it matches
    (then the bytes after it, not the record, are at fault)."""
    ArchiveIterator, _ = _fastwarc()
    try:
        with open(e.path, "rb") as f:
            f.seek(e.offset)
            rec = next(iter(ArchiveIterator(f, parse_http=False, stream_detect=True)), None)
            if rec is None or not rec.headers.get("WARC-Block-Digest"):
                return False
            rec.freeze()
            return bool(rec.verify_block_digest())
    except OSError:
        return False


def _region_error(p: Path, a: int, b: int, reason: str, record: Entry | None = None) -> Entry:
    if record is not None:
        return Entry("warc", str(p), record.offset, record.url,
                     error=f"WARC record longer than its Content-Length: the bytes after it "
                           f"(to offset {b}) are no WARC record ({reason}); "
                           "record and bytes skipped")
    return Entry("warc", str(p), a, error=f"corrupt WARC data ({reason}); "
                                          f"bytes {a}-{b} unreadable, skipped")


def read_entry(e: Entry) -> tuple[bytes, str | None]:
    """The page bytes of an entry and the charset declared by its transport.

    Raises RecordError (with the reason) when the record is unusable: error
    entries, unreadable files, truncated or non-HTML WARC records, HTTP
    statuses other than 2xx.
    """
    if e.error:
        raise RecordError(e.error)
    if e.kind == "file":
        try:
            return read_page(e.path), None
        except ParseError as err:
            raise RecordError(str(err)) from None
        except OSError as err:
            raise RecordError(f"cannot read: {err.strerror or err}") from None
    if e.kind == "jsonl":
        with open(e.path, "rb") as f:
            f.seek(e.offset)
            obj = json.loads(f.readline())
        return obj["html"].encode("utf-8", "surrogatepass"), "utf-8"
    ArchiveIterator, _ = _fastwarc()
    with open(e.path, "rb") as f:
        f.seek(e.offset)
        try:
            rec = next(iter(ArchiveIterator(f, parse_http=False, stream_detect=True)), None)
            if rec is None:
                raise RecordError("WARC record not found at offset")
            is_http = (rec.headers.get("Content-Type") or "").startswith("application/http")
            rec.freeze()
            declared_len = rec.headers.get("Content-Length") or ""
            if declared_len.isdigit() and rec.content_length < int(declared_len):
                raise RecordError(f"truncated WARC record ({rec.content_length} of "
                                  f"{declared_len} bytes)")
            if rec.headers.get("WARC-Block-Digest") and not rec.verify_block_digest():
                raise RecordError("corrupt WARC record (WARC-Block-Digest mismatch)")
            if is_http:
                rec.parse_http()
            block_len = rec.content_length
            data = rec.reader.read()
        except OSError as err:
            raise RecordError(f"corrupt WARC record: {err}") from None
        declared = rec.headers.get("Content-Length")
        if is_http:
            status = (rec.http_headers.status_code or 0) if rec.http_headers else 0
            if not 200 <= status < 300:
                raise RecordError(f"HTTP status {status}, not a page")
            ctype = (rec.http_content_type or "").lower()
            charset = rec.http_charset
        else:
            ctype = (rec.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            charset = None
        if len(data) < block_len or (not is_http and declared and len(data) < int(declared)):
            raise RecordError(f"truncated WARC record ({len(data)} of {block_len} bytes)")
        if ctype and "html" not in ctype:
            raise RecordError(f"not HTML (Content-Type {ctype})")
        return data, charset
