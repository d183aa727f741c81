"""The browser extension (``temex extension``) in real Chromium, over a real
``temex serve``: the page's template marked and shown in each view, the same
template nodes as ``temex extract URL -f annotated``; its local API refused
to web pages; its numbering of the live DOM against Lexbor's parse of it.

Screenshots go to the test's tmp dir; ``TEMEX_SCREENSHOTS=docs/screenshots``
also writes the ones the docs show (docs/EXTENSION.md).
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from _webtools import (
    screenshot_dirs,
    HAVE_CHROMIUM,
    NO_CHROMIUM,
    REPO,
    make_js_site,
    request,
    running,
    temex_serve,
)

from temex.web.extension_api import CLIENT_HEADER, NUMBER_ATTR, numbered_document

CHROMIUM = "/usr/bin/chromium"
#: The shared site of these tests: static, no scripts, a forum archive.
SITE = "opendcl-forum"
#: The screenshots the docs show: name -> viewport width.
SCREENSHOTS = {"extension-panel": 320, "extension-page": 1280, "extension-template": 1280,
               "extension-content": 1280}
needs_chromium = pytest.mark.skipif(not HAVE_CHROMIUM, reason=NO_CHROMIUM)

# Child-index path of an element from <html> ("": <html> itself), in the page.
_PATH_JS = """
(el) => { const p = [];
  while (el !== document.documentElement) {
    p.push(Array.prototype.indexOf.call(el.parentElement.children, el));
    el = el.parentElement; }
  return p.reverse().join("/"); }
"""
# Every element of <body> that can have a box: path, template mark, computed
# visibility, inline style.
_BOXES_JS = """
() => { const path = %s;
  const skip = new Set(["script", "style", "noscript", "template", "link", "meta"]);
  return [document.body, ...document.body.querySelectorAll("*")]
    .filter((el) => !skip.has(el.localName))
    .map((el) => [path(el), el.classList.contains("template_node"),
                  getComputedStyle(el).visibility, el.getAttribute("style")]); }
