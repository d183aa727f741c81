"""DiskCache: an on-disk cache of fetched pages, one pair of files per URL.

Key: the URL asked for (SHA-256 names the files). Value: status, final URL,
media type, charset, redirects (``<key>.json``) and the body (``<key>.body``).
Successful responses and HTTP error statuses are stored; network failures
(timeouts, resets) are not, so they are retried next run. Entries never expire:
the cache serves repeatable offline runs, not freshness.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .base import FetchResult

__all__ = ["DiskCache"]


class DiskCache:
    """Folder cache of :class:`FetchResult` (see module docstring).

    Cost: two small file reads per hit, two writes per store.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def _base(self, url: str) -> Path:
        h = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.folder / h[:2] / h

    def get(self, url: str) -> FetchResult | None:
        base = self._base(url)
        try:
            meta = json.loads(base.with_suffix(".json").read_text("utf-8"))
            body = base.with_suffix(".body").read_bytes()
        except (OSError, ValueError):
            return None
        if meta.get("url") != url:
            return None
        return FetchResult(url, meta.get("final_url", url), status=int(meta.get("status", 0)),
                           body=body, charset=meta.get("charset"),
                           media_type=meta.get("media_type", ""), error=meta.get("error"),
                           from_cache=True, redirects=list(meta.get("redirects", [])))

    def put(self, res: FetchResult) -> None:
        base = self._base(res.url)
        base.parent.mkdir(parents=True, exist_ok=True)
        meta = {"url": res.url, "final_url": res.final_url, "status": res.status,
                "charset": res.charset, "media_type": res.media_type, "error": res.error,
                "redirects": res.redirects}
        # body first, metadata last and atomically: a half-written entry is a miss
        tmp = base.with_suffix(".tmp")
        base.with_suffix(".body").write_bytes(res.body)
        tmp.write_text(json.dumps(meta), "utf-8")
        os.replace(tmp, base.with_suffix(".json"))
