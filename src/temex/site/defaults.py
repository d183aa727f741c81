"""Defaults of exploring a live site, importable without the network stack
(the CLI builds its flags from them; :mod:`temex.site.explore` uses them)."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_LOADS", "DEFAULT_N", "ORDERS"]

#: CS size sought by default (chosen by measurement: docs/EXPLORATION.md).
DEFAULT_N = 3
#: Most pages requested by default, key page included: ``DEFAULT_N + 1``
#: (mean loads <= 4 counting every request; an incomplete CS is
#: filled from the pages loaded, and a budget of 5 gave the same F1 on every
#: shared site; chosen leave-one-site-out, docs/EXPLORATION.md).
DEFAULT_MAX_LOADS = DEFAULT_N + 1  # the key page and n more
#: Orders in which a key page's links are tried.
ORDERS = ("menu", "menublock", "paper", "document")
