"""temex: site-level web template extraction.

Give it a key page and a few pages of the same site; it maps their DOM trees
(exact top-down mapping, ETDM paper) and returns the key page's template and,
by difference, the page's own content.

One call does it (each has its full help: ``help(temex.extract)``):

* ``extract(html, url=None, format="markdown")``: one page's main content
  (``content`` text, ``markdown``, ``html`` or a ``json`` report); None for no
  page or no HTML. trafilatura's names work too: ``output_format="txt"``,
  ``with_metadata=``, ``include_comments=``.
* ``bare_extraction(html, url=None)``: the same as a dict, with the metadata
  under trafilatura's keys (title, author, date, hostname, sitename, ...).
* ``extract_site(html, pages, url=None, format="markdown")``: one page's
  content with other pages of its site as evidence.
* ``extract_files(key_path, pages_dir=DIR)``: a key page's template from
  local files, a :class:`TemplateModel`; ``render(model, "annotated")``.
* ``explore(url)``: find the pages sharing a live page's template;
  ``crawl(url, outdir)``: a whole site to Markdown.

The package is layered (docs/ARCHITECTURE.md): ``page`` (one document) <
``template`` (compare pages, detectors, saved templates) < ``site`` (sources,
links, candidate search, the URL runner) < ``content`` (main content and
outputs) < ``batch``, ``web``, ``api``, ``evaluate`` < ``cli``. Lower layers
never import higher ones.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .errors import (
    ModelFormatError,
    NotFittedError,
    PageLoadError,
    ParameterError,
    ParseError,
    TemexError,
)

if TYPE_CHECKING:
    from .api import bare_extraction, extract, extract_files, extract_site
    from .content.render import render
    from .crawler import crawl
    from .page.dom import Document, parse
    from .site.explore import explore
    from .template.detectors import IntersectDetector, VoteDetector, get_detector
    from .template.detectors.chunks import ChunksDetector
    from .template.detectors.rtdm import RTDMDetector
    from .template.equality import get_equality
    from .template.mapping import etdm
    from .template.model import TemplateModel

#: Where each lazily loaded public name lives. Loading on first use keeps
#: ``import temex`` (and ``temex --help``) cheap; ``explore`` would load the
#: network stack (aiohttp).
_LAZY = {
    "ChunksDetector": ".template.detectors.chunks",
    "Document": ".page.dom",
    "IntersectDetector": ".template.detectors",
    "RTDMDetector": ".template.detectors.rtdm",
    "TemplateModel": ".template.model",
    "crawl": ".crawler",
    "VoteDetector": ".template.detectors",
    "etdm": ".template.mapping",
    "explore": ".site.explore",
    "bare_extraction": ".api",
    "extract": ".api",
    "extract_files": ".api",
    "extract_site": ".api",
    "get_detector": ".template.detectors",
    "get_equality": ".template.equality",
    "parse": ".page.dom",
    "render": ".content.render",
}

#: The one-call functions first, then the model and the parts, then errors.
__all__ = [
    "extract",
    "bare_extraction",
    "extract_site",
    "extract_files",
    "render",
    "explore",
    "crawl",
    "TemplateModel",
    "parse",
    "Document",
    "get_detector",
    "VoteDetector",
    "IntersectDetector",
    "RTDMDetector",
    "ChunksDetector",
    "etdm",
    "get_equality",
    "TemexError",
    "ParameterError",
    "ParseError",
    "PageLoadError",
    "ModelFormatError",
    "NotFittedError",
]

__version__ = "0.1.0"



def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'temex' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
