"""The page of ``temex serve`` as a person meets it:
the real ``temex serve --demo`` command, real headless Chromium.

Screenshots go to the test's tmp dir; ``TEMEX_SCREENSHOTS=docs/screenshots``
(re)generates the committed ones (with tests/test_web.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _webtools import HAVE_CHROMIUM, NO_CHROMIUM, REPO, screenshot_dirs, temex_serve

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)
#: The screenshots the docs show, each made by a browser test.
SCREENSHOTS = {"page": (1280, 820), "template": (1280, 820), "content": (1280, 820),
               "highlight": (1280, 820), "start": (1280, 820), "content-text": (1280, 820),
               "phone": (420, 900)}


@pytest.fixture(scope="module")
def demo_app() -> Iterator[str]:
    yield from temex_serve("--demo")


@pytest.fixture(scope="module")
def plain_app() -> Iterator[str]:
    yield from temex_serve()


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    if not HAVE_CHROMIUM:
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield b
        b.close()




def _shot(page, dirs: list[Path], name: str) -> None:  # type: ignore[no-untyped-def]
    for d in dirs:
        page.screenshot(path=str(d / f"{name}.png"))


def _run_example(page) -> None:  # type: ignore[no-untyped-def]
    page.click("#try-example")
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)


# -- 12. the start page ---------------------------------------------------------

@needs_chromium
def test_start_page_says_what_and_offers_the_demo(browser, demo_app, tmp_path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(demo_app + "/")
    what = page.locator("#what")
    expect(what).to_be_visible()
    assert "template" in what.inner_text() and "content" in what.inner_text()
    for term, words in (("CS size", "pages"), ("Method", "vote"), ("Equality", "label")):
        dt = page.locator("#help dt", has_text=term)
        expect(dt).to_be_visible()
        assert words in dt.locator("xpath=following-sibling::dd[1]").inner_text()
    for field in ("#n", "#method", "#equality"):  # explained where they are chosen
        described = page.get_attribute(field, "aria-describedby")
        assert described and page.locator("#" + described).is_visible()
    expect(page.locator("#example-on")).to_be_visible()
    expect(page.locator("#example-off")).to_be_hidden()
    _shot(page, screenshot_dirs(tmp_path), "start")
    _run_example(page)
    expect(page.locator("#pages li")).not_to_have_count(0)
    assert errors == []
    page.close()


@needs_chromium
def test_start_page_without_demo_says_how_to_get_one(browser, plain_app):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    page = browser.new_page()
    page.goto(plain_app + "/")
    expect(page.locator("#example-off")).to_be_visible()
    expect(page.locator("#example-off")).to_contain_text("temex serve --demo")
    expect(page.locator("#example-on")).to_be_hidden()
    page.close()


# -- 13. the content as text beside the page --------------------------------------

@needs_chromium
def test_content_view_shows_the_text_and_markdown(browser, demo_app, tmp_path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    page = browser.new_page(viewport={"width": 1280, "height": 820})
    page.goto(demo_app + "/")
    _run_example(page)
    expect(page.locator("#text-pane")).to_be_hidden()
    page.click("#toggle")  # template
    page.click("#toggle")  # content
    expect(page.locator("#view-name")).to_have_text("content")
    pane = page.locator("#text-pane")
    expect(pane).to_be_visible()
    text = page.locator("#content-text")
    expect(text).to_contain_text("Planting in autumn")
    assert "Home" not in text.inner_text().splitlines()  # the menu is template
    frame, box = page.locator("#viewer").bounding_box(), pane.bounding_box()
    assert frame and box and box["x"] >= frame["x"] + frame["width"] - 1  # beside the page
    _shot(page, screenshot_dirs(tmp_path), "content-text")
    page.click("#show-md")
    expect(text).to_contain_text("# Planting in autumn")
    page.click("#show-text")
    expect(text).not_to_contain_text("# Planting")
    page.close()


# -- 11. a phone-width screen --------------------------------------------------------

@needs_chromium
def test_page_fits_a_phone(browser, demo_app, tmp_path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    page = browser.new_page(viewport={"width": 420, "height": 900})
    page.goto(demo_app + "/")
    width = "() => document.documentElement.scrollWidth"
    assert page.evaluate(width) <= 420
    _run_example(page)
    assert page.evaluate(width) <= 420  # no sideways scrolling
    aside = page.locator("aside").bounding_box()
    assert aside and aside["width"] >= 300  # not a letter per line
    heading = page.locator("aside h2").first.bounding_box()
    assert heading and heading["height"] < 30  # one line
    graph = page.locator("#graph svg").bounding_box()
    assert graph
    labels = page.locator("#graph svg text")
    expect(labels).not_to_have_count(0)
    for k in range(labels.count()):
        b = labels.nth(k).bounding_box()
        assert b and b["x"] >= graph["x"] - 1 and b["x"] + b["width"] <= graph["x"] + graph["width"] + 1, \
            labels.nth(k).inner_text()
    _shot(page, screenshot_dirs(tmp_path), "phone")
    page.close()


# -- 14. the docs show screenshots the tests make ---------------------------------

def test_docs_screenshots_are_the_tests_screenshots() -> None:
    import struct

    shots = REPO / "docs" / "screenshots"
    web = (REPO / "docs" / "WEB.md").read_text("utf-8")
    for name, (w, _h) in SCREENSHOTS.items():
        png = shots / f"{name}.png"
        assert png.is_file(), png
        head = png.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">I", head[16:20])[0] == w, name  # the test's viewport
        assert f"screenshots/{name}.png" in web, name


# -- labels whole, no blocked scripts, code not broken mid-word --------

_LONG = ["/articles/2024/how-to-keep-seeds-dry-through-a-long-wet-winter/",
         "/articles/2024/the-balcony-herb-garden-that-survives-the-wind/",
         "/articles/2023/planting-fruit-trees-in-autumn-a-complete-guide/",
         "/articles/2023/composting-kitchen-waste-without-any-smell/"]


def _scripted_site(root: Path) -> Path:
    """Five pages sharing a menu, with long paths, scripts (inline, external)
    and inline event handlers."""
    nav = "".join(f'<li><a href="{p}">Article {k}</a></li>' for k, p in enumerate(_LONG))
    pages = {"/": "Home", **{p: f"Article {k}" for k, p in enumerate(_LONG)}}
    (root / "menu.js").parent.mkdir(parents=True, exist_ok=True)
    (root / "menu.js").write_text("document.body.dataset.menu = 'on';")
    for path, title in pages.items():
        d = root / path.strip("/")
        d.mkdir(parents=True, exist_ok=True)
        (d / "index.html").write_text(
            f"<!DOCTYPE html><html><head><title>{title}</title>"
            "<script>window.tracking = 1;</script><script src='/menu.js'></script></head>"
            f"<body onload='init()'><header><nav><ul>{nav}</ul></nav></header>"
            f"<main><h1>{title}</h1><p>The own text of {title}, different on every page, "
            f"about {path}.</p><img src='/none.png' alt='' onerror='this.remove()'></main>"
            "<footer>Footer of the scripted garden site</footer>"
            "<script>document.title += ' *';</script></body></html>")
    return root


@pytest.fixture(scope="module")
def scripted_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    from _webtools import static_site

    root = _scripted_site(tmp_path_factory.mktemp("scripted"))
    with static_site(root) as site:
        for app in temex_serve("--allow-host", site.split("//", 1)[1]):
            yield app, site


def _extract(page, app: str, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(app + "/")
    page.fill("#url", url)
    page.fill("#n", "4")
    page.click("#extract")
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)


@needs_chromium
def test_preview_runs_no_script_and_logs_no_blocked_one(browser, scripted_app):  # type: ignore[no-untyped-def]
    """Scripts are stripped from the sandboxed preview instead of being
    blocked there (each blocked one was a console error)."""
    from playwright.sync_api import expect
    app, site = scripted_app
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    _extract(page, app, site + _LONG[0])
    frame = page.frame_locator("#viewer")
    expect(frame.locator("h1")).to_have_text("Article 0")
    page.click("#toggle")  # template view: the preview is loaded again
    expect(page.locator("#view-name")).to_have_text("template")
    page.wait_for_timeout(500)
    blocked = [m for m in console if "Blocked script execution" in m]
    assert blocked == [], blocked[:3]
    expect(frame.locator("footer")).to_contain_text("Footer of the scripted garden site")
    page.close()


@needs_chromium
@pytest.mark.parametrize("width", [1280, 420])
def test_graph_labels_are_whole_and_apart(browser, scripted_app, width):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    app, site = scripted_app
    page = browser.new_page(viewport={"width": width, "height": 900})
    _extract(page, app, site + _LONG[0])
    # every label of the link graph is inside the picture, none over another
    svg = page.locator("#graph svg").bounding_box()
    labels = page.locator("#graph svg text")
    expect(labels).not_to_have_count(0)
    boxes = [labels.nth(k).bounding_box() for k in range(labels.count())]
    assert svg and all(boxes)
    for b in boxes:
        assert b["x"] >= svg["x"] - 1 and b["x"] + b["width"] <= svg["x"] + svg["width"] + 1
        assert b["y"] >= svg["y"] - 1 and b["y"] + b["height"] <= svg["y"] + svg["height"] + 1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)
    # and each page's whole path is said, not cut
    listed = page.locator("#graph-pages li").all_inner_texts()
    for path in _LONG[1:]:
        assert any(path in t.replace("\n", "") for t in listed), (path, listed)
    page.close()


_BREAKS = """(el) => {
  // the characters after which the text of el goes to a new line
  const node = el.firstChild, out = [];
  if (!node || node.nodeType !== 3) return out;
  const r = document.createRange();
  let top = null;
  for (let i = 0; i < node.length; i++) {
    r.setStart(node, i); r.setEnd(node, i + 1);
    const rects = r.getClientRects();
    if (!rects.length) continue;
    const t = Math.round(rects[0].top);
    if (top !== null && t > top + 2) out.push(i);
    top = t;
  }
  return out;
}"""


@needs_chromium
@pytest.mark.parametrize("app", ["demo_app", "plain_app"])
def test_inline_code_wraps_between_words_on_a_phone(browser, app, request):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 420, "height": 900})
    page.goto(request.getfixturevalue(app) + "/")
    checked = 0
    for code in page.locator("code").all():
        if not code.is_visible():
            continue
        text = code.inner_text()
        for i in page.evaluate(_BREAKS, code.element_handle()):
            # a new line may start after a space, or inside a word too long
            # for the line (a URL): never inside a short word
            word = max(text[:i].split(" ")[-1:] + [""], key=len) + text[i:].split(" ")[0]
            assert text[i - 1] == " " or text[i] == " " or len(word) > 30, (text, i)
        checked += 1
    assert checked
    page.close()
