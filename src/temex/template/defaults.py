"""Detector defaults, importable without the detectors (the CLI builds its
flags from them; the detectors, the rules and the relations use them)."""

from __future__ import annotations

__all__ = ["DEFAULT_EQUALITY", "DEFAULT_N_PAGES", "DEFAULT_REGION", "EQUALITIES"]

#: Node equality relation used by default (docs/journal (core)).
DEFAULT_EQUALITY = "label"
#: Names of the relations of :mod:`temex.template.equality` (its ``EQUALITIES``
#: keys; a test checks they agree).
EQUALITIES = ("label", "strict", "text", "class", "weighted")
#: Candidate pages compared with the key page by default (offline pools, where
#: a page costs a file read). Measured in docs/journal (core): with a strict
#: majority, 4 pages give 0.985/0.987 mean template/content F1 against
#: 0.979/0.982 for 3; time grows linearly with n.
DEFAULT_N_PAGES = 4
#: Share of the page's own non-link text the content region must hold. Chosen
#: on the development data (docs/journal (core)): 0.7 to 0.8 give the same
#: node-level F1 on the shared sites; 0.7 is a little better on the content
#: datasets (0.913 / 0.859 against 0.905 / 0.854 on CleanPortalEval / Dragnet).
DEFAULT_REGION = 0.7
