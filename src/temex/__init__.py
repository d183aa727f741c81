"""temex: site-level web template extraction.

Give it a key page and a few pages of the same site; it maps their DOM trees
(exact top-down mapping, ETDM paper) and returns the key page's template and,
by difference, the page's own content.

The package is layered (docs/ARCHITECTURE.md): ``page`` (one document) <
``template`` (compare pages, detectors, saved templates) < ``site`` (sources,
links, candidate search, the URL runner) < ``content`` (main content and
outputs) < ``batch``, ``web``, ``api``, ``evaluate`` < ``cli``. Lower layers
never import higher ones.
"""

from __future__ import annotations

import logging

from .api import extract_files
from .content.render import render
from .errors import (
    ModelFormatError,
    NotFittedError,
    PageLoadError,
    ParameterError,
    ParseError,
    TemexError,
)
from .page.dom import Document, parse
from .template.detectors import IntersectDetector, VoteDetector, get_detector
from .template.detectors.chunks import ChunksDetector
from .template.detectors.rtdm import RTDMDetector
from .template.equality import get_equality
from .template.mapping import etdm
from .template.model import TemplateModel

__all__ = [
    "ChunksDetector",
    "Document",
    "IntersectDetector",
    "ModelFormatError",
    "NotFittedError",
    "PageLoadError",
    "ParameterError",
    "ParseError",
    "RTDMDetector",
    "TemexError",
    "TemplateModel",
    "VoteDetector",
    "crawl",
    "etdm",
    "explore",
    "extract_files",
    "get_detector",
    "get_equality",
    "parse",
    "render",
]

__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())


def __getattr__(name: str) -> object:
    # explore loads the network stack (aiohttp): imported on first use only.
    if name == "crawl":  # the crawler (network stack), on first use too
        from .crawler import crawl

        return crawl
    if name == "explore":
        from .site.explore import explore

        return explore
    raise AttributeError(f"module 'temex' has no attribute {name!r}")
