"""Build of temex's compiled kernel (Cython): one extension module per
compiled layer, one job each, beside the Python it speeds up (:data:`LAYERS`;
the page and content packages have two each; they share
the Lexbor layouts of ``src/temex/page/_lexbor.pxd``, the page layer's
walk and tag flags through ``src/temex/page/_kernel.pxd`` and the scorer's
float sum through ``src/temex/content/_scorer_kernel.pxd``).

The metadata lives in pyproject.toml; this file only adds the extensions.
They are optional: without a C compiler or Cython, or with
``TEMEX_BUILD_KERNEL=0`` in the environment, temex installs without them and
runs the pure-Python path (same output, slower). An extension that fails to
build is skipped with a warning; :mod:`temex.page.kernel` runs the kernel
only when every layer's module imports, so a partial build runs the
pure-Python path too (``temex --version`` says which path runs and why).
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing: the kernel is an accelerator."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 - no compiler at all, etc.
            _skip(e)

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001 - the compiler failed on this extension
            _skip(e, ext.name)


def _skip(e: BaseException, layer: str = "") -> None:
    what = f"compiled kernel layer {layer}" if layer else "compiled kernel"
    print(f"temex: {what} not built ({type(e).__name__}: {e}); "
          "the pure-Python path will run", file=sys.stderr)


#: The compiled layers: module name, source (temex.page.kernel.LAYERS names the same).
LAYERS = (("temex.page._kernel", "src/temex/page/_kernel.pyx"),
          ("temex.page._array_kernel", "src/temex/page/_array_kernel.pyx"),
          ("temex.template._kernel", "src/temex/template/_kernel.pyx"),
          ("temex.content._scorer_kernel", "src/temex/content/_scorer_kernel.pyx"),
          ("temex.content._kernel", "src/temex/content/_kernel.pyx"),
          ("temex.content._text_kernel", "src/temex/content/_text_kernel.pyx"))


def _extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("TEMEX_BUILD_KERNEL", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as e:
        _skip(e)
        return []
    args = ["-O2", "-ffp-contract=off"] if os.name == "posix" else []
    exts = [Extension(name, [source], extra_compile_args=args) for name, source in LAYERS]
    try:
        return cythonize(exts, compiler_directives={"language_level": "3"}, include_path=["src"],
                         quiet=True)
    except Exception as e:  # noqa: BLE001 - Cython failed: install without the kernel
        _skip(e)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
