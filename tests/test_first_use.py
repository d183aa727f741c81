"""What a new user, or one coming from trafilatura, meets first: a lone page
answers, one name for plain text, one-line usage errors, trafilatura's names
(Python and command line) giving trafilatura's kind of answer on a real page,
and ``help(temex)`` that starts with the one-call functions."""

from __future__ import annotations

import json
import logging
import pydoc
import re
from pathlib import Path

import pytest

import temex
from temex.content.metadata import TRAFILATURA_FIELDS
from test_cli_conventions import temex as run

SITE = "hackingthe.cloud"
KEY = "aws/enumeration/whoami/index.html"
URL = "https://hackingthe.cloud/aws/enumeration/whoami/"


@pytest.fixture(scope="module")
def key(data_dir: Path) -> Path:
    page = data_dir / "sites" / SITE / "www" / KEY
    if not page.is_file():
        pytest.skip(f"shared site {SITE} not found")
    return page


def test_a_lone_file_answers_at_page_level(key: Path, tmp_path: Path) -> None:
    r = run("extract", str(key))
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == ("temex extract: page-level fallback: no other page given to "
                                "compare with")
    assert r.stdout.startswith("Whoami - Get Principal Name From Keys\n")
    assert r.stdout == run("content", str(key)).stdout  # the page level, as content FILE
    # from stdin too
    r = run("extract", "-", stdin=key.read_bytes())
    assert r.returncode == 0 and "page-level fallback" in r.stderr
    assert "get-caller-identity" in r.stdout


def test_plain_text_has_one_name_everywhere(key: Path) -> None:
    outs = {name: run("extract", str(key), "-f", name).stdout
            for name in ("content", "text", "txt")}
    assert outs["content"] and outs["text"] == outs["content"] == outs["txt"]
    content = {name: run("content", str(key), "-f", name).stdout for name in ("content", "text",
                                                                             "txt")}
    assert content["content"] and len(set(content.values())) == 1
    html = key.read_bytes()
    py = {name: temex.extract(html, format=name) for name in ("content", "text", "txt")}
    assert py["content"] and len(set(py.values())) == 1
    assert py["content"].strip() == outs["content"].strip()
    r = run("extract", str(key), "-f", "pdf")
    assert r.returncode == 2 and "invalid choice: 'pdf'" in r.stderr


def test_a_usage_error_is_one_line_under_the_command(tmp_path: Path) -> None:
    for args, command in ((("extract", "page.html", "--bogus"), "extract"),
                          (("content", "--pages"), "content"),
                          (("crawl",), "crawl"), (("nothing",), "")):
        r = run(*args, cwd=tmp_path)
        lines = r.stderr.splitlines()
        assert r.returncode == 2 and len(lines) == 1, r.stderr
        prefix = f"temex {command}: error: " if command else "temex: error: "
        assert lines[0].startswith(prefix) and "usage:" not in r.stderr, lines
        assert lines[0].endswith("--help lists the options)")
    r = run("extract", "page.html", "--bogus", cwd=tmp_path)
    assert "unrecognized arguments: --bogus" in r.stderr


def test_trafilatura_command_line_names(key: Path, tmp_path: Path) -> None:
    plain = run("extract", str(key), "-f", "content").stdout
    r = run("extract", str(key), "--output-format", "txt")
    assert r.returncode == 0 and r.stdout == plain
    r = run("extract", str(key), "--output-format", "txt", "--with-metadata")
    assert r.returncode == 0
    head, _, body = r.stdout.partition("\n---\n\n")
    assert head.startswith("---\n") and 'title: "Whoami' in head and body == plain
    md = run("extract", str(key), "-f", "markdown", "--with-metadata").stdout
    assert md.startswith("---\n") and "# Whoami" in md
    r = run("extract", "-u", "http://10.0.0.1/page")  # -u URL: the key page, guarded as ever
    assert r.returncode == 1 and r.stderr.startswith("temex extract: refused"), r.stderr
    r = run("extract", "-u", "http://10.0.0.1/page", str(key))
    assert r.returncode == 2 and "give the key page once" in r.stderr


