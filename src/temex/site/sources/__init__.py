"""Page sources for exploring a site: live HTTP, an on-disk cache, a local
mirror. See :mod:`temex.site.sources.base` for the interface."""

from __future__ import annotations

from .base import HTML_TYPES, FetchResult, PageSource, SyncSource, content_type
from .cache import DiskCache
from .http import USER_AGENT, HttpSource
from .mirror import MirrorSource
from .netguard import AddressRefused, check_address, is_public_address

__all__ = [
           "HTML_TYPES",
           "USER_AGENT",
           "AddressRefused",
           "DiskCache",
           "FetchResult",
           "HttpSource",
           "MirrorSource",
           "PageSource",
           "SyncSource",
           "check_address",
           "content_type",
           "is_public_address",
]
