"""Exceptions raised by temex.

Every temex error derives from :class:`TemexError`; each layer's error also
subclasses the built-in exception a caller would naturally catch::

    TemexError
    ├── ParseError (ValueError)          bytes that cannot become a DOM tree
    ├── PageLoadError (OSError)          a page that could not be read or fetched
    ├── NotFittedError (ValueError, AttributeError)
    │                                    a detector used before ``fit``
    ├── ParameterError (ValueError)      a parameter outside its allowed values
    └── ModelFormatError (ValueError)    a saved TemplateModel that cannot be read

Failures of single pages during a run are *not* raised: they become records with
a reason (:class:`PageError`) and the run goes on. Exceptions are
for misuse and for failures that leave nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ModelFormatError",
    "NotFittedError",
    "PageError",
    "PageLoadError",
    "ParameterError",
    "ParseError",
    "TemexError",
]


class TemexError(Exception):
    """Root of all temex errors."""


class ParseError(TemexError, ValueError):
    """HTML that cannot be turned into a DOM tree (empty, not HTML, too large)."""


class PageLoadError(TemexError, OSError):
    """A page that could not be read (missing file, HTTP error, refused URL)."""


class NotFittedError(TemexError, ValueError, AttributeError):
    """A detector or model used before ``fit`` was called."""


class ParameterError(TemexError, ValueError):
    """A parameter with a value outside its documented range.

    The message names the parameter, what is allowed and what was received.
    """

    def __init__(self, name: str, allowed: str, received: object) -> None:
        super().__init__(f"parameter {name!r} must be {allowed}; got {received!r}")
        self.name = name
        self.allowed = allowed
        self.received = received


class ModelFormatError(TemexError, ValueError):
    """A saved template model whose format or version is not understood."""


@dataclass(frozen=True)
class PageError:
    """A page that could not be used, and why."""

    page: str
    error: str

    def as_dict(self) -> dict[str, str]:
        return {"page": self.page, "error": self.error}
