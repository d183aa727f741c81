"""Runs of many pages as people expect them: a list of
URLs (``extract -i``), failures counted and a "done with failures" exit
status even under ``-q``, a refused non-page input, and Ctrl-C saying how to
resume. Every test runs the real command in a subprocess; sites are served on
127.0.0.1 (reached with ``--allow-host``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _webtools import DEMO_WWW, static_site
from conftest import REPO

ENV = dict(os.environ, PYTHONPATH=str(REPO / "src") + os.pathsep
           + os.environ.get("PYTHONPATH", ""), TEMEX_PROGRESS_EVERY="0")


def temex(*args: str, cwd: Path | None = None, stdin: str | None = None
          ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "temex", *args], cwd=cwd, env=ENV,
                          input=stdin, capture_output=True, text=True, timeout=240,
                          check=False)


# -- 7. a list of URLs ----------------------------------------------------------------

def test_extract_a_list_of_urls(tmp_path: Path) -> None:
    with static_site(DEMO_WWW) as base:
        local = base.split("//", 1)[1]
        (tmp_path / "urls.txt").write_text(
            "# the demo site\n"
            f"{base}/about/\n\n"
            f"   {base}/blog/saving-seeds/  \n"
            f"{base}/no-such-page/\n"
            "not a url\n"
            "http://10.0.0.1/\n")
        r = temex("extract", "-i", "urls.txt", "-o", "out", "-f", "markdown", "-n", "2",
                  "--allow-host", local, cwd=tmp_path)
        assert r.returncode == 4, r.stderr  # done, with failures
        host = local.replace(":", "_")
        about = (tmp_path / "out" / host / "about" / "index.md").read_text()
        seeds = (tmp_path / "out" / host / "blog" / "saving-seeds" / "index.md").read_text()
        assert about.startswith("# About the nursery") and "Saving your own seeds" in seeds
        err = r.stderr.strip().splitlines()
        # the failures, each on its line, at the end; then the count
        assert err[-1] == "temex extract: 2 of 5 URLs done, 3 failed -> out"
        failures = err[-4:-1]
        assert failures[0].startswith(f"temex extract: failed: {base}/no-such-page/: HTTP 404")
        assert failures[1] == "temex extract: failed: not a url: not an http:// or https:// URL"
        assert failures[2].startswith("temex extract: failed: http://10.0.0.1/: refused")
        # again into the same folder: the files written stay as they are
        (tmp_path / "out" / host / "about" / "index.md").write_text("old\n")
        r = temex("extract", "-i", "urls.txt", "-o", "out", "-f", "markdown", "-n", "2",
                  "--allow-host", local, cwd=tmp_path)
        assert r.returncode == 1, r.stderr  # both outputs exist: none done, nothing lost
        assert (tmp_path / "out" / host / "about" / "index.md").read_text() == "old\n"
        assert "about/index.md: exists; not overwritten (--force replaces it)" in r.stderr
        assert "0 of 5 URLs done, 5 failed" in r.stderr
        # to stdout, with a header per URL, from stdin; quiet: only the failures
        r = temex("extract", "-i", "-", "-q", "-n", "2", "--allow-host", local,
                  cwd=tmp_path, stdin=f"{base}/about/\n{base}/blog/saving-seeds/\n")
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith(f"==> {base}/about/ <==\nAbout the nursery")
    assert f"==> {base}/blog/saving-seeds/ <==\nSaving your own seeds" in r.stdout


def test_extract_list_of_only_failures_fails(tmp_path: Path) -> None:
    (tmp_path / "urls.txt").write_text("http://10.0.0.1/\n# nothing else\n")
    r = temex("extract", "-i", "urls.txt", "-q", cwd=tmp_path)
    assert r.returncode == 1 and "0 of 1 URLs done, 1 failed" in r.stderr
    (tmp_path / "empty.txt").write_text("# none\n\n")
    r = temex("extract", "-i", "empty.txt", cwd=tmp_path)
    assert r.returncode == 1 and "no URLs in it" in r.stderr
    r = temex("extract", "x.html", "-i", "urls.txt", cwd=tmp_path)
    assert r.returncode == 2 and "-i FILE" in r.stderr


# -- 5 and 7. batch: failures said under -q, exit 4; a list of URLs refused ---------

def _page(k: int) -> str:
    nav = "".join(f"<li><a href='/p{j}.html'>Page {j}</a></li>" for j in range(4))
    return (f"<html><head><title>P{k}</title></head><body><nav><ul>{nav}</ul></nav>"
            f"<main><h1>Page {k}</h1><p>{'Own words of page %d. ' % k * 12}</p></main>"
            "<footer>Footer of the site</footer></body></html>")


def test_batch_says_failed_pages_even_quiet_and_exits_4(tmp_path: Path) -> None:
    site = tmp_path / "pages" / "site"
    site.mkdir(parents=True)
    for k in range(4):
        (site / f"p{k}.html").write_text(_page(k))
    (site / "broken.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    r = temex("batch", "pages", "-o", "out", "-q", "-j", "1", cwd=tmp_path)
    assert r.returncode == 4
    assert r.stderr.strip() == ("temex batch: done with failures: 1 of 5 records failed "
                                "(reasons in out/sites/*.jsonl and out/index_errors.jsonl); "
                                "exit 4")
    r = temex("batch", "pages", "-o", "out2", "-q", "--quiet-errors", "-j", "1", cwd=tmp_path)
    assert r.returncode == 4 and r.stderr == ""
    (site / "broken.html").unlink()
    r = temex("batch", "pages", "-o", "out3", "-q", "-j", "1", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == ""


def test_batch_refuses_a_file_that_is_no_page_and_reads_a_list(tmp_path: Path) -> None:
    (tmp_path / "urls.txt").write_text("https://example.org/a\nhttps://example.org/b\n")
    r = temex("batch", "urls.txt", "-o", "out", "-q", cwd=tmp_path)
    assert r.returncode == 2 and not (tmp_path / "out").exists()
    assert r.stderr.strip().endswith(
        "urls.txt: not an HTML, WARC or JSONL file nor a folder; batch strips local pages "
        "(to fetch a list of URLs: temex extract -i FILE)")
    site = tmp_path / "site"
    site.mkdir()
    for k in range(3):
        (site / f"p{k}.html").write_text(_page(k))
    (site / "page-without-suffix").write_text(_page(3))  # HTML by its content
    (tmp_path / "inputs.txt").write_text("# pages\nsite\nsite/page-without-suffix\n")
    r = temex("batch", "-i", "inputs.txt", "-o", "out", "-q", "-j", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["records"] == summary["pages"] == 4


# -- 5. crawl: the same convention ----------------------------------------------------

def test_crawl_with_failed_pages_exits_4_and_says_it_when_quiet(tmp_path: Path) -> None:
    www = tmp_path / "www"
    www.mkdir()
    for k in range(3):
        (www / f"p{k}.html").write_text(_page(k).replace("/p3.html", "/missing.html"))
    (www / "index.html").write_text(_page(0).replace("/p3.html", "/missing.html"))
    with static_site(www) as base:
        r = temex("crawl", base + "/", "-o", str(tmp_path / "out"), "-q", "--no-sitemaps",
                  "--allow-host", base.split("//", 1)[1])
    assert r.returncode == 4, r.stderr
    assert r.stderr.strip().startswith("temex crawl: done with failures: 1 of ")
    assert "index.jsonl" in r.stderr


# -- 10. Ctrl-C says how to resume ----------------------------------------------------

def _default_sigint() -> None:
    # as in a terminal: a test run started in the background by a shell
    # without job control inherits SIGINT ignored, and so would the command
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(args: list[str], started: str | None, cwd: Path) -> tuple[int, str]:
    """Run ``temex ARGS`` (SIGINT at its default, as a terminal leaves it),
    send SIGINT once stderr shows ``started`` (None: after 2 s)."""
    p = subprocess.Popen([sys.executable, "-m", "temex", *args], cwd=cwd, env=ENV,
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                         preexec_fn=_default_sigint)
    assert p.stderr is not None
    seen = []
    deadline = time.time() + 120
    if started is None:
        time.sleep(2)
        p.send_signal(signal.SIGINT)
    while started is not None and time.time() < deadline:
        line = p.stderr.readline()
        if not line:
            break
        seen.append(line)
        if started in line:
            p.send_signal(signal.SIGINT)
            break
    rest = p.communicate(timeout=60)[1]
    return p.returncode, "".join(seen) + rest


def _slow_site(root: Path, n: int) -> Path:
    """Pages served slowly enough to interrupt a crawl of them."""
    root.mkdir(parents=True, exist_ok=True)
    links = "".join(f"<li><a href='/p{k}.html'>Page {k}</a></li>" for k in range(n))
    (root / "index.html").write_text(f"<html><body><nav><ul>{links}</ul></nav></body></html>")
    for k in range(n):
        (root / f"p{k}.html").write_text(_page(k % 4))
    return root


def test_interrupted_crawl_says_how_to_resume(tmp_path: Path) -> None:
    root = _slow_site(tmp_path / "www", 60)
    with static_site(root) as base:
        args = ["crawl", base + "/", "-o", str(tmp_path / "out"), "--delay", "0.1",
                "--concurrency", "1", "--no-sitemaps", "--allow-host", base.split("//", 1)[1]]
        code, err = _interrupt(args, "25 fetched", tmp_path)  # in the middle of the fetch
        assert code == 130, err
        assert err.strip().splitlines()[-1] == ("temex crawl: interrupted; run the same "
                                                "command again to resume (the work done is "
                                                "kept)"), err
        r = temex(*args, "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["mode"] == "resume" and summary["pages"] == 61
    assert summary["fetched"] < 61  # what the first run fetched was not fetched again


def test_interrupted_batch_says_how_to_resume(tmp_path: Path) -> None:
    for s in range(24):
        site = tmp_path / "pages" / f"site{s}"
        site.mkdir(parents=True)
        for k in range(40):
            (site / f"p{k}.html").write_text(_page(k % 4).replace("Page", f"Site {s} page"))
    args = ["batch", "pages", "-o", "out", "-j", "2"]
    code, err = _interrupt(args, "[1/24 sites]", tmp_path)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == ("temex batch: interrupted; run the same command "
                                            "again to resume (the work done is kept)")
    r = temex(*args, "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["pages"] == 960 and summary["sites_skipped_done"] >= 1


@pytest.mark.parametrize("cmd", ["extract", "candidates"])
def test_other_commands_say_interrupted(cmd: str, tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a server that accepts and never answers
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        port = s.getsockname()[1]
        code, err = _interrupt([cmd, f"http://127.0.0.1:{port}/", "--progress",
                                "--allow-host", f"127.0.0.1:{port}", "--timeout", "60"],
                               None, tmp_path)
    assert code == 130 and err.strip().splitlines()[-1] == f"temex {cmd}: interrupted", err
