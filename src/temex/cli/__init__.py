"""The ``temex`` command line: the parser and dispatch in :mod:`.main`, one
module per sub-command."""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["build_parser", "main"]
