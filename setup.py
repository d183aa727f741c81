"""Build of temex's one compiled module, ``temex.page._kernel`` (Cython, issue 24).

The metadata lives in pyproject.toml; this file only adds the extension. It
is optional: without a C compiler or Cython, or with ``TEMEX_BUILD_KERNEL=0``
in the environment, temex installs without it and runs the pure-Python path
(same output, slower; ``temex --version`` says which path runs).
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
            _skip(e)


def _skip(e: BaseException) -> None:
    print(f"temex: compiled kernel not built ({type(e).__name__}: {e}); "
          "the pure-Python path will run", file=sys.stderr)


def _extensions() -> list:  # type: ignore[type-arg]
    if os.environ.get("TEMEX_BUILD_KERNEL", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as e:
        _skip(e)
        return []
    ext = Extension("temex.page._kernel", ["src/temex/page/_kernel.pyx"],
                    extra_compile_args=(["-O2", "-ffp-contract=off"] if os.name == "posix" else []))
    try:
        return cythonize([ext], compiler_directives={"language_level": "3"}, quiet=True)
    except Exception as e:  # noqa: BLE001 - Cython failed: install without the kernel
        _skip(e)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
