"""The public surface: a short, guarded ``__all__``."""

from __future__ import annotations

import temex


def test_exported_members() -> None:
    assert sorted(temex.__all__) == sorted([
        "ChunksDetector", "Document", "IntersectDetector", "RTDMDetector", "ModelFormatError", "NotFittedError",
        "PageLoadError", "ParameterError", "ParseError", "TemexError", "TemplateModel",
        "VoteDetector", "crawl", "etdm", "explore", "extract_files", "get_detector", "get_equality",
        "parse", "render",
    ])
    for name in temex.__all__:
        assert hasattr(temex, name), name


def test_errors_are_catchable_as_builtins() -> None:
    assert issubclass(temex.ParseError, ValueError)
    assert issubclass(temex.PageLoadError, OSError)
    assert issubclass(temex.NotFittedError, AttributeError)
    assert issubclass(temex.NotFittedError, ValueError)
    for e in (temex.ParseError, temex.PageLoadError, temex.NotFittedError,
              temex.ParameterError, temex.ModelFormatError):
        assert issubclass(e, temex.TemexError)
