"""The compiled kernel, used only when it can be trusted.

The kernel is one Cython extension module per compiled layer, one job each,
beside the Python it speeds up (:data:`LAYERS`; the page and content
packages have two each): ``temex.page._kernel`` reads selectolax's
Lexbor tree by address with struct layouts declared in temex's own source
(``page/_lexbor.pxd``), ``temex.page._array_kernel`` loops over the arrays
it builds (blocks, keys, words, name flags), ``temex.template._kernel``
maps two pages' trees, ``temex.content._kernel`` computes the content
scorer's feature rows, ``temex.content._scorer_kernel`` its stages, trees
and the output's keep mask, and ``temex.content._text_kernel`` writes text
lines and Markdown (walking the tree with the page layer's walk).
:data:`TWINS` names, for each compiled function, the Python function it
twins. The kernel is used only when

1. every layer was built (``pip install .`` compiles them; without a C
   compiler, or with ``TEMEX_BUILD_KERNEL=0`` at install time, none is; a
   partial build runs the pure-Python path too, and says which is missing);
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
:func:`get` gives every layer's functions in one namespace (``k.flatten``,
``k.feature_rows``), or None; :func:`status` says which path runs and why;
``temex --version`` prints it. The check runs once per process, on first use
(about a millisecond).

This module names the higher layers' compiled modules as data and imports
them by name; it imports no Python module of theirs, and they import
(``cimport``) only each other's compiled modules (the page layer's walk
and tag flags, the scorer's float sum).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

__all__ = ["LAYERS", "SELECTOLAX_VERSIONS", "TWINS", "get", "layers", "register_check",
           "status"]

#: selectolax releases that compile in the Lexbor 3.1 whose layouts
#: ``_lexbor.pxd`` declares (each release's sources were compared).
SELECTOLAX_VERSIONS = frozenset({"1.0.0", "1.0.1", "1.0.2"})

#: The compiled layers, lowest first (setup.py builds the same list).
LAYERS = ("temex.page._kernel", "temex.page._array_kernel", "temex.template._kernel",
          "temex.content._scorer_kernel", "temex.content._kernel", "temex.content._text_kernel")

#: Each compiled function and the Python function it twins: the one that
#: holds the pure-Python path it must equal (for a helper only the kernel
#: needs, the Python function that calls it). tests/test_kernel.py checks
#: that both sides resolve and that every compiled function is named here;
#: the layers' tests run on both paths (tests/conftest.py).
TWINS: dict[str, str] = {
    # page: the Lexbor reader, the walk and the tag flags it reads
    "temex.page._kernel.node_fields": "selectolax.lexbor.LexborNode",
    "temex.page._kernel.flatten": "temex.page.dom._flatten",
    "temex.page._kernel.collapse": "temex.page.dom._flatten",
    "temex.page._kernel.events": "temex.page.walk.pure_event_list",
    "temex.page._kernel.tag_flags": "temex.page.blocks.tag_flags",
    # page: the loops over a Document's arrays
    "temex.page._array_kernel.subtree_hashes": "temex.page.dom.Document._compute_hash",
    "temex.page._array_kernel.attribute_values": "temex.page.dom.Document.attribute_values",
    "temex.page._array_kernel.possible_starts": "temex.page.dom._count_starts",
    "temex.page._array_kernel.page_blocks": "temex.page.blocks.page_blocks",
    "temex.page._array_kernel.subtree_sums": "temex.page.blocks.subtree_sums",
    "temex.page._array_kernel.join_pieces": "temex.page.blocks.Blocks.joined",
    "temex.page._array_kernel.words_of": "temex.page.blocks.Blocks.words",
    "temex.page._array_kernel.norm_keys": "temex.page.blocks.norm_key",
    "temex.page._array_kernel.name_index": "temex.page.names.name_flags",
    "temex.page._array_kernel.flags_by_index": "temex.page.names.name_flags",
    "temex.page._array_kernel.ancestor_counts": "temex.page.names.ancestor_counts",
    "temex.page._array_kernel.flagged_below": "temex.page.names.flagged_below",
    "temex.page._array_kernel.vocabulary": "temex.site.pool.vocabulary",
    # template: the exact top-down mapping, a saved template's match
    "temex.template._kernel.etdm_exact": "temex.template.mapping._Aligner",
    "temex.template._kernel.key_signatures": "temex.template.mapping.signatures",
    "temex.template._kernel.reached_mask": "temex.template.saved._reached_mask",
    "temex.template._kernel.reached_mask_cached": "temex.template.saved._reached_mask",
    # content: the scorer's rows; its stages, the output's keep mask
    "temex.content._kernel.feature_rows": "temex.content.features.block_features",
    "temex.content._kernel.context_rows": "temex.content.features.context_features",
    "temex.content._scorer_kernel.logistic": "temex.content.scorer._stage",
    "temex.content._scorer_kernel.Forest": "temex.content.scorer.Forest",
    "temex.content._scorer_kernel.dot": "builtins.sum",
    "temex.content._scorer_kernel.psum": "builtins.sum",
    "temex.content._scorer_kernel.keep_mask": "temex.content.output.Content.keep_mask",
    # text: text lines and the Markdown writer
    "temex.content._text_kernel.text_lines_kept": "temex.content.text.text_lines",
    "temex.content._text_kernel.markdown": "temex.content.text.markdown_text",
}

_state: tuple[Any, str] | None = None

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
    """Every layer's compiled functions in one namespace, or None when the
    pure-Python path runs."""
    global _state
    if _state is None:
        _state = _load()
    return _state[0]


def status() -> str:
    """One line: which path runs and why."""
    get()
    assert _state is not None
    return _state[1]


def layers() -> SimpleNamespace:
    """Every layer's compiled module imported, their public names in one
    namespace (untrusted: :func:`get` checks it first). ImportError naming
    the layers that are not built."""
    missing, found = [], []
    for name in LAYERS:
        try:
            found.append(importlib.import_module(name))
        except ImportError:
            missing.append(name)
    if missing:
        raise ImportError(f"missing: {', '.join(missing)}" if found else "")
    merged: dict[str, Any] = {}
    for module in found:
        for attr, value in vars(module).items():
            if attr.startswith("_"):
                continue
            if attr in merged:
                raise ImportError(f"{attr} is in two layers")
            merged[attr] = value
    return SimpleNamespace(**merged)


def _load() -> tuple[Any, str]:
    if os.environ.get("TEMEX_KERNEL", "1") == "0":
        return None, "compiled kernel off (TEMEX_KERNEL=0): pure-Python path"
    try:
        k = layers()
    except ImportError as e:
        why = f" ({e})" if str(e) else ""
        return None, f"compiled kernel not built{why}: pure-Python path"
    import selectolax
    from selectolax import lexbor

    version = getattr(selectolax, "__version__", "?")
    found = (getattr(lexbor, "LEXBOR_VERSION_MAJOR", None),
             getattr(lexbor, "LEXBOR_VERSION_MINOR", None))
    if version not in SELECTOLAX_VERSIONS or found != k.LAYOUT["lexbor"]:
        return None, (f"compiled kernel off: selectolax {version} (Lexbor {found[0]}.{found[1]}) "
                      "is not a version whose layout it declares "
                      f"({', '.join(sorted(SELECTOLAX_VERSIONS))}): pure-Python path")
    if _check is None:
        return None, "compiled kernel off: no self-check registered: pure-Python path"
    try:
        wrong = _check(k)
    except Exception as e:  # noqa: BLE001 - a wrong reading can raise anywhere: off
        wrong = f"{type(e).__name__}: {e}"
    if wrong:
        return None, f"compiled kernel off: self-check failed ({wrong}): pure-Python path"
    return k, (f"compiled kernel on ({len(LAYERS)} layers; selectolax {version}, "
               f"Lexbor {found[0]}.{found[1]})")
