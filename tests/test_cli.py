"""The command line, run in-process and as the installed console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
import json
from pathlib import Path

import pytest

from temex.cli.main import main
from temex.evaluate import load_site, url_to_file


def test_extract_annotated_on_a_shared_site(site_dirs: list[Path], tmp_path: Path) -> None:
    site = load_site(site_dirs[0])
    key = url_to_file(site.root, site.key_pages[0])
    out = tmp_path / "out.html"
    assert main(["extract", str(key), "--pages-dir", str(site.root), "-f", "annotated",
                 "-o", str(out)]) == 0
    assert "template_node" in out.read_text("utf-8")


@pytest.mark.parametrize("fmt", ["template", "content", "markdown", "html", "json"])
def test_every_format(demo_site: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = demo_site / "www"
    assert main(["extract", str(root / "about" / "index.html"), "--pages-dir", str(root),
                 "-f", fmt]) == 0
    assert capsys.readouterr().out.strip()


def test_explicit_pages_and_a_bad_one(demo_site: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    root = demo_site / "www"
    bad = tmp_path / "bad.html"
    bad.write_bytes(b"\x00\x01\x02 binary")
    code = main(["extract", str(root / "index.html"), "--pages", str(root / "about/index.html"),
                 str(root / "contact/index.html"), str(bad), str(tmp_path / "missing.html"),
                 "-f", "content"])
    out = capsys.readouterr()
    assert code == 0
    assert out.out.startswith("Welcome to Greenleaf Gardens")
    assert "binary data" in out.err and "missing.html" in out.err


def test_unreadable_key_page_is_one_line_and_exit_1(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", str(tmp_path / "nope.html"), "--pages-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err


def test_no_candidates_page_level_fallback(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """No page to compare with is an answer (the page
    level), exit 0, said on stderr and in the report, not an error."""
    key = tmp_path / "k.html"
    key.write_text("<html><body><nav><a href='/x'>Home</a></nav><article><h1>A title</h1>"
                   "<p>" + "The page's own words, long enough to be its text. " * 4
                   + "</p></article></body></html>")
    assert main(["extract", str(key), "--pages-dir", str(tmp_path)]) == 0
    cap = capsys.readouterr()
    assert "temex extract: page-level fallback: no other page" in cap.err
    assert "own words" in cap.out and "Home" not in cap.out
    assert main(["extract", str(key), "--pages-dir", str(tmp_path), "-f", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["fallback"].startswith("page-level fallback: no other page")
    assert report["counts"]["template_nodes"] > 0  # the page-level chrome (the nav)


def test_bad_usage_exit_2() -> None:
    with pytest.raises(SystemExit) as e:
        main(["extract", "x.html", "--method", "nope"])
    assert e.value.code == 2


def test_eval_prints_a_table(site_dirs: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(site_dirs[0])]) == 0
    out = capsys.readouterr().out
    assert "| mean of sites" in out.replace("**", "")


def test_eval_errors_lists_each_key_pages_mislabelled_subtrees(
        data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # openehr's news list: its pagination bar is gold template inside the
    # content element, and the detector labels part of it content.
    site = data_dir / "sites" / "openehr-org-archive"
    assert main(["eval", str(site), "--errors", "2", "-q"]) == 0
    out = capsys.readouterr().out
    table, _, errors = out.partition("\n### ")
    assert "| mean of sites" in table.replace("**", "")
    assert errors, "no error section after the table"
    sections = ("### " + errors).split("\n### ")
    assert len(sections) == len(load_site(site).key_pages)
    assert "| elements | error | element | path | text |" in errors
    assert "no mislabelled element" in errors
    # at most 2 rows per page, then one line that sums the rest
    for sec in sections:
        rows = [r for r in sec.splitlines() if r.startswith("| ") and "/html" in r]
        assert len(rows) <= 2


def test_demo_console_script(tmp_path: Path) -> None:
    exe = shutil.which("temex")
    cmd = [exe] if exe else [sys.executable, "-m", "temex"]
    r = subprocess.run([*cmd, "demo", "-o", str(tmp_path / "d")], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Planting in autumn" in r.stdout
    assert (tmp_path / "d" / "annotated.html").is_file()
