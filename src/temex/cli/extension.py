"""``temex extension``: write the browser extension shipped in the package
(``temex/extension``: Manifest V3, one source for Chromium and Firefox) to a
folder, to load it unpacked (docs/EXTENSION.md)."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from .common import EXIT_OK, UsageError, say

__all__ = ["EXTENSION", "add_parser", "cmd_extension"]

#: The extension's sources inside the package.
EXTENSION = Path(__file__).resolve().parents[1] / "extension"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "extension", help="write the browser extension (unpacked) to a folder",
        description="Write the temex browser extension (Chromium and Firefox, Manifest V3) "
                    "to DIR, to load it unpacked: chrome://extensions, developer mode, "
                    "'Load unpacked'; or Firefox about:debugging, 'Load Temporary Add-on' "
                    "(its manifest.json). Its button shows the template of the page you "
                    "are on; it needs `temex serve` running. See docs/EXTENSION.md.")
    p.add_argument("dir", nargs="?", default="temex-extension", metavar="DIR",
                   help="folder to write (default: ./temex-extension); it must be new or "
                        "empty")
    p.add_argument("--force", action="store_true",
                   help="write into DIR even if it is not empty (the extension's files "
                        "replace theirs; other files stay)")
    p.set_defaults(func=cmd_extension)
    return p


def files() -> list[Path]:
    """The extension's files, relative to :data:`EXTENSION`."""
    return sorted(f.relative_to(EXTENSION) for f in EXTENSION.rglob("*")
                  if f.is_file() and "__pycache__" not in f.parts)


def cmd_extension(args: argparse.Namespace) -> int:
    out = Path(args.dir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not args.force:
        raise UsageError(f"{out}: folder not empty; not overwritten (--force writes the "
                         "extension's files into it)")
    if not (EXTENSION / "manifest.json").is_file():  # pragma: no cover - broken install
        raise UsageError(f"the extension is missing from this install ({EXTENSION})")
    names = files()
    for rel in names:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(EXTENSION / rel, out / rel)
    say(f"the temex extension ({len(names)} files) is in {out}/: load it unpacked in "
        "chrome://extensions (developer mode, 'Load unpacked') or Firefox about:debugging "
        "('Load Temporary Add-on', its manifest.json); it talks to `temex serve` on "
        "http://127.0.0.1:8000 (see docs/EXTENSION.md)", "extension")
    return EXIT_OK
