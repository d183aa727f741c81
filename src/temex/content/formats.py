"""The output formats of :func:`temex.content.render.render`, importable
without the renderer (the CLI lists them in its help), and the other names
of plain text.

Plain text (one block per line) is ``content`` everywhere: in every command's
``-f``, the web API's outputs and :func:`temex.extract`'s ``format``.
``text`` (an older name of ``temex content -f`` and of ``temex.extract``) and
``txt`` (trafilatura's name) are accepted for it wherever a format is named.
"""

from __future__ import annotations

__all__ = ["FORMATS", "FORMAT_ALIASES", "canonical_format"]

FORMATS = ("template", "annotated", "content", "markdown", "html", "json")

#: Other names of a format, accepted wherever a format is named.
FORMAT_ALIASES = {"text": "content", "txt": "content"}


def canonical_format(name: str) -> str:
    """The format's own name: ``text`` and ``txt`` are ``content``; any
    other name as given (the caller checks it is one of its formats)."""
    return FORMAT_ALIASES.get(name, name)
