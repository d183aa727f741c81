"""The template layer: compare pages and decide which nodes are template.

``equality`` holds the node relations, ``mapping`` the exact top-down mapping
(ETDM), ``detectors`` one module per detector with the shared rules and the
registry, ``model`` the fitted :class:`~temex.template.model.TemplateModel`,
``site_index`` the site's repeated block texts, ``saved`` a site's template
saved as JSON and applied to any of its pages.
"""

from __future__ import annotations

from .model import TemplateModel

__all__ = ["TemplateModel"]
