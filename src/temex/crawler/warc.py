"""Raw responses of a crawl as WARC/1.1 ``response`` records
(``OUTDIR/responses.warc.gz``, one gzip member per record, appended), so
that ``temex batch`` can redo the processing offline.

The HTTP head is rebuilt from what the fetcher kept (status, Content-Type,
ETag, Last-Modified, Date) and the body is the decoded one (no
Content-Encoding), as WARC readers expect of a re-written response.
"""

from __future__ import annotations

import gzip
import uuid
from base64 import b32encode
from datetime import datetime, timezone
from hashlib import sha1
from http import HTTPStatus
from pathlib import Path

from ..site.sources.base import FetchResult

__all__ = ["WarcWriter"]


class WarcWriter:
    """Append ``response`` records to a ``.warc.gz`` file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.n = 0

    def response(self, res: FetchResult) -> None:
        try:
            reason = HTTPStatus(res.status).phrase
        except ValueError:
            reason = ""
        head = [f"HTTP/1.1 {res.status} {reason}".rstrip()]
        headers = dict(res.headers)
        headers.setdefault("Content-Type", res.media_type or "text/html")
        headers["Content-Length"] = str(len(res.body))
        head += [f"{k}: {v}" for k, v in headers.items()]
        block = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1", "replace") + res.body
        date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        digest = "sha1:" + b32encode(sha1(res.body).digest()).decode()
        target = res.final_url or res.url
        warc = (f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
                f"WARC-Date: {date}\r\nWARC-Target-URI: {target}\r\n"
                f"WARC-Payload-Digest: {digest}\r\n"
                f"Content-Type: application/http; msgtype=response\r\n"
                f"Content-Length: {len(block)}\r\n\r\n").encode() + block + b"\r\n\r\n"
        with open(self.path, "ab") as f:
            f.write(gzip.compress(warc))
        self.n += 1
