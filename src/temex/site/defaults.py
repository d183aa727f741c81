"""Defaults of exploring a live site, importable without the network stack
(the CLI builds its flags from them; :mod:`temex.site.explore` uses them)."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_LOADS", "DEFAULT_N", "ORDERS"]

#: CS size sought by default (chosen by measurement: docs/EXPLORATION.md).
DEFAULT_N = 3
#: Most pages loaded by default, key page included: ``DEFAULT_N + 2`` (issue
#: 9: no site above 5 loads on average; an incomplete CS is filled from the
#: pages loaded, so a larger budget bought little, docs/EXPLORATION.md).
DEFAULT_MAX_LOADS = 5
#: Orders in which a key page's links are tried.
ORDERS = ("menu", "menublock", "paper", "document")
