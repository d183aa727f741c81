"""The command line as a new user meets it: no lost or skipped
work, ``-`` for stdin/stdout, impossible values refused, honest messages.

Every test runs the real ``temex`` command in a subprocess on real shared
pages (skipped with a message when the shared data is absent).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

SITE = "hackingthe.cloud"


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")])
    return env


def temex(*args: str, cwd: Path | None = None, stdin: bytes | None = None,
          without: tuple[str, ...] = (), timeout: float = 240, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m temex ARGS``; ``without`` makes those packages
    unimportable in the child (as when they are not installed)."""
    if without:
        block = "".join(f"sys.modules[{m!r}] = None; " for m in without)
        cmd = [sys.executable, "-c", f"import sys; {block}from temex.cli.main import main; "
               "sys.exit(main(sys.argv[1:]))", *args]
    else:
        cmd = [sys.executable, "-m", "temex", *args]
    r = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, timeout=timeout,
                       env=_env(**(env or {})))
    return subprocess.CompletedProcess(r.args, r.returncode, r.stdout.decode("utf-8"),
                                       r.stderr.decode("utf-8"))


@pytest.fixture(scope="module")
def www(data_dir: Path) -> Path:
    root = data_dir / "sites" / SITE / "www"
    if not root.is_dir():
        pytest.skip(f"shared site {SITE} not found")
    return root


