"""Output writers and done-markers.

Layout of OUTDIR::

    sites/<site>.jsonl           one object per input record of the site
    sites/<site>.warc.gz         (--output-format warc) conversion records
    sites/<site>.errors.jsonl    (warc format only) the site's error records
    templates/<site>.c<k>.template.json   the saved templates used
    done/<site>.json             done-marker: written last, with the counts
    index_errors.jsonl           records unusable before grouping (corrupt WARC
                                 regions, malformed JSON lines)
    summary.json                 totals of the last run

Files are written to ``*.part`` and renamed when complete, so an interrupted
run never leaves a half file that looks finished; a site is finished when its
done-marker exists (:func:`is_done`).

WARC output is written by hand (WARC/1.1, one gzip member per record), since
FastWARC only reads here; records are ``conversion`` records with
``Content-Type: text/plain`` holding the cleaned text, ``WARC-Target-URI`` and
``WARC-Refers-To-Target-URI``.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import uuid
from base64 import b32encode
from datetime import datetime, timezone
from hashlib import blake2b, sha1
from pathlib import Path
from typing import Any

__all__ = ["site_filename", "SiteWriter", "is_done", "mark_done", "write_jsonl_atomic"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def site_filename(site: str) -> str:
    """A file-system-safe, collision-free name for a site key: a web site's
    key as it is (``example.org``), a local folder (``dir:/abs/path/NAME``)
    by its own name and its parent's (``site_www``, not the whole absolute
    path), a file by its name; then a hash of the whole key."""
    shown = site
    if site.startswith(("dir:", "file:", "warc:", "jsonl:")):
        kind, _, path = site.partition(":")
        parts = [x for x in path.replace("\\", "/").split("/") if x]
        shown = "_".join(parts[-2:] if kind == "dir" else parts[-1:])
    base = _SAFE.sub("_", shown).strip("_")[:80] or "site"
    return f"{base}-{blake2b(site.encode(), digest_size=4).hexdigest()}"


def is_done(outdir: Path, site: str) -> dict[str, Any] | None:
    """The done-marker of ``site`` (its counts) or None."""
    f = outdir / "done" / (site_filename(site) + ".json")
    try:
        return json.loads(f.read_text("utf-8"))  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


def mark_done(outdir: Path, site: str, counts: dict[str, Any]) -> None:
    d = outdir / "done"
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / (site_filename(site) + ".json.part")
    tmp.write_text(json.dumps({"site": site, **counts}), encoding="utf-8")
    os.replace(tmp, d / (site_filename(site) + ".json"))


def write_jsonl_atomic(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with tmp.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def _warc_record(url: str, text: str, date: str) -> bytes:
    body = text.encode("utf-8")
    digest = "sha1:" + b32encode(sha1(body).digest()).decode()
    rid = uuid.uuid5(uuid.NAMESPACE_URL, "temex:" + url)
    head = (f"WARC/1.1\r\nWARC-Type: conversion\r\nWARC-Record-ID: <urn:uuid:{rid}>\r\n"
            f"WARC-Date: {date}\r\nWARC-Target-URI: {url}\r\n"
            f"WARC-Refers-To-Target-URI: {url}\r\n"
            f"WARC-Block-Digest: {digest}\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n\r\n")
    return gzip.compress(head.encode("utf-8") + body + b"\r\n\r\n", mtime=0)


class SiteWriter:
    """Collects a site's output rows and writes them atomically on close."""

    def __init__(self, outdir: Path, site: str, fmt: str = "jsonl",
                 part: int | None = None) -> None:
        self.outdir, self.site, self.fmt = outdir, site, fmt
        self.part = part  # chunk of a site spread over workers: NAME.partK.*
        self.rows: list[dict[str, Any]] = []

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)

    def close(self) -> None:
        name = site_filename(self.site) + ("" if self.part is None else f".part{self.part}")
        sites = self.outdir / "sites"
        if self.fmt == "jsonl":
            write_jsonl_atomic(sites / f"{name}.jsonl", self.rows)
            return
        sites.mkdir(parents=True, exist_ok=True)
        date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        tmp = sites / f"{name}.warc.gz.part"
        with tmp.open("wb") as f:
            for r in self.rows:
                if "error" not in r:
                    f.write(_warc_record(r.get("url") or r["source"], r["content"], date))
        os.replace(tmp, sites / f"{name}.warc.gz")
        write_jsonl_atomic(sites / f"{name}.errors.jsonl",
                           [r for r in self.rows if "error" in r])
