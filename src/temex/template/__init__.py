"""The template layer: compare pages and decide which nodes are template.

``equality`` holds the node relations, ``mapping`` the exact top-down mapping
(ETDM), ``detectors`` one module per detector with the shared rules and the
registry, ``model`` the fitted :class:`~temex.template.model.TemplateModel`,
``site_index`` the site's repeated block texts, ``saved`` a site's template
saved as JSON and applied to any of its pages.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import TemplateModel

__all__ = ["TemplateModel"]


def __getattr__(name: str) -> object:
    # loaded on first use: ``template.defaults`` alone must stay cheap (CLI help)
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(".model", __name__), name)
    globals()[name] = value
    return value
