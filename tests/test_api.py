"""The public surface: a short, guarded ``__all__``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import temex


def test_exported_members() -> None:
    assert sorted(temex.__all__) == sorted([
        "ChunksDetector", "Document", "IntersectDetector", "RTDMDetector", "ModelFormatError", "NotFittedError",
        "PageLoadError", "ParameterError", "ParseError", "TemexError", "TemplateModel",
        "VoteDetector", "bare_extraction", "crawl", "etdm", "explore", "extract", "extract_files", "extract_site", "get_detector", "get_equality",
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


_ARTICLE = ("<html lang='en'><head><title>Seeds</title><meta name='author' content='Ann'></head>"
            "<body><nav><a href='/'>Home</a> <a href='/blog'>Blog</a></nav><article><h1>Saving seeds</h1>"
            + "<p>Dry the seeds on paper for a week, then keep them in a cool place. </p>" * 8
            + "<p>When the seeds are dry, read <a href='/tips'>our tips</a> on labelling the paper"
            " bags with the plant and the year before you store them away.</p></article>"
            "<footer><p>Copyright Greenleaf, all rights reserved</p></footer></body></html>")


def test_extract_one_call() -> None:
    md = temex.extract(_ARTICLE.encode(), url="https://ex.org/blog/seeds")
    assert md.startswith("# Saving seeds\n\nDry the seeds")
    assert "[our tips](https://ex.org/tips)" in md
    text = temex.extract(_ARTICLE, format="text")
    assert text.splitlines()[0] == "Saving seeds" and "Copyright" not in text
    assert "<h1>Saving seeds</h1>" in temex.extract(_ARTICLE, format="html")
    rep = json.loads(temex.extract(_ARTICLE, url="https://ex.org/s", format="json"))
    assert rep["metadata"]["authors"] == ["Ann"] and rep["text"] == text
    fm = temex.extract(_ARTICLE, url="https://ex.org/s", front_matter=True)
    assert fm.startswith('---\nurl: "https://ex.org/s"\ntitle: "Seeds"\n')
    assert temex.extract("<p>") == ""
    with pytest.raises(temex.ParameterError):
        temex.extract(_ARTICLE, format="pdf")


def _site_page(k: int) -> str:
    words = ["tomato", "basil", "carrot", "onion", "pepper", "lettuce"]
    story = " ".join(f"The {words[k]} bed, row {words[(k + j) % 6]}, grew well after the {words[j % 6]}"
                     f" rain this week." for j in range(12))
    shared = ("Our shop sells seeds, tools and compost for every garden, delivered "
              "to your door within three days of your order, all year round.")
    return (f"<html><head><title>Story {k}</title></head><body><div class='main'>"
            f"<h2>Story {k}</h2><p>{story}</p><p>{shared}</p></div></body></html>")


def test_extract_site_uses_other_pages() -> None:
    key, others = _site_page(0), [_site_page(k) for k in range(1, 6)]
    assert "Our shop sells seeds" in temex.extract(key, format="text")
    site = temex.extract_site(key, others, format="text")
    assert "The tomato bed" in site and "Our shop sells seeds" not in site
    rep = json.loads(temex.extract_site(key, [o.encode() for o in others], format="json"))
    # 2+ other pages of the site: the page level less the site's repeated text
    # (ContentParams.site_page; the rules' blocks where it keeps much less)
    assert rep["scorer"] == "page" and rep["site"] and rep["text"] == site


def test_readme_sample_is_current() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    html = readme.split("```html\n", 1)[1].split("\n```", 1)[0]
    md = readme.split("````markdown\n", 1)[1].split("\n````", 1)[0]
    assert temex.extract(html, url="https://greenleaf.example/blog/saving-seeds/",
                         front_matter=True) == md


# -- wrong types said at the entry, unusable input is None ----------------

@pytest.mark.parametrize("bad", [42, ["<p>x</p>"], {"html": "<p>"}])
def test_wrong_types_are_a_clear_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match=r"^temex\.extract: html must be the page as bytes or "
                                        r"str, not \w+$"):
        temex.extract(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^temex\.extract_site: html must be"):
        temex.extract_site(bad, [])  # type: ignore[arg-type]
    for item in (bad, None):
        with pytest.raises(TypeError, match=r"^temex\.extract_site: every item of pages must"):
            temex.extract_site(_ARTICLE, [_ARTICLE, item])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="url must be a str"):
        temex.extract(_ARTICLE, url=42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pages must be an iterable"):
        temex.extract_site(_ARTICLE, 7)  # type: ignore[arg-type]


def test_no_page_returns_none_and_logs_why(caplog: pytest.LogCaptureFixture) -> None:
    """None (a download that failed) is answered as trafilatura answers it."""
    import logging

    with caplog.at_level(logging.WARNING, logger="temex"):
        assert temex.extract(None) is None
        assert temex.extract_site(None, [_ARTICLE]) is None
        assert temex.bare_extraction(None) is None
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "temex.extract", "temex.extract_site", "temex.bare_extraction"]


@pytest.mark.parametrize("unusable", ["", b"", "   \n\t", b"\x89PNG\r\n\x1a\n" + bytes(64)])
def test_unusable_input_returns_none_and_logs_why(unusable: bytes | str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    import logging

    with caplog.at_level(logging.WARNING, logger="temex"):
        assert temex.extract(unusable) is None
        assert temex.extract(unusable, format="json") is None
        assert temex.extract_site(unusable, [_ARTICLE]) is None
    reasons = [r.getMessage() for r in caplog.records]
    assert len(reasons) == 3 and all("no usable HTML, returning None" in m for m in reasons)
    assert ("empty" in reasons[0]) or ("binary" in reasons[0])
    # an unusable other page of the site is skipped, not fatal
    assert "Saving seeds" in (temex.extract_site(_ARTICLE, [unusable, _ARTICLE]) or "")


def test_extract_site_maps_the_page_with_its_most_similar_pages() -> None:
    """By default the site decision also reads the page's template mask fitted
    on its most similar other pages (as ``temex content`` does); ``mapping=False``
    decides on the text counts alone."""
    key, others = _site_page(0), [_site_page(k) for k in range(1, 6)]
    mapped = json.loads(temex.extract_site(key, others, format="json"))
    counts = json.loads(temex.extract_site(key, others, format="json", mapping=False))
    assert mapped["site"] == "decision, mapped" and counts["site"] == "decision"
    assert "The tomato bed" in mapped["text"] and "Our shop sells seeds" not in mapped["text"]
    assert "The tomato bed" in counts["text"] and "Our shop sells seeds" not in counts["text"]
