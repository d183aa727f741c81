"""The output formats of :func:`temex.content.render.render`, importable
without the renderer (the CLI lists them in its help)."""

from __future__ import annotations

__all__ = ["FORMATS"]

FORMATS = ("template", "annotated", "content", "markdown", "html", "json")
