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


class PageError:
    """A page that could not be used, and why (immutable; equal when page and
    error are: a frozen dataclass written out, since ``dataclasses`` costs
    ``temex --help`` a few milliseconds of start-up)."""

    __slots__ = ("page", "error")
    page: str
    error: str

    def __init__(self, page: str, error: str) -> None:
        object.__setattr__(self, "page", page)
        object.__setattr__(self, "error", error)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, PageError)
        return (self.page, self.error) == (other.page, other.error)

    def __hash__(self) -> int:
        return hash((self.page, self.error))

    def __repr__(self) -> str:
        return f"PageError(page={self.page!r}, error={self.error!r})"

    def as_dict(self) -> dict[str, str]:
        return {"page": self.page, "error": self.error}
