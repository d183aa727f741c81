"""Progress of long commands on stderr (``content``, ``batch``, ``fit``,
``eval``, URL exploration).

* stderr is a terminal: a live bar with counts, rate and ETA (tqdm);
* stderr is not a terminal (a log, CI): one plain line every
  ``TEMEX_PROGRESS_EVERY`` seconds (default 5; 0: every update), and a last
  one; a run shorter than that prints none;
* ``-q``: nothing.
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Progress"]


def _every() -> float:
    try:
        return max(0.0, float(os.environ.get("TEMEX_PROGRESS_EVERY", "5")))
    except ValueError:
        return 5.0


def _clock(s: float) -> str:
    s = int(s)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """``with Progress(total, "content", "pages", quiet) as p: p.update(k)``."""

    def __init__(self, total: int | None, command: str, unit: str = "pages",
                 quiet: bool = False, stream: TextIO | None = None,
                 force_tty: bool | None = None, every: float | None = None) -> None:
        self.stream = stream or sys.stderr
        self.command, self.unit = command, unit
        self.total = total
        self.n = 0
        self.quiet = quiet
        tty = self.stream.isatty() if force_tty is None else force_tty
        self.bar: Any = None
        self.t0 = time.monotonic()
        self.last = self.t0  # the first plain line comes after `every` seconds
        self.printed = False
        self.every = _every() if every is None else every
        self.command_stage = ""
        if not quiet and tty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=f"temex {command}", unit=f" {unit}",
                            file=self.stream, dynamic_ncols=True, leave=False)

    def set_total(self, total: int) -> None:
        self.total = total
        if self.bar is not None:
            self.bar.total = total
            self.bar.refresh()

    def stage(self, name: str, total: int) -> None:
        """Start counting a new stage (``parse``, ``extract``) from 0 to ``total``."""
        if self.quiet:
            return
        self.total, self.n = total, 0
        self.t0 = time.monotonic()
        if self.bar is not None:
            self.bar.reset(total=total)
            self.bar.set_description(f"temex {self.command} ({name})")
        else:
            self.command_stage = name
            self.last = self.t0

    def set_description(self, text: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(text[:60], refresh=False)

    def update(self, n: int) -> None:
        """Set the count done to ``n`` (absolute)."""
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.update(n - self.n)
            self.n = n
            return
        self.n = n
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self.printed = True
            self._line()

    def _line(self) -> None:
        el = time.monotonic() - self.t0
        rate = self.n / el if el > 0 else 0.0
        total = f"/{self.total}" if self.total is not None else ""
        eta = ""
        if self.total and rate > 0 and self.n < self.total:
            eta = f", ETA {_clock((self.total - self.n) / rate)}"
        stage = f" ({self.command_stage})" if self.command_stage else ""
        print(f"temex {self.command}{stage}: [{self.n}{total} {self.unit}] {rate:.1f} {self.unit}/s"
              f"{eta}, {_clock(el)} elapsed", file=self.stream, flush=True)

    def close(self) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.printed:  # a long run: its last count
            self._line()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