@pytest.fixture(scope="module")
def template(www: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    t = tmp_path_factory.mktemp("tpl") / "site.template.json"
    pages = sorted(www.glob("aws/*/*/index.html"))[:6]
    r = temex("fit", *map(str, pages), "-o", str(t))
    assert r.returncode == 0, r.stderr
    return t


def _index_pages(www: Path, k: int = 4) -> list[Path]:
    pages = sorted(www.rglob("index.html"))
    pages = [p for p in pages if p.parent != www][:k]
    assert len(pages) == k
    return pages


# -- 1. strip to a folder loses nothing ---------------------------------------

def test_strip_to_folder_keeps_each_page(www: Path, template: Path, tmp_path: Path) -> None:
    pages = _index_pages(www)
    out = tmp_path / "out"
    r = temex("strip", "--template", str(template), *map(str, pages), "-o", str(out))
    assert r.returncode == 0, r.stderr
    written = sorted(p for p in out.rglob("*") if p.is_file())
    assert len(written) == len(pages), written  # today: 4 pages -> 1 index.txt
    for page in pages:
        alone = temex("strip", "--template", str(template), str(page))
        rel = page.relative_to(os.path.commonpath([p.parent for p in pages]))
        assert (out / rel.with_suffix(".txt")).read_text("utf-8") == alone.stdout
    # the same page twice would write one file twice: refused, nothing written
    again = tmp_path / "again"
    r = temex("strip", "--template", str(template), str(pages[0]), str(pages[0]),
              "-o", str(again))
    assert r.returncode == 2 and "would both be written" in r.stderr
    assert not again.exists()


# -- 1b. an existing output is never overwritten without --force -------------

def test_existing_outputs_are_refused_without_force(www: Path, template: Path,
                                                    tmp_path: Path) -> None:
    pages = _index_pages(www, 2)
    one = str(pages[0])

    def kept(path: Path, r: subprocess.CompletedProcess[str], code: int) -> None:
        assert r.returncode == code, r.stderr
        assert path.read_text("utf-8") == "old\n", path  # left as it was
        assert f"{path}: exists; not overwritten (--force replaces it)" in r.stderr

    # one output file: refused before any work (exit 2), replaced with --force
    cases = {
        "fit": ["fit", *map(str, pages)],
        "extract": ["extract", one, "--pages", str(pages[1])],
        "strip": ["strip", "--template", str(template), one],
    }
    for name, args in cases.items():
        out = tmp_path / f"{name}.out"
        out.write_text("old\n", "utf-8")
        kept(out, temex(*args, "-o", str(out)), 2)
        r = temex(*args, "-o", str(out), "--force")
        assert r.returncode == 0 and out.read_text("utf-8") != "old\n", (name, r.stderr)
    # one file of a folder: that page is said and skipped, the others written
    folder = tmp_path / "stripped"
    r = temex("strip", "--template", str(template), *map(str, pages), "-o", str(folder))
    assert r.returncode == 0, r.stderr
    first = sorted(folder.rglob("*.txt"))[0]
    first.write_text("old\n", "utf-8")
    second = sorted(folder.rglob("*.txt"))[1]
    second.unlink()
    r = temex("strip", "--template", str(template), *map(str, pages), "-o", str(folder))
    kept(first, r, 1)
    assert second.is_file() and "1 whose output exists" in r.stderr
    # temex content: a page alone, then a folder (its report.json too): exit 4
    page_out = tmp_path / "content"
    page_out.mkdir()
    (page_out / "index.txt").write_text("old\n", "utf-8")
    kept(page_out / "index.txt", temex("content", one, "-o", str(page_out)), 1)
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_bytes(pages[0].read_bytes())
    (site / "b.html").write_bytes(pages[1].read_bytes())
    folder_out = tmp_path / "folder"
    folder_out.mkdir()
    (folder_out / "a.txt").write_text("old\n", "utf-8")
    r = temex("content", str(site), "-o", str(folder_out), "-q")
    kept(folder_out / "a.txt", r, 4)
    assert (folder_out / "b.txt").is_file() and (folder_out / "report.json").is_file()
    r = temex("content", str(site), "-o", str(folder_out), "-q", "--force")
    assert r.returncode == 0 and (folder_out / "a.txt").read_text("utf-8") != "old\n"


# -- 2. content recurses ------------------------------------------------------

def test_content_reads_subfolders_and_counts(www: Path, tmp_path: Path) -> None:
    n = sum(1 for p in www.rglob("*.html"))
    r = temex("content", str(www), "-o", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    texts = list((tmp_path / "c").rglob("*.txt"))
    assert len(texts) == n  # today: 2 of 46
    report = json.loads((tmp_path / "c" / "report.json").read_text())
    assert len(report["pages"]) == n
    assert f"{n} pages read" in r.stderr and "done" in r.stderr and "skipped" in r.stderr
    assert (tmp_path / "c" / "aws" / "enumeration" / "whoami" / "index.txt").is_file()



def test_content_maps_each_page_unless_told_not_to(demo_site: Path, tmp_path: Path) -> None:
    """A folder's pages are decided with their key-page fit by default (the
    per-page JSON says how each was decided); ``--no-mapping`` leaves it out."""
    post = Path("www") / "blog" / "balcony-herbs" / "index.json"
    for flags, how in (((), "decision, mapped"), (("--no-mapping",), "decision")):
        out = tmp_path / (flags[0].strip("-") if flags else "default")
        r = temex("content", str(demo_site), "-o", str(out), "-f", "json", "-q", *flags)
        assert r.returncode == 0, r.stderr
        page = json.loads((out / post).read_text())
        assert page["site"] == how and "Thyme, oregano and sage" in page["text"]

# -- 3. base install: batch readers, extras named -----------------------------

def test_fastwarc_is_a_base_dependency() -> None:
    tomllib = pytest.importorskip("tomllib")
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("fastwarc") for d in meta["dependencies"])
    assert not any(d.startswith("distributed") for d in meta["dependencies"])


def test_folders_jsonl_and_fit_need_no_fastwarc(www: Path, tmp_path: Path) -> None:
    pages = sorted(www.glob("aws/*/*/index.html"))[:6]
    r = temex("fit", *map(str, pages), "-o", str(tmp_path / "t.json"),
              without=("fastwarc", "fastwarc.warc"))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    jsonl = tmp_path / "pages.jsonl"
    jsonl.write_text("".join(json.dumps({"url": f"https://{SITE}/{p.relative_to(www)}",
                                         "html": p.read_text("utf-8")}) + "\n"
                             for p in pages))
    for inp in (str(www / "aws" / "enumeration"), str(jsonl)):
        out = tmp_path / ("b" + str(len(inp)))
        r = temex("batch", inp, "-o", str(out), "-j", "1", "-q",
                  without=("fastwarc", "fastwarc.warc"))
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        assert (out / "summary.json").is_file()


def test_missing_extras_are_named_in_one_line(tmp_path: Path) -> None:
    warc = tmp_path / "a.warc"
    warc.write_bytes(b"WARC/1.0\r\n\r\n")
    r = temex("batch", str(warc), "-o", str(tmp_path / "o"), without=("fastwarc", "fastwarc.warc"))
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "pip install" in r.stderr
    r = temex("extract", "http://127.0.0.1:9/", "--render", without=("playwright",))
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "temex[render]" in r.stderr
    r = temex("batch", str(tmp_path), "-o", str(tmp_path / "o2"), "--engine", "dask",
              without=("distributed",))
    assert r.returncode == 1 and "temex[dask]" in r.stderr and r.stderr.count("\n") == 1


# -- 4. impossible values refused, shortfalls said ----------------------------

@pytest.mark.parametrize("argv", [
    ["extract", "k.html", "--pages-dir", ".", "-n", "0"],
    ["candidates", "http://127.0.0.1:9/", "--max-loads", "1"],
    ["candidates", "http://127.0.0.1:9/", "-n", "0"],
    ["batch", ".", "-o", "o", "--sample", "0"],
    ["fit", "a.html", "b.html", "-o", "t.json", "-n", "0"],
    ["fit", "a.html", "b.html", "-o", "t.json", "--keys", "0"],
    ["extract", "k.html", "--pages-dir", ".", "--threshold", "1.5"],
    ["serve", "--port", "70000"],
])
def test_impossible_values_exit_2(argv: list[str], tmp_path: Path) -> None:
    r = temex(*argv, cwd=tmp_path, timeout=60)
    assert r.returncode == 2, (argv, r.returncode, r.stderr)
    assert r.stderr.strip().splitlines()[-1].startswith("temex")
    assert not (tmp_path / "o").exists() and not (tmp_path / "t.json").exists()


def test_fewer_pages_than_asked_exit_3(www: Path) -> None:
    folder = www / "aws" / "enumeration"
    key = sorted(folder.rglob("index.html"))[0]
    have = sum(1 for _ in folder.rglob("*.html")) - 1
    r = temex("extract", str(key), "--pages-dir", str(folder), "-n", str(have + 10))
    assert r.returncode == 3, r.stderr
    assert f"asked for {have + 10}" in r.stderr and r.stdout.strip()


def test_empty_inputs_fail(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    r = temex("batch", str(empty), "-o", str(tmp_path / "o"), "-q")
    assert r.returncode == 1 and "no pages found" in r.stderr
    r = temex("eval", "--data", str(empty))
    assert r.returncode == 1 and "no sites" in r.stderr


# -- 5. - is stdin and stdout -------------------------------------------------

def test_dash_is_stdin_and_stdout(www: Path, template: Path, tmp_path: Path) -> None:
    page = www / "aws" / "enumeration" / "whoami" / "index.html"
    html = page.read_bytes()
    by_name = temex("strip", "--template", str(template), str(page))
    r = temex("strip", "--template", str(template), "-", "-o", "-", cwd=tmp_path, stdin=html)
    assert r.returncode == 0 and r.stdout == by_name.stdout and r.stdout.strip()
    r = temex("content", "-", cwd=tmp_path, stdin=html)
    assert r.returncode == 0 and "whoami" in r.stdout.lower()
    # one file is one page alone, as stdin (and -o writes NAME.txt into the folder)
    by_file = temex("content", str(page), cwd=tmp_path)
    assert by_file.returncode == 0 and by_file.stdout == r.stdout
    by_file = temex("content", str(page), "-o", "one", "-f", "markdown", cwd=tmp_path)
    assert by_file.returncode == 0 and (tmp_path / "one" / "index.md").read_text().strip()
    r = temex("extract", "-", "--pages-dir", str(page.parent.parent), "-f", "content",
              "-o", "-", cwd=tmp_path, stdin=html)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr
    r = temex("extract", str(page), "--pages-dir", str(page.parent.parent), "-f", "json",
              "-o", "-", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["key_page"]
    r = temex("fit", str(page), *map(str, sorted(page.parent.parent.rglob("index.html"))[:4]),
              "-o", "-", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["format"]
    r = temex("content", str(page.parent.parent), "-o", "-", "-q", cwd=tmp_path)
    assert r.returncode == 0 and "==> whoami/index.html <==" in r.stdout
    assert not (tmp_path / "-").exists()


# -- 8. honest messages -------------------------------------------------------

def test_refused_connection_is_said_so(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = temex("candidates", f"http://127.0.0.1:{port}/a", "--timeout", "3",
              "--allow-host", f"127.0.0.1:{port}")
    assert r.returncode == 1
    assert "robots.txt" not in r.stderr and "connection refused" in r.stderr
    assert r.stderr.count("\n") == 1 and "\\n" not in r.stderr and "Connect call" not in r.stderr
    r = temex("extract", "http://no-such-host.invalid/", "--timeout", "5")
    assert r.returncode == 1 and "cannot resolve no-such-host.invalid" in r.stderr, r.stderr
    assert "robots.txt" not in r.stderr and "unknown error" not in r.stderr.lower()


def _site_with_stubs(www: Path, tmp_path: Path, stubs: dict[str, str]) -> Path:
    """A copy of the site with meta-refresh redirect stubs added (name:
    target), and ``loop-a.html`` and ``loop-b.html`` sending to each other."""
    import shutil

    root = tmp_path / "site"
    shutil.copytree(www, root)
    stub = ('<html><head><meta http-equiv="refresh" content="0; url={}"></head>'
            '<body></body></html>')
    for name, target in {**stubs, "loop-a.html": "loop-b.html",
                         "loop-b.html": "loop-a.html"}.items():
        (root / name).write_text(stub.format(target))
    return root


def test_a_redirect_stub_key_page_is_followed(www: Path, tmp_path: Path) -> None:
    """A key page that is a meta-refresh stub (generated manuals keep one
    per old anchor) is followed as a browser does: the page it sends to is
    the key page, said on stderr and in the report; a loop of stubs, and a
    stub sending to an address the guard refuses, end in one line (exit
    1)."""
    from temex.site.sources.localserve import serve_folder

    root = _site_with_stubs(www, tmp_path, {"old.html": "aws/enumeration/whoami/",
                                            "away.html": "http://127.0.0.1:1/x"})
    with serve_folder(root) as base:
        host = base.split("//")[1]
        r = temex("extract", f"{base}/old.html", "--allow-host", host, "-f", "json")
        assert r.returncode == 0, r.stderr
        assert f"{base}/old.html: a redirect stub; its meta refresh followed to " \
               f"{base}/aws/enumeration/whoami/" in r.stderr
        report = json.loads(r.stdout)
        assert report["key_page"] == f"{base}/aws/enumeration/whoami/"
        assert report["counts"]["template_nodes"] > 0 and len(report["pages"]) >= 2
        r = temex("extract", f"{base}/loop-a.html", "--allow-host", host)
        assert r.returncode == 1 and "meta-refresh redirect loop" in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1
        r = temex("extract", f"{base}/away.html", "--allow-host", host)
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert "127.0.0.1:1" in r.stderr


def test_max_bytes_bounds_the_pages_read(www: Path) -> None:
    """A key page over ``--max-bytes`` is one line (exit 1), as the crawl's
    flag of the same name; a larger bound reads it (single-page manuals,
    Node.js' ``all.html``, are over the default 5 MiB)."""
    from temex.site.sources.localserve import serve_folder

    key = "aws/enumeration/whoami/index.html"
    size = (www / key).stat().st_size
    with serve_folder(www) as base:
        host = base.split("//")[1]
        r = temex("extract", f"{base}/{key}", "--allow-host", host, "--max-bytes",
                  str(size - 1), "-f", "json")
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert "too large" in r.stderr and str(size - 1) in r.stderr
        r = temex("extract", f"{base}/{key}", "--allow-host", host, "--max-bytes",
                  str(size), "-f", "json")
        assert r.returncode == 0, r.stderr
        r = temex("candidates", f"{base}/{key}", "--allow-host", host, "--max-bytes", "0")
        assert r.returncode == 2 and "--max-bytes" in r.stderr


def test_a_redirect_stub_key_file_is_followed(www: Path, tmp_path: Path) -> None:
    """The same offline: a key file that is a meta-refresh stub is followed
    to the file it names inside the pages folder (said on stderr, named in
    the report); a loop, or a target outside the folder, is one line
    (exit 1)."""
    root = _site_with_stubs(www, tmp_path, {"old.html": "aws/enumeration/whoami/#top",
                                            "out.html": "../elsewhere.html"})
    (tmp_path / "elsewhere.html").write_text("<p>not of the site</p>")
    r = temex("extract", str(root / "old.html"), "--pages-dir", str(root), "-f", "json")
    assert r.returncode == 0, r.stderr
    assert "old.html: a redirect stub; its meta refresh followed to " in r.stderr
    report = json.loads(r.stdout)
    assert report["key_page"].endswith("aws/enumeration/whoami/index.html")
    assert report["redirect_stubs"] == [str(root / "old.html")]
    assert report["counts"]["template_nodes"] > 0
    r = temex("extract", str(root / "loop-a.html"), "--pages-dir", str(root))
    assert r.returncode == 1 and "meta-refresh redirect loop" in r.stderr, r.stderr
    r = temex("extract", str(root / "out.html"), "--pages-dir", str(root))
    assert r.returncode == 1 and "outside" in r.stderr and r.stderr.count("\n") == 1, r.stderr


@pytest.mark.parametrize("target,said", [
    ("ftp://example.org/a.html", "ftp:// URLs are not supported"),
    ("http//example.org/a", "not a valid URL"),
    ("localhost:8000/a/", "http://localhost:8000/a/"),
])
def test_url_like_targets_are_named(target: str, said: str, tmp_path: Path) -> None:
    r = temex("extract", target, cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and said in r.stderr, r.stderr
    assert "No such file" not in r.stderr


def test_empty_pages_dir_is_named(www: Path, tmp_path: Path) -> None:
    """An empty pages folder is named in the page-level fallback's reason
    (an answer, exit 0, not an error)."""
    r = temex("extract", str(www / "index.html"), "--pages-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "page-level fallback" in r.stderr and str(tmp_path) in r.stderr
    assert "give --pages or --pages-dir" not in r.stderr


def test_eval_unknown_site_lists_sites(data_dir: Path) -> None:
    r = temex("eval", "no-such-site", "--data", str(data_dir))
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert SITE in r.stderr and "no-such-site" in r.stderr


def test_serve_on_busy_port_says_so() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = temex("serve", "--port", str(port), timeout=60)
    assert r.returncode == 1 and "already in use" in r.stderr
    assert "serving on" not in r.stderr


# -- 9. benchmark commands in the docs run as written --------------------------

def test_bench_commands_in_docs_run_from_a_clone() -> None:
    """Every bench command in the README and the reference docs is written as
    ``.venv/bin/python -m bench.<purpose>.<script>`` (the interpreter the
    README's set-up makes, run from the repository root, no PYTHONPATH) and
    starts."""
    import re

    found = []
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = doc.read_text("utf-8")
        for m in re.finditer(r"(\S+)\s+(?:-m\s+)?bench[./](\w+(?:[./]\w+)*)", text):
            if "python" in m.group(1):
                name = re.sub(r"\.py$", "", m.group(2)).replace("/", ".")
                found.append((doc.name, " ".join(m.group(0).lstrip("(`").split()), name))
    assert {name.rsplit(".", 1)[-1] for _, _, name in found} >= {
        "bench_core", "bench_explore", "bench_batch", "bench_content", "sweep"}
    for doc, written, _ in found:
        assert written.startswith(".venv/bin/python -m bench."), (doc, written)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for name in sorted({n for _, _, n in found}):
        assert (REPO / "bench" / (name.replace(".", "/") + ".py")).is_file(), name
        r = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], cwd=REPO, env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, (name, r.stderr[-500:])


def test_every_flag_of_every_command_is_in_the_cli_docs() -> None:
    """docs/CLI.md lists every flag that ``temex COMMAND --help`` shows,
    for every command (the reference is whole, and stays so)."""
    import argparse

    from temex.cli.main import build_parser

    doc = (REPO / "docs" / "CLI.md").read_text("utf-8")
    sub = next(a for a in build_parser()._actions
               if isinstance(a, argparse._SubParsersAction))
    missing = [(name, opt) for name, sp in sub.choices.items() for a in sp._actions
               if a.help != argparse.SUPPRESS for opt in a.option_strings
               if opt not in ("-h", "--help") and f"`{opt}" not in doc]
    assert set(sub.choices) <= {n for n in sub.choices if f"### `temex {n}`" in doc}
    assert not missing, missing


# -- 10. the demo's outputs stay out of git -----------------------------------

def test_demo_output_is_ignored_by_git() -> None:
    import shutil

    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    r = subprocess.run(["git", "check-ignore", "-q", "temex-demo/annotated.html"], cwd=REPO)
    assert r.returncode == 0


# -- 6. progress ----------------------------------------------------------------

def _on_a_terminal(*args: str, timeout: float = 240) -> tuple[int, str]:
    """Run ``temex ARGS`` with stderr on a pseudo-terminal (120 columns);
    returns the exit status and what the terminal showed."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    p = subprocess.Popen([sys.executable, "-m", "temex", *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=slave, env=_env())
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return p.wait(timeout=timeout), shown.decode("utf-8", "replace")


def test_progress_bar_on_a_terminal(data_dir: Path, tmp_path: Path) -> None:
    www = data_dir / "sites" / "wikinotes" / "www"
    if not www.is_dir():
        pytest.skip("shared site wikinotes not found")
    code, shown = _on_a_terminal("content", str(www), "-o", str(tmp_path / "c"))
    assert code == 0
    assert "%|" in shown and "pages/s" in shown and "/690" in shown  # count, rate, ETA bar
    code, shown = _on_a_terminal("content", str(www), "-o", str(tmp_path / "q"), "-q")
    assert code == 0 and shown == ""


def test_batch_reports_pages_not_only_sites(data_dir: Path, tmp_path: Path) -> None:
    www = data_dir / "sites" / "wikinotes" / "www"
    if not www.is_dir():
        pytest.skip("shared site wikinotes not found")
    r = temex("batch", str(www), "-o", str(tmp_path / "b"), "-j", "1",
              env={"TEMEX_PROGRESS_EVERY": "0"})
    assert r.returncode == 0, r.stderr
    import re

    counts = [int(m.group(1)) for m in re.finditer(r"\[(\d+)/690 pages\]", r.stderr)]
    assert any(0 < c < 690 for c in counts), r.stderr[-2000:]  # one site: pages, not sites
    assert "ETA" in r.stderr and "pages/s" in r.stderr
    assert not (tmp_path / "b" / ".progress").exists()
    q = temex("batch", str(www), "-o", str(tmp_path / "q"), "-j", "1", "-q",
              env={"TEMEX_PROGRESS_EVERY": "0"})
    assert q.returncode == 0 and q.stderr == ""


def test_fit_eval_and_exploration_show_progress(demo_site: Path, tmp_path: Path) -> None:
    pages = [str(p) for p in sorted((demo_site / "www").rglob("index.html"))]
    every = {"TEMEX_PROGRESS_EVERY": "0"}
    r = temex("fit", *pages, "-o", str(tmp_path / "t.json"), env=every)
    assert r.returncode == 0 and f"[{len(pages)}/{len(pages)} pages]" in r.stderr, r.stderr
    r = temex("fit", *pages, "-o", str(tmp_path / "q.json"), "-q", env=every)
    assert r.returncode == 0 and r.stderr == ""
    r = temex("eval", str(demo_site), env=every)
    assert r.returncode == 0 and "[1/1 sites]" in r.stderr, r.stderr
    from temex.site.sources.localserve import serve_folder

    with serve_folder(demo_site / "www") as base:
        r = temex("candidates", base + "/blog/", "--ignore-robots",
                  "--allow-host", base.split("//")[1], env=every)
    assert r.returncode in (0, 3) and "loads]" in r.stderr and "loads/s" in r.stderr, r.stderr


# -- 7. one name per idea, full help -------------------------------------------

COMMANDS = ("extract", "eval", "candidates", "demo", "serve", "content", "fit", "strip",
            "batch", "extension")


def test_help_is_full_and_points_to_installed_docs() -> None:
    import re

    for cmd in COMMANDS:
        r = temex(cmd, "--help", timeout=60)
        assert r.returncode == 0
        text = " ".join(r.stdout.split())
        assert "exit status: 0 done; 1 failed" in text and "3 done" in text, cmd
        m = re.search(r"Docs, installed with temex: (\S+) \(CLI\.md", text)
        assert m and (Path(m.group(1)) / "CLI.md").is_file(), (cmd, text[-300:])
        usage_end = r.stdout.index("\n\n")  # a description follows the usage
        assert len(r.stdout[usage_end:].split("\n\n")[1]) > 60, cmd
    for cmd in ("extract", "candidates", "fit", "batch", "eval"):
        assert "-n N, --n-pages N" in " ".join(temex(cmd, "--help").stdout.split()) \
            or "-n N_PAGES, --n-pages N_PAGES" in temex(cmd, "--help").stdout, cmd
    assert "--cs-size" not in temex("candidates", "--help").stdout


def test_content_format_has_one_name_and_extract_writes_text(www: Path, tmp_path: Path) -> None:
    page = www / "aws" / "enumeration" / "whoami" / "index.html"
    r = temex("content", str(page.parent.parent), "-o", str(tmp_path / "c"), "-f", "content")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "c" / "whoami" / "index.txt").is_file()
    r = temex("extract", str(page), "--pages-dir", str(page.parent.parent))
    assert r.returncode == 0
    assert "<html" not in r.stdout.lower() and len(r.stdout) < 20_000  # the text, not HTML
    assert r.stdout == temex("extract", str(page), "--pages-dir", str(page.parent.parent),
                             "-f", "content").stdout


# -- one name for one thing, one prefix, reasons in words ----------------

def _flags(cmd: str) -> set[str]:
    import re

    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", temex(cmd, "--help", timeout=60).stdout))


def test_every_command_says_the_same_thing_with_the_same_flag() -> None:
    flags = {cmd: _flags(cmd) for cmd in (*COMMANDS, "crawl")}
    fetching = ("extract", "candidates", "crawl", "serve")
    for cmd in fetching:  # the address guard's two exceptions, everywhere
        assert {"--allow-private", "--allow-host"} <= flags[cmd], cmd
    for cmd in ("extract", "candidates", "crawl"):
        assert "--ignore-robots" in flags[cmd], cmd
    for cmd in ("extract", "content"):
        assert "--front-matter" in flags[cmd], cmd
    everywhere = set().union(*flags.values())
    for old in ("--no-robots", "--no-private", "--cs-size"):  # accepted, not shown
        assert old not in everywhere, old
    from temex.cli.main import build_parser

    parser = build_parser()
    args = parser.parse_args(["extract", "http://h/", "--no-robots", "--no-private"])
    assert args.ignore_robots and not args.allow_private
    args = parser.parse_args(["candidates", "http://h/", "--no-robots", "--cs-size", "2"])
    assert args.ignore_robots and args.n_pages == 2


def test_messages_have_one_prefix_and_no_errno(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_text("<html><body><p>one page</p></body></html>")
    (tmp_path / "3").mkdir()
    r = temex("fit", "a.html", "3", "-o", "t.json", cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 1 and lines, r.stderr
    assert all(ln.startswith("temex fit: ") for ln in lines), lines
    assert "temex fit: skipped 3: cannot read (Is a directory)" in lines
    assert "[Errno" not in r.stderr
    r = temex("strip", "--template", "3", "a.html", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.strip() == "temex strip: 3: Is a directory", r.stderr
    r = temex("candidates", "http://10.0.0.1/", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.startswith("temex candidates: refused")
    r = temex("extract", "a.html", "-f", "html", "--front-matter", "--pages", "a.html",
              cwd=tmp_path)
    assert r.returncode == 2 and ("--front-matter (--with-metadata) is for -f content or "
                                  "markdown") in r.stderr


# -- the browser tests' need is said where the test command is ---------

def test_readme_says_the_browser_tests_need_chromium() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    test_cmd = readme.index(".venv/bin/python -m pytest -q")
    after = readme[test_cmd:test_cmd + 900]
    assert "chromium" in after and "apt-get install chromium" in after, after
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "apt-get install" in ci and "chromium" in ci
    assert ci.index("chromium") < ci.index("pytest")  # installed before the tests run
