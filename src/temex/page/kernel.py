"""The compiled kernel (``temex.page._kernel``), used only when it can be
trusted.

The kernel reads selectolax's Lexbor tree by address with struct layouts
declared in temex's own source (``_kernel.pyx``), so it is used only when

1. it was built (``pip install .`` compiles it; without a C compiler, or
   with ``TEMEX_BUILD_KERNEL=0`` at install time, it is not);
2. the installed selectolax is one whose Lexbor it declares
   (:data:`SELECTOLAX_VERSIONS`, Lexbor 3.1);
3. before reading any element, the node fields it reads agree with
   selectolax's own accessors on a probe document (``mem_id`` of parent,
   children and siblings, ``tag_id``, the node type), and then the whole
   probe document reads the same through the kernel as through the
   pure-Python reader: every array of the Document, the addresses, and the
   text walk's events; and its dot product adds floats as this Python's
   ``sum`` does (:mod:`temex.page.kernel_check`);
4. ``TEMEX_KERNEL=0`` is not set in the environment.

Otherwise temex runs the pure-Python path: the same output, slower.
:func:`status` says which path runs and why; ``temex --version`` prints it.
The check runs once per process, on first use (about a millisecond).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["SELECTOLAX_VERSIONS", "get", "register_check", "status"]

#: selectolax releases that compile in the Lexbor 3.1 whose layouts
#: ``_kernel.pyx`` declares (each release's sources were compared).
SELECTOLAX_VERSIONS = frozenset({"1.0.0", "1.0.1", "1.0.2"})

_state: tuple[ModuleType | None, str] | None = None

#: The self-check (:func:`temex.page.kernel_check.self_check`): "" when the
#: kernel reads its probe document as the pure-Python reader does, else what
#: differs. It sits above the readers it compares (dom, walk, blocks), which
#: sit above this module; the page package registers it on import.
_check: Callable[[Any], str] | None = None


def register_check(check: Callable[[Any], str]) -> None:
    """Set the self-check :func:`get` runs before trusting the kernel."""
    global _check
    _check = check



def get() -> Any:
    """The kernel module, or None when the pure-Python path runs."""
    global _state
    if _state is None:
        _state = _load()
    return _state[0]


def status() -> str:
    """One line: which path runs and why."""
    get()
    assert _state is not None
    return _state[1]


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("TEMEX_KERNEL", "1") == "0":
        return None, "compiled kernel off (TEMEX_KERNEL=0): pure-Python path"
    try:
        from . import _kernel
    except ImportError:
        return None, "compiled kernel not built: pure-Python path"
    import selectolax
    from selectolax import lexbor

    version = getattr(selectolax, "__version__", "?")
    found = (getattr(lexbor, "LEXBOR_VERSION_MAJOR", None),
             getattr(lexbor, "LEXBOR_VERSION_MINOR", None))
    if version not in SELECTOLAX_VERSIONS or found != _kernel.LAYOUT["lexbor"]:
        return None, (f"compiled kernel off: selectolax {version} (Lexbor {found[0]}.{found[1]}) "
                      "is not a version whose layout it declares "
                      f"({', '.join(sorted(SELECTOLAX_VERSIONS))}): pure-Python path")
    if _check is None:
        return None, "compiled kernel off: no self-check registered: pure-Python path"
    try:
        wrong = _check(_kernel)
    except Exception as e:  # noqa: BLE001 - a wrong reading can raise anywhere: off
        wrong = f"{type(e).__name__}: {e}"
    if wrong:
        return None, f"compiled kernel off: self-check failed ({wrong}): pure-Python path"
    return _kernel, f"compiled kernel on (selectolax {version}, Lexbor {found[0]}.{found[1]})"