def test_trafilatura_python_names(key: Path, caplog: pytest.LogCaptureFixture) -> None:
    html = key.read_bytes()
    txt = temex.extract(html, url=URL, output_format="txt")
    assert txt == temex.extract(html, url=URL, format="content")
    meta = temex.extract(html, url=URL, output_format="txt", with_metadata=True)
    assert meta and meta.startswith("---\n") and meta.endswith(txt)
    md = temex.extract(html, url=URL, output_format="markdown", include_comments=False)
    assert md == temex.extract(html, url=URL, format="markdown", comments=False)
    rep = json.loads(temex.extract(html, url=URL, output_format="json") or "")
    assert rep["title"].startswith("Whoami") and rep["author"] == "Nick Frichette"
    assert rep["hostname"] == "hackingthe.cloud" and rep["language"] == "en"
    assert rep["image"] == ("https://hackingthe.cloud/assets/images/social/aws/enumeration/"
                            "whoami.png")
    assert re.fullmatch(r"[0-9a-f]{16}", rep["fingerprint"])
    with pytest.raises(temex.ParameterError, match="xml"):
        temex.extract(html, output_format="xml")
    with caplog.at_level(logging.WARNING, logger="temex"):
        assert temex.extract(None) is None
        assert temex.extract(b"%PDF-1.7\x00\x01\x02\x03 binary") is None
        assert temex.bare_extraction(None) is None
    assert "no page (None)" in caplog.text and "not HTML" in caplog.text
    bare = temex.bare_extraction(html, url=URL)
    assert bare is not None and set(TRAFILATURA_FIELDS) <= set(bare)
    assert bare["text"] == txt and bare["fingerprint"] == rep["fingerprint"]
    assert {k: bare[k] for k in TRAFILATURA_FIELDS} == {k: rep[k] for k in TRAFILATURA_FIELDS}


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def test_trafilatura_gives_the_same_kind_of_answer(key: Path) -> None:
    """The same call with trafilatura's keyword names, on the same real
    page, to temex and to trafilatura itself."""
    trafilatura = pytest.importorskip(
        "trafilatura", reason="trafilatura is not installed (pip install 'temex[test]')")
    html = key.read_bytes()
    kw = {"url": URL, "include_comments": False}
    theirs = trafilatura.extract(html, output_format="txt", **kw)
    ours = temex.extract(html, output_format="txt", **kw)
    assert isinstance(theirs, str) and isinstance(ours, str)
    t, o = _words(theirs), set(_words(ours))
    assert sum(w in o for w in t) / len(t) >= 0.9  # their text is in ours
    assert trafilatura.extract(None) is None and temex.extract(None) is None
    their_json = json.loads(trafilatura.extract(html, output_format="json", with_metadata=True,
                                                **kw))
    our_json = json.loads(temex.extract(html, output_format="json", with_metadata=True, **kw)
                          or "")
    for field in ("title", "author", "hostname"):
        assert our_json[field] == their_json[field], field
    # every metadata key of temex's is one of trafilatura's own
    their_doc = trafilatura.bare_extraction(html, with_metadata=True, **kw)
    their_keys = set(their_doc if isinstance(their_doc, dict) else their_doc.as_dict())
    assert set(TRAFILATURA_FIELDS) <= their_keys, set(TRAFILATURA_FIELDS) - their_keys


def test_help_starts_with_the_one_call_functions() -> None:
    text = pydoc.render_doc(temex, renderer=pydoc.plaintext)
    head = "\n".join(text.splitlines()[:40])
    for call in ("extract(html", "bare_extraction(html", "extract_site(html",
                 "extract_files(key_path", "explore(url)"):
        assert call in head, call
    assert temex.__all__[:4] == ["extract", "bare_extraction", "extract_site", "extract_files"]


