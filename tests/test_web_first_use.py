"""The page of ``temex serve`` where a first user trips: a refused URL said
once in the page's terms, rendering offered only where it can run, one
default page budget, the content text filling its pane, the intro kept
after a failure. The real ``temex serve`` command, real headless Chromium."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _webtools import request, screenshot_dirs, temex_serve, wait_job
from test_web_page import _run_example, _shot, browser, needs_chromium  # noqa: F401

REFUSED = "Refused: 10.0.0.1 is not a public address; this server fetches public addresses only"


@pytest.fixture(scope="module")
def demo_app() -> Iterator[str]:
    yield from temex_serve("--demo")


@pytest.fixture(scope="module")
def no_playwright(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``temex serve`` where the playwright package cannot be imported."""
    fake = tmp_path_factory.mktemp("noplaywright")
    (fake / "playwright").mkdir()
    (fake / "playwright" / "__init__.py").write_text(
        "raise ImportError('No module named playwright')\n")
    yield from temex_serve("--demo", path=(fake,))


@needs_chromium
def test_a_refused_url_is_said_once_in_the_pages_terms(browser, demo_app):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(demo_app + "/")
    page.fill("#url", "http://10.0.0.1/private/page")
    page.click("#extract")
    error = page.locator("#error")
    expect(error).to_have_text(REFUSED)
    text = error.inner_text()
    assert text.lower().count("refused") == 1 and "--" not in text  # no command-line flags
    # the intro and its help stay beside the error (a first user reads them now)
    expect(page.locator("#what")).to_be_visible()
    expect(page.locator("#help")).to_be_visible()
    page.close()


@needs_chromium
def test_a_failed_job_keeps_the_intro_and_help(browser, demo_app, tmp_path):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    example = json.loads(request("GET", demo_app + "/api/health")[2])["example"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(demo_app + "/")
    page.fill("#url", example.rstrip("/") + "/no/such/page.html")  # the demo server's 404
    page.click("#extract")
    error = page.locator("#error")
    expect(error).to_contain_text("The extraction failed: ", timeout=60_000)
    expect(page.locator("#what")).to_be_visible()
    expect(page.locator("#help")).to_be_visible()
    expect(page.locator("#extract")).to_be_enabled()
    _shot(page, [tmp_path], "failed")
    page.close()


@needs_chromium
def test_render_is_off_with_its_reason_where_it_cannot_run(browser, no_playwright):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    health = json.loads(request("GET", no_playwright + "/api/health")[2])
    assert health["render"] == {"available": False, "reason": "the playwright package is not "
                                "installed (pip install 'temex[render]')"}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(no_playwright + "/")
    box = page.locator("#render")
    expect(box).to_be_disabled()
    expect(page.locator("#render-off")).to_be_visible()
    expect(page.locator("#render-off")).to_contain_text("playwright package is not installed")
    page.close()
    # and the API refuses such a job before it starts, with the same reason
    status, _, body = request("POST", no_playwright + "/api/extract",
                              {"url": health["example"], "render": True})
    assert status == 400 and "playwright package is not installed" in json.loads(body)["error"]


@needs_chromium
def test_render_is_offered_where_it_can_run(browser, demo_app):  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect
    health = json.loads(request("GET", demo_app + "/api/health")[2])
    assert health["render"] == {"available": True, "reason": None}
    page = browser.new_page()
    page.goto(demo_app + "/")
    expect(page.locator("#render")).to_be_enabled()
    expect(page.locator("#render-off")).to_be_hidden()
    page.close()


def test_the_page_budget_has_one_default(demo_app):  # type: ignore[no-untyped-def]
    """Without ``max_loads``, a job loads the key page and n more, as the
    command line does; the docs and the API description say so."""
    example = json.loads(request("GET", demo_app + "/api/health")[2])["example"]
    for n in (2, 3):
        status, _, body = request("POST", demo_app + "/api/extract", {"url": example, "n": n})
        assert status == 202, body
        job = wait_job(demo_app, json.loads(body)["id"])
        start = next(e for e in job["events"] if e["type"] == "start")
        assert start["max_loads"] == n + 1, start
        # plain text has one name, content, and the others reach it too
        texts = {f: request("GET", f"{demo_app}/api/jobs/{job['id']}/output/{f}")[2]
                 for f in ("content", "text", "txt")}
        assert texts["content"] and len(set(texts.values())) == 1
    spec = json.loads(request("GET", demo_app + "/openapi.json")[2])
    loads = spec["components"]["schemas"]["Options"]["properties"]["max_loads"]
    assert "default" not in loads and "n + 1" in loads["description"]
    web = (Path(__file__).resolve().parents[1] / "docs" / "WEB.md").read_text("utf-8")
    assert "`max_loads` (n + 1: the key page and n more" in web


@needs_chromium
def test_the_content_text_fills_its_pane(browser, demo_app, tmp_path):  # type: ignore[no-untyped-def]
    """At 1280x900 the text box reaches the bottom of the page view beside
    it and scrolls inside (it stopped at 560 px, blank space below)."""
    from playwright.sync_api import expect
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(demo_app + "/")
    _run_example(page)
    page.click("#toggle")
    page.click("#toggle")
    text = page.locator("#content-text")
    expect(text).to_contain_text("Planting in autumn")
    frame, box, pane = (page.locator(s).bounding_box()
                        for s in ("#viewer", "#content-text", "#text-pane"))
    assert frame and box and pane
    assert abs((box["y"] + box["height"]) - (pane["y"] + pane["height"])) <= 2, (box, pane)
    assert abs((pane["y"] + pane["height"]) - (frame["y"] + frame["height"])) <= 2, (pane, frame)
    assert box["height"] > 600, box
    sizes = text.evaluate("e => [e.scrollHeight, e.clientHeight]")
    assert sizes[0] <= sizes[1] or text.evaluate("e => getComputedStyle(e).overflowY") == "auto"
    _shot(page, screenshot_dirs(tmp_path) + ([Path(os.environ["TEMEX_SHOT_DIR"])]
                                   if os.environ.get("TEMEX_SHOT_DIR") else []), "content-text-900")
    page.close()
