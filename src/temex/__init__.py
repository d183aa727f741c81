"""temex: site-level web template extraction.

Give it a key page and a few pages of the same site; it maps their DOM trees
(exact top-down mapping, ETDM paper) and returns the key page's template and,
by difference, the page's own content.
"""

from __future__ import annotations

import logging

from .chunks import ChunksDetector
from .detectors import IntersectDetector, VoteDetector, get_detector
from .dom import Document, parse
from .equality import get_equality
from .errors import (
                     ModelFormatError,
                     NotFittedError,
                     PageLoadError,
                     ParameterError,
                     ParseError,
                     TemexError,
)
from .mapping import etdm
from .model import TemplateModel
from .rtdm import RTDMDetector

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
    "etdm",
    "get_detector",
    "get_equality",
    "parse",
]

__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())