def test_batch_names_a_folder_by_its_name_and_gives_local_rows_their_url(
        data_dir: Path, tmp_path: Path) -> None:
    www = data_dir / "sites" / SITE / "www" / "aws" / "enumeration"
    if not www.is_dir():
        pytest.skip(f"shared site {SITE} not found")
    r = run("batch", str(www), "-o", str(tmp_path / "out"), "-q")
    assert r.returncode == 0, r.stderr
    # each subfolder a site, named by its folder and the parent's, not the absolute path
    files = sorted((tmp_path / "out" / "sites").iterdir())
    assert "enumeration_whoami-" in " ".join(p.name for p in files)
    for f in files:
        assert re.fullmatch(r"enumeration_[\w.-]+-[0-9a-f]{8}\.jsonl", f.name), f.name
        rows = [json.loads(ln) for ln in f.read_text().splitlines()]
        assert rows and all(row["url"] == Path(row["source"]).resolve().as_uri() for row in rows)


def test_markdown_leaves_out_a_headings_link_to_itself(tmp_path: Path) -> None:
    """mdBook writes each heading as a link to itself, saying its title."""
    body = ("<p>IFTTT connects services with small rules that run on events, written "
            "once and left to work.</p>" * 4)
    page = tmp_path / "ifttt.html"
    page.write_text("<html><body><main><h1 id='ifttt'><a class='header' href='#ifttt'>IFTTT</a>"
                    f"</h1>{body}<h2 id='use'><a class='header' href='#use'>Use it</a></h2>"
                    f"{body}<h2 id='more'>See <a href='#ifttt'>the top</a></h2>{body}"
                    "</main></body></html>")
    r = run("content", str(page), "-f", "markdown")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "# IFTTT" in lines and "## Use it" in lines, lines
    assert "## See [the top](#ifttt)" in lines or any(  # a link elsewhere stays a link
        ln.startswith("## See [the top](") for ln in lines), lines


def test_the_docs_cite_code_that_exists() -> None:
    """Every ``src/temex/...py`` path of README and docs/, and every dotted
    ``temex.module.name`` of docs/, names a module or object that exists."""
    import importlib

    repo = Path(__file__).resolve().parents[1]
    docs = sorted((repo / "docs").glob("*.md"))
    missing = [f"{f.name}: {p}" for f in [repo / "README.md", *docs]
               for p in re.findall(r"src/temex/[\w/.]*?\.pyx?\b", f.read_text("utf-8"))
               if not (repo / p).exists()]
    for f in docs:
        for name in set(re.findall(r"`(temex(?:\.[A-Za-z_]\w*)+)", f.read_text("utf-8"))):
            parts = name.split(".")
            for k in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:k]))
                except ImportError:
                    continue
                try:
                    for attr in parts[k:]:
                        obj = getattr(obj, attr)
                except AttributeError:
                    missing.append(f"{f.name}: {name}")
                break
    assert missing == []


def test_slow_tests_leave_the_readme_command_and_ci_runs_them(tmp_path: Path) -> None:
    """The README's test command deselects the ``slow`` marker (pyproject's
    addopts); ``-m slow`` collects those tests; .ci/run runs both, after each
    install, so every test still runs in CI."""
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
           "tests/test_scorer.py"]
    default = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=120)
    slow = subprocess.run([*cmd, "-m", "slow"], cwd=repo, capture_output=True, text=True,
                          timeout=120)
    assert "test_training_is_deterministic_on_a_tiny_subset" not in default.stdout
    assert "test_model_file_loads" in default.stdout and "deselected" in default.stdout
    assert "test_training_is_deterministic_on_a_tiny_subset" in slow.stdout
    assert "test_model_file_loads" not in slow.stdout
    ci = (repo / ".ci" / "run").read_text("utf-8").splitlines()
    plain = [k for k, ln in enumerate(ci) if ln.strip().endswith("-m pytest -q")]
    assert len(plain) == 2
    for k in plain:
        assert ci[k + 1].strip() == ci[k].strip() + " -m slow || [ $? -eq 5 ]", ci[k + 1]
    readme = (repo / "README.md").read_text("utf-8")
    assert ".venv/bin/python -m pytest -q -m slow" in readme
