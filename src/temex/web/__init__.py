"""``temex serve``: a page for people (TeMex's toggle view) and a JSON API.

Modules: :mod:`.app` (Starlette ASGI app), :mod:`.jobs` (URL extraction jobs,
shared with ``temex extract URL``), :mod:`.security` (address guard, caps,
concurrency), :mod:`.views` (page/template/content views),
:mod:`.browser` (rendering through headless Chromium). See docs/WEB.md.
"""

__all__ = ["create_app"]


def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
    """Lazy import of :func:`temex.web.app.create_app` (Starlette is optional)."""
    from .app import create_app as _create
    return _create(*args, **kwargs)
