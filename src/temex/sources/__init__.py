"""Page sources for exploring a site: live HTTP, an on-disk cache, a local
mirror. See :mod:`temex.sources.base` for the interface."""

from __future__ import annotations

from .base import HTML_TYPES, FetchResult, PageSource, SyncSource, content_type
from .cache import DiskCache
from .http import USER_AGENT, HttpSource
from .mirror import MirrorSource
from .netguard import AddressRefused, check_address, is_public_address

__all__ = ["FetchResult", "PageSource", "SyncSource", "HttpSource", "MirrorSource",
           "DiskCache", "AddressRefused", "check_address", "is_public_address",
           "USER_AGENT", "HTML_TYPES", "content_type"]