""" % _PATH_JS


def _site(data_dir: Path) -> tuple[Path, str]:
    meta = json.loads((data_dir / "sites" / SITE / "site.json").read_text("utf-8"))
    return data_dir / "sites" / SITE / "www" / meta.get("serve_root", "."), meta["key_pages"][0]


class _Logged:
    """A static site that records every path requested of it."""

    def __init__(self, root: Path) -> None:
        self.paths: list[str] = []
        log = self.paths

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                log.append(self.path)
                super().do_GET()

        self.handler = functools.partial(Handler, directory=str(root))




def _shot(page: Any, dirs: list[Path], name: str, **kw: Any) -> None:
    for d in dirs:
        page.screenshot(path=str(d / f"{name}.png"), **kw)


@pytest.fixture(scope="module")
def site(data_dir: Path) -> Iterator[tuple[str, str, _Logged]]:
    root, key = _site(data_dir)
    logged = _Logged(root)
    with running(logged.handler) as base:
        yield base, key, logged


@pytest.fixture(scope="module")
def app(site: tuple[str, str, _Logged]) -> Iterator[str]:
    base = site[0]
    yield from temex_serve("--allow-host", base.split("//", 1)[1])


@pytest.fixture(scope="module")
def extension(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ext") / "temex-extension"
    r = subprocess.run([sys.executable, "-m", "temex", "extension", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return out


def _launch(p: Any, profile: Path, ext: Path) -> Any:
    return p.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True,
        viewport={"width": 1280, "height": 820},
        args=["--headless=new", f"--disable-extensions-except={ext}",
              f"--load-extension={ext}", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-background-networking", "--disable-component-update",
              "--disable-sync"])


def _worker(ctx: Any) -> Any:
    """The extension's service worker. Sync Playwright dispatches events only
    inside its own calls (a ``time.sleep`` loop never sees the worker
    register), so wait for the event unless the worker came up with the
    launch."""
    if ctx.service_workers:
        return ctx.service_workers[0]
    return ctx.wait_for_event("serviceworker", timeout=60_000)


# -- the command -----------------------------------------------------------------

def test_extension_command_writes_the_extension_and_keeps_folders(tmp_path: Path) -> None:
    def temex(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "temex", "extension", *args],
                              capture_output=True, text=True, timeout=60)

    out = tmp_path / "ext"
    r = temex(str(out))
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["manifest_version"] == 3
    for name in ("popup.html", "popup.js", "content.js", "background.js",
                 *manifest["icons"].values()):
        assert (out / name).is_file(), name
    # a folder that is not empty is refused, nothing written; --force writes
    (out / "popup.js").write_text("mine")
    (out / "notes.txt").write_text("mine too")
    r = temex(str(out))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not empty" in r.stderr
    assert (out / "popup.js").read_text() == "mine"
    r = temex(str(out), "--force")
    assert r.returncode == 0, r.stderr
    assert (out / "popup.js").read_text() != "mine"
    assert (out / "notes.txt").read_text() == "mine too"
    (tmp_path / "file").write_text("x")
    assert temex(str(tmp_path / "file")).returncode == 2


# -- the extension in Chromium ------------------------------------------------------

@needs_chromium
def test_extension_marks_and_toggles_the_template(site: tuple[str, str, _Logged], app: str,
                                                  extension: Path, tmp_path: Path) -> None:
    """Open a page, open the extension's panel for its tab (popup.html?tab=ID
    in a tab of its own: headless Chromium has no toolbar to click), and
    check the marks and the three views against ``temex extract -f annotated``."""
    from playwright.sync_api import sync_playwright

    base, key, _ = site
    url = base + key
    dirs = screenshot_dirs(tmp_path)
    with sync_playwright() as p:
        ctx = _launch(p, tmp_path / "profile", extension)
        try:
            sw = _worker(ctx)
            ext_id = sw.url.split("/")[2]
            sw.evaluate("(s) => chrome.storage.local.set({server: s})", app)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(url)
            before = {b[0]: b for b in page.evaluate(_BOXES_JS)}
            tab_id = sw.evaluate("async () => (await chrome.tabs.query({active: true}))[0].id")
            panel = ctx.new_page()
            panel.set_viewport_size({"width": SCREENSHOTS["extension-panel"], "height": 240})
            panel.goto(f"chrome-extension://{ext_id}/popup.html?tab={tab_id}")
            panel.wait_for_selector("body[data-state=done], body[data-state=error]",
                                    timeout=120_000)
            assert panel.get_attribute("body", "data-state") == "done", \
                panel.inner_text("#message")
            assert panel.get_attribute("[data-view=template]", "aria-pressed") == "true"
            marked = int(panel.inner_text("#n-template"))
            pages = int(panel.inner_text("#n-pages"))
            loads = int(panel.inner_text("#n-loads"))
            assert marked > 0 and pages >= 1 and loads >= pages + 1
            assert panel.get_attribute("#open", "href") == \
                f"{app}/?url=" + url.replace(":", "%3A").replace("/", "%2F")
            _shot(panel, dirs, "extension-panel", full_page=True)

            # the template view: template as the page had it, the rest hidden
            boxes = page.evaluate(_BOXES_JS)
            template = {b[0] for b in boxes if b[1]}
            assert len(template) == marked
            assert 0 < marked < len(boxes)
            for path, is_t, vis, _style in boxes:
                assert vis == (before[path][2] if is_t else "hidden"), (path, is_t, vis)
            page.bring_to_front()
            _shot(page, dirs, "extension-template")

            # the same template nodes as `temex extract URL -f annotated`
            out = tmp_path / "annotated.html"
            r = subprocess.run([sys.executable, "-m", "temex", "extract", url, "-f",
                                "annotated", "-o", str(out), "-q",
                                "--allow-host", base.split("//", 1)[1]],
                               capture_output=True, text=True, timeout=240)
            assert r.returncode == 0, r.stderr
            other = ctx.new_page()
            other.route("**/*", lambda route: route.abort())  # the HTML alone
            other.set_content(out.read_text("utf-8"))
            annotated = set(other.evaluate(
                "() => [...document.querySelectorAll('.template_node')].map(%s)" % _PATH_JS))
            other.close()
            assert annotated == template

            # content: the template hidden, the rest as it was; page: as it was
            panel.bring_to_front()
            panel.click("[data-view=content]")  # the page's view changes before the button's
            panel.wait_for_selector("[data-view=content][aria-pressed=true]", timeout=10_000)
            for path, is_t, vis, _style in page.evaluate(_BOXES_JS):
                assert vis == ("hidden" if is_t else before[path][2]), (path, is_t, vis)
            page.bring_to_front()
            _shot(page, dirs, "extension-content")
            panel.bring_to_front()
            panel.click("[data-view=page]")  # the page's view changes before the button's
            panel.wait_for_selector("[data-view=page][aria-pressed=true]", timeout=10_000)
            for path, is_t, vis, style in page.evaluate(_BOXES_JS):
                assert (vis, style) == (before[path][2], before[path][3]), path
                assert is_t == (path in template)
            page.bring_to_front()
            _shot(page, dirs, "extension-page")

            # the panel opened again finds the page marked, without a new extraction
            panel.reload()
            panel.wait_for_selector("body[data-state=done]", timeout=30_000)
            assert int(panel.inner_text("#n-template")) == marked
            assert panel.get_attribute("[data-view=page]", "aria-pressed") == "true"
        finally:
            ctx.close()


@needs_chromium
def test_a_page_built_by_script_with_render(extension: Path, tmp_path: Path) -> None:
    """The tab's DOM is the page after its scripts ran: a header, menu and
    footer inserted by a script (absent from the HTML) are marked, the
    compared pages loaded through Chromium (the panel's render setting)."""
    from playwright.sync_api import sync_playwright

    root = make_js_site(tmp_path / "js")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    with running(handler) as base, sync_playwright() as p:
        app = temex_serve("--allow-host", base.split("//", 1)[1])
        app_url = next(app)
        ctx = _launch(p, tmp_path / "profile", extension)
        try:
            sw = _worker(ctx)
            ext_id = sw.url.split("/")[2]
            sw.evaluate("(s) => chrome.storage.local.set({server: s, render: true})", app_url)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(base + "/a.html")
            page.wait_for_selector(".js-footer")
            tab_id = sw.evaluate("async () => (await chrome.tabs.query({active: true}))[0].id")
            panel = ctx.new_page()
            panel.goto(f"chrome-extension://{ext_id}/popup.html?tab={tab_id}")
            assert panel.is_checked("#render")
            panel.wait_for_selector("body[data-state=done], body[data-state=error]",
                                    timeout=180_000)
            assert panel.get_attribute("body", "data-state") == "done", \
                panel.inner_text("#message")
            assert panel.locator("#note").is_hidden()  # no page-level fallback
            marked = page.evaluate("""() => Object.fromEntries(
                [".js-header", ".brand", ".js-menu", ".js-menu a", ".js-footer", "main h1",
                 "main p"].map((s) => [s, document.querySelector(s)
                                             .classList.contains("template_node")]))""")
            assert marked == {".js-header": True, ".brand": True, ".js-menu": True,
                              ".js-menu a": True, ".js-footer": True, "main h1": False,
                              "main p": False}, marked
        finally:
            ctx.close()
            app.close()


@needs_chromium
def test_panel_says_when_temex_is_not_running(extension: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from _webtools import free_port

    with sync_playwright() as p:
        ctx = _launch(p, tmp_path / "profile", extension)
        try:
            sw = _worker(ctx)
            ext_id = sw.url.split("/")[2]
            sw.evaluate("(s) => chrome.storage.local.set({server: s})",
                        f"http://127.0.0.1:{free_port()}")
            panel = ctx.new_page()
            panel.goto(f"chrome-extension://{ext_id}/popup.html")
            panel.wait_for_selector("body[data-state=no-temex]", timeout=30_000)
            assert "start it with temex serve" in " ".join(panel.inner_text("#message").split())
            assert panel.locator("#views").is_hidden()
        finally:
            ctx.close()


# -- the local API is the extension's alone ---------------------------------------

_LINKING = '<html><body><a href="/index.html">home</a><p>x</p></body></html>'
_EVIL = """<!doctype html><html><body><form id="f" method="post" enctype="text/plain"
action="{api}"><input name='{{"url":"{url}","html":"<html><body>x</body></html>","a":"'
value='"}}'></form><iframe name="sink"></iframe><script>
window.attempts = (async () => {{
  const out = {{}};
  const body = JSON.stringify({{url: "{url}", html: {html}}});
  try {{
    const r = await fetch("{api}", {{method: "POST", body,
      headers: {{"Content-Type": "application/json", "X-Temex-Extension": "1"}}}});
    out.cors = "answered " + r.status;
  }} catch (e) {{ out.cors = "refused"; }}
  try {{
    await fetch("{api}", {{method: "POST", mode: "no-cors", body,
                           headers: {{"Content-Type": "text/plain"}}}});
    out.simple = "sent";
  }} catch (e) {{ out.simple = "refused"; }}
  document.getElementById("f").target = "sink";
  document.getElementById("f").submit();
  return out;
}})();
</script></body></html>"""


def test_local_api_refuses_web_pages(site: tuple[str, str, _Logged], app: str,
                                     tmp_path: Path) -> None:
    """A page on another origin tries the API every way a page can (a CORS
    fetch with the extension's header, a "simple" no-cors post, a form post):
    refused, and temex fetched nothing of the site. Requests without an
    extension's Origin or header are refused as well."""
    base, key, logged = site
    url = base + key
    api = f"{app}/api/extension/template"
    # a page that links the site's home page: an extraction would load it
    body = {"url": url, "html": _LINKING}
    logged.paths.clear()
    for headers in ({},  # no Origin (curl, a script)
                    {"Origin": "http://evil.example", CLIENT_HEADER: "1"},
                    {"Origin": "null", CLIENT_HEADER: "1"},
                    {"Origin": "chrome-extension://abcdefghijklmnop"},  # no header
                    {"Origin": "https://chrome-extension.example", CLIENT_HEADER: "1"}):
        status, _, raw = request("POST", api, body, headers=headers)
        assert status == 403 and "extension" in json.loads(raw)["error"], headers
    # no CORS preflight is answered: no page may send the header
    status, hdrs, _ = request("OPTIONS", api, headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": CLIENT_HEADER})
    assert status >= 400 and "access-control-allow-origin" not in hdrs
    if HAVE_CHROMIUM:
        from playwright.sync_api import sync_playwright

        evil_root = tmp_path / "evil"
        evil_root.mkdir()
        (evil_root / "index.html").write_text(
            _EVIL.format(api=api, url=url, html=json.dumps(_LINKING)), "utf-8")
        evil_site = _Logged(evil_root)
        with running(evil_site.handler) as evil, sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = b.new_page()
                page.goto(evil + "/index.html")
                out = page.evaluate("() => window.attempts")
                page.wait_for_timeout(1000)  # the form post
            finally:
                b.close()
        assert out["cors"] == "refused", out
    assert logged.paths == []  # nothing of the site was fetched
    # the same request with the extension's Origin and header is served
    status, _, raw = request("POST", api, body, headers={
        "Origin": "chrome-extension://abcdefghijklmnop", CLIENT_HEADER: "1"})
    assert status == 200, raw
    assert logged.paths  # (the control: such a request does fetch the site)


def test_local_api_keeps_the_address_guard(app: str) -> None:
    """The tab's URL passes the guard as any URL: a private address that
    the operator did not allow is refused before anything is fetched."""
    status, _, raw = request("POST", f"{app}/api/extension/template",
                             {"url": "http://10.0.0.1/", "html": "<html><body>x</body></html>"},
                             headers={"Origin": "chrome-extension://abcdefghijklmnop",
                                      CLIENT_HEADER: "1"})
    assert status == 400 and "10.0.0.1" in json.loads(raw)["error"]


# -- numbering: the live DOM against Lexbor's parse of its serialisation -----------

_MADE = """<!doctype html><html><head><title>t</title></head><body>
<div id="a"><p>one</p></div><div id="b"></div><footer id="z"><span>end</span></footer>
<script>
  // trees the HTML parser never makes: they do not survive serialising
  const t = document.createElement("table");
  const tr = t.appendChild(document.createElement("tr"));   // no <tbody>
  tr.appendChild(document.createElement("td")).textContent = "cell";
  document.getElementById("a").prepend(t);
  const p = document.createElement("p");                    // <div> inside <p>
  p.appendChild(document.createElement("div")).textContent = "block in p";
  document.getElementById("b").append(p);
  const a = document.createElement("a");                   // <a> inside <a>
  a.href = "#x"; a.appendChild(document.createElement("a")).href = "#y";
  document.getElementById("b").append(a);
</script></body></html>"""


@needs_chromium
def test_numbers_name_live_elements_where_paths_would_not(tmp_path: Path) -> None:
    """The content script's serialisation of a DOM that scripts built the
    parser's way would not: Lexbor's parse differs from the live tree (child-
    index paths after the first difference name other elements), the numbers
    still name the elements they were given to."""
    from playwright.sync_api import sync_playwright

    script = (REPO / "src" / "temex" / "extension" / "content.js").read_text("utf-8")
    (tmp_path / "made.html").write_text(_MADE, "utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    with running(handler) as base, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = b.new_page()
            page.goto(base + "/made.html")
            page.add_script_tag(content=script)
            html = page.evaluate("() => globalThis.__temex.serialise()")
            live = page.evaluate("""() => { const out = []; const st = [document.documentElement];
                while (st.length) { const e = st.pop(); out.push([e.localName, e.id,
                  (%s)(e)]); st.push(...[...e.children].reverse()); } return out; }""" % _PATH_JS)
        finally:
            b.close()
    doc, numbers = numbered_document(html, base + "/made.html", 1 << 20)
    assert all(NUMBER_ATTR not in dict(a) for a in doc.attrs)  # nothing added is compared
    named = [(i, n) for i, n in enumerate(numbers) if n >= 0]
    assert len(named) == len(live)  # every live element is in the parse, once
    for i, n in named:
        assert doc.tag[i] == live[n][0] and doc.id[i] == live[n][1], (i, n)
    assert numbers.count(-1) >= 1  # the <tbody> the parser added
    # child-index paths of the parse do not name the same live elements
    def path(i: int) -> str:
        steps = []
        while doc.parent[i] >= 0:
            steps.append(str(doc.children[doc.parent[i]].index(i)))
            i = doc.parent[i]
        return "/".join(reversed(steps))

    wrong = [i for i, n in named if path(i) != live[n][2]]
    assert wrong  # where the trees differ
    footer = next(i for i, n in named if doc.id[i] == "z")
    assert doc.tag[footer] == "footer"


def test_docs_show_the_tests_screenshots() -> None:
    import struct

    shots = REPO / "docs" / "screenshots"
    doc = (REPO / "docs" / "EXTENSION.md").read_text("utf-8")
    for name, width in SCREENSHOTS.items():
        png = shots / f"{name}.png"
        head = png.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n", name
        assert struct.unpack(">I", head[16:20])[0] == width, name  # the test's viewport
        assert f"screenshots/{name}.png" in doc, name
    assert "docs/screenshots/extension-panel.png" in (REPO / "README.md").read_text("utf-8")


def test_local_api_bad_input_is_one_line(app: str) -> None:
    api = f"{app}/api/extension/template"
    ext = {"Origin": "chrome-extension://abcdefghijklmnop", CLIENT_HEADER: "1"}
    status, _, raw = request("POST", api, {"url": "http://127.0.0.1:1/"}, headers=ext)
    assert status == 400 and "'html'" in json.loads(raw)["error"]
    status, _, raw = request("POST", api, {"url": "http://127.0.0.1:1/", "html": "",
                                           "nope": 1}, headers=ext)
    assert status == 400 and "nope" in json.loads(raw)["error"]
    status, _, raw = request("POST", api, data=b"url=x", headers={
        **ext, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    # a body declared over the cap is answered before it is sent
    import http.client

    conn = http.client.HTTPConnection(app.split("//", 1)[1], timeout=30)
    conn.putrequest("POST", "/api/extension/template")
    for k, v in {**ext, "Content-Type": "application/json",
                 "Content-Length": str(11 * 1024 * 1024)}.items():
        conn.putheader(k, v)
    conn.endheaders()
    r = conn.getresponse()
    assert r.status == 413 and "over" in json.loads(r.read())["error"]
    conn.close()
