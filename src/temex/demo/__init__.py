"""The demo site shipped with temex (``temex demo``): a small hand-made site
whose pages share one template, in the same layout as the shared test sites
(``site.json`` + ``www/``)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEMO_SITE"]

#: Folder of the demo site (``site.json`` and ``www/``).
DEMO_SITE = Path(__file__).resolve().parent / "greenleaf"
