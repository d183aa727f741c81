"""Serve a folder on 127.0.0.1 in a background thread (tests, benchmarks,
offline demos): ``with serve_folder(root) as base: explore(base + "/a/")``.

The stdlib ``http.server`` maps ``/a/`` to ``a/index.html``, like the shared
data's README prescribes. Only the loopback interface is bound.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["serve_folder"]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_folder(root: str | Path) -> Iterator[str]:
    """Serve ``root`` on ``127.0.0.1`` (free port); yields ``http://127.0.0.1:PORT``."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    t = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        t.join(timeout=5)
