"""The crawl's state in SQLite (``OUTDIR/crawl.sqlite``): the frontier, every
page's fetch state and validators, and small facts (``meta``).

A page row moves ``queued`` → ``done`` (a body was had, or 304 Not Modified)
or ``error`` (a one-line reason) or ``skipped`` (robots.txt: nothing sent), or becomes ``alias`` (the target of another
URL's redirect, never fetched itself). Each fetch is committed with the links
it found, so a crawl killed at any moment resumes with what it had: pages
done are not fetched again, the frontier goes on.

Generations: a crawl that finished and is run again starts generation
``gen + 1``: every page is queued again and fetched with a conditional
request (``If-None-Match`` / ``If-Modified-Since``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["CrawlState", "PageRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY,
    key TEXT UNIQUE NOT NULL,
    url TEXT NOT NULL,
    depth INTEGER NOT NULL,
    via TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    gen INTEGER NOT NULL DEFAULT 0,
    final_url TEXT, status INTEGER, error TEXT,
    etag TEXT, last_modified TEXT,
    body_hash TEXT, charset TEXT, media_type TEXT,
    changed INTEGER NOT NULL DEFAULT 0,
    fetched_at REAL,
    out_path TEXT, out_hash TEXT
);
CREATE INDEX IF NOT EXISTS pages_queue ON pages (state, depth, id);
"""

PageRow = dict[str, Any]


class CrawlState:
    """SQLite store of one crawl (one writer: the crawl's event loop)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = sqlite3.connect(str(self.path), isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -- meta ------------------------------------------------------------------
    def get_meta(self, k: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT v FROM meta WHERE k=?", (k,)).fetchone()
        return json.loads(row[0]) if row else default

    def set_meta(self, k: str, v: Any) -> None:
        self.db.execute("INSERT INTO meta(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v=excluded.v",
                        (k, json.dumps(v)))

    # -- frontier --------------------------------------------------------------
    def add(self, items: Iterable[tuple[str, str, int, str]]) -> None:
        """Queue ``(key, url, depth, via)`` items not seen before; a known
        queued page keeps the smaller depth."""
        cur = self.db.cursor()
        cur.execute("BEGIN")
        for key, url, depth, via in items:
            cur.execute("INSERT INTO pages(key, url, depth, via, gen) VALUES(?, ?, ?, ?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET depth=excluded.depth "
                        "WHERE pages.state='queued' AND excluded.depth < pages.depth",
                        (key, url, depth, via, self.gen))
        cur.execute("COMMIT")

    @property
    def gen(self) -> int:
        return int(self.get_meta("gen", 0))

    def next_queued(self, limit: int, max_depth: int | None, exclude: set[int]) -> list[PageRow]:
        q = "SELECT * FROM pages WHERE state='queued'"
        args: list[Any] = []
        if max_depth is not None:
            q += " AND depth <= ?"
            args.append(max_depth)
        q += " ORDER BY depth, id LIMIT ?"
        args.append(limit + len(exclude))
        rows = [dict(r) for r in self.db.execute(q, args)]
        return [r for r in rows if r["id"] not in exclude][:limit]

    def n_fetched(self) -> int:
        """Pages fetched (done or error) in the current generation."""
        return int(self.db.execute("SELECT COUNT(*) FROM pages WHERE state IN ('done', 'error') "
                                   "AND gen=?", (self.gen,)).fetchone()[0])

    def n_queued(self, max_depth: int | None) -> int:
        if max_depth is None:
            return int(self.db.execute("SELECT COUNT(*) FROM pages WHERE state='queued'")
                       .fetchone()[0])
        return int(self.db.execute("SELECT COUNT(*) FROM pages WHERE state='queued' AND depth<=?",
                                   (max_depth,)).fetchone()[0])

    def record(self, page_id: int, fields: dict[str, Any],
               links: Iterable[tuple[str, str, int, str]] = (),
               alias: tuple[str, str, int] | None = None) -> None:
        """Store one fetch and the links it found, in one transaction."""
        fields = dict(fields, gen=self.gen, fetched_at=time.time())
        cols = ", ".join(f"{k}=?" for k in fields)
        cur = self.db.cursor()
        cur.execute("BEGIN")
        cur.execute(f"UPDATE pages SET {cols} WHERE id=?", (*fields.values(), page_id))
        if alias is not None:
            key, url, depth = alias
            cur.execute("INSERT INTO pages(key, url, depth, via, state, gen) "
                        "VALUES(?, ?, ?, 'redirect', 'alias', ?) "
                        "ON CONFLICT(key) DO UPDATE SET state='alias' WHERE pages.state='queued'",
                        (key, url, depth, self.gen))
        for key, url, depth, via in links:
            cur.execute("INSERT INTO pages(key, url, depth, via, gen) VALUES(?, ?, ?, ?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET depth=excluded.depth "
                        "WHERE pages.state='queued' AND excluded.depth < pages.depth",
                        (key, url, depth, via, self.gen))
        cur.execute("COMMIT")

    def new_generation(self) -> int:
        """Queue every known page again for a re-crawl; returns the new generation."""
        g = self.gen + 1
        self.db.execute("BEGIN")
        self.set_meta("gen", g)
        self.db.execute("UPDATE pages SET state='queued', changed=0 WHERE state IN "
                        "('done', 'error', 'skipped')")
        self.db.execute("COMMIT")
        return g

    # -- processing --------------------------------------------------------------
    def pages(self, states: tuple[str, ...] = ("done", "error")) -> list[PageRow]:
        marks = ",".join("?" * len(states))
        return [dict(r) for r in self.db.execute(
            f"SELECT * FROM pages WHERE state IN ({marks}) ORDER BY depth, key", states)]

    def set_output(self, page_id: int, path: str | None, digest: str | None) -> None:
        self.db.execute("UPDATE pages SET out_path=?, out_hash=? WHERE id=?",
                        (path, digest, page_id))

    def counts(self) -> dict[str, int]:
        return {r[0]: int(r[1]) for r in self.db.execute(
            "SELECT state, COUNT(*) FROM pages GROUP BY state")}
