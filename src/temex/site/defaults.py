"""Defaults of exploring a live site, importable without the network stack
(the CLI builds its flags from them; :mod:`temex.site.explore` uses them)."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_LOADS", "DEFAULT_N", "ORDERS"]

#: CS size sought by default (chosen by measurement: docs/EXPLORATION.md).
DEFAULT_N = 3
#: Most pages loaded by default, key page included.
DEFAULT_MAX_LOADS = 10
#: Orders in which a key page's links are tried.
ORDERS = ("menu", "menublock", "paper", "document")
