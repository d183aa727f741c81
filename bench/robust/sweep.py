"""Robustness sweep: every public entry point over every HTML file of the shared data.

For each page (``sites/*/www/**`` and ``content/*/*/*.html``) the sweep runs,
with the page as key and its 3 nearest pages of the same folder
(:func:`temex.site.pool._proximity` order) as candidates:

* ``temex.parse``;
* ``VoteDetector``, ``IntersectDetector``, ``RTDMDetector``, ``ChunksDetector`` fits;
* ``temex.content.render.render`` of the vote model in every format (the annotated
  and template outputs must re-parse to the key page's element count);
* ``temex.content.extract.extract_content`` with a site index of the 4 pages
  (suspicious: empty content where the gold ``.txt`` has 200+ characters);
* ``temex.template.saved`` build / apply / strip;
* ``temex.cli.main(["extract", page, "--pages", ...])``.

Per folder it runs the CLI's ``content``, ``fit``, ``strip`` and ``batch``
(``batch`` must write one row per page: no lost records).

Every operation runs under an alarm: more than ``--timeout`` seconds (10)
counts as a hang. Prints a Markdown summary (pages, failures by kind, slowest
pages, peak memory), copied into docs/ROBUSTNESS.md.

    .venv/bin/python -m bench.robust.sweep [--data DIR] [--limit N] [--timeout S]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

from bench.common import DATA_HELP, data_dir
from temex.cli.main import main as cli_main
from temex.content.extract import extract_content
from temex.content.render import FORMATS, render
from temex.errors import TemexError
from temex.page.dom import parse
from temex.page.files import html_files
from temex.site.pool import _proximity
from temex.template.detectors.chunks import ChunksDetector
from temex.template.detectors.intersect import IntersectDetector
from temex.template.detectors.rtdm import RTDMDetector
from temex.template.detectors.vote import VoteDetector
from temex.template.saved import SavedTemplate, strip
from temex.template.site_index import SiteIndex


class Hang(Exception):
    pass


class CliExit(Exception):
    """The CLI ended with a non-zero exit code and a one-line reason: a clear error."""


def _alarm(signum, frame):
    raise Hang()


signal.signal(signal.SIGALRM, _alarm)


class Sweep:
    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.failures: list[tuple[str, str, str, str]] = []  # kind, op, page, detail
        self.times: dict[str, float] = defaultdict(float)
        self.ops = Counter()

    def run(self, op: str, page: str, fn, *args, **kw):
        """Run one operation; record exceptions and hangs. Returns (ok, value)."""
        self.ops[op] += 1
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        t0 = time.perf_counter()
        try:
            return True, fn(*args, **kw)
        except Hang:
            self.failures.append(("hang", op, page, f">{self.timeout:g}s"))
        except (TemexError, CliExit) as e:  # a clear error: fine for bad pages, recorded
            self.failures.append(("error", op, page, str(e)[:120]))
        except Exception as e:  # noqa: BLE001  (recording every failure is the point)
            tb = traceback.extract_tb(e.__traceback__)[-1]
            where = f"({Path(tb.filename).name}:{tb.lineno})"
            self.failures.append(("exception", op, page,
                                  f"{type(e).__name__}: {str(e)[:80]} {where}"))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.times[page] += time.perf_counter() - t0
        return False, None

    def suspicious(self, op: str, page: str, detail: str) -> None:
        self.failures.append(("suspicious", op, page, detail))


def quiet_cli(argv: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    if code not in (0,):
        lines = err.getvalue().strip().splitlines()
        if "Traceback" in err.getvalue():
            raise RuntimeError(f"exit {code} with a traceback: {lines[-1:]}")
        raise CliExit(f"exit {code}: {lines[-1] if lines else '(no message)'}")
    return code


def folders(data: Path) -> list[tuple[str, Path, list[Path]]]:
    out = []
    for site in sorted((data / "sites").iterdir()):
        if (site / "www").is_dir():
            out.append((f"sites/{site.name}", site / "www", html_files(site / "www")))
    for ds in sorted((data / "content").iterdir()):
        if ds.is_dir():
            for sub in sorted(ds.iterdir()):
                if sub.is_dir():
                    out.append((f"content/{ds.name}/{sub.name}", sub,
                                sorted(sub.glob("*.html"))))
    return out


def page_ops(sw: Sweep, f: Path, others: list[Path], docs: dict[Path, object],
             cli: bool) -> None:
    page = str(f)
    ok, key = sw.run("parse", page, parse, f.read_bytes(), str(f))
    if not ok:
        return
    docs[f] = key
    pages = []
    for o in others:
        if o not in docs:
            okp, d = sw.run("parse", str(o), parse, o.read_bytes(), str(o))
            docs[o] = d if okp else None
        if docs[o] is not None and docs[o].body >= 0:
            pages.append(docs[o])
    models = {}
    for name, det in (("vote", VoteDetector), ("intersect", IntersectDetector),
                      ("rtdm", RTDMDetector), ("chunks", ChunksDetector)):
        ok, d = sw.run(f"fit:{name}", page, lambda det=det: det().fit(key, pages))
        if ok:
            models[name] = d.model_
    model = models.get("vote")
    if model is not None:
        for fmt in FORMATS:
            ok, out = sw.run(f"render:{fmt}", page, render, model, fmt)
            if ok and fmt in ("annotated", "template"):
                # HTML5 serialisation is not always idempotent (misnested
                # <font>/<p> re-parse differently): compare with the key page
                # serialised untouched, and note pages where even that differs.
                ok2, back = sw.run("reparse", page, parse, out)
                ok3, base = sw.run("reparse", page, parse, key.parser.html)
                if ok2 and ok3 and len(back) != len(base):
                    sw.suspicious(f"render:{fmt}", page,
                                  f"re-parses to {len(back)} elements, the key page "
                                  f"serialised to {len(base)}")
                elif ok3 and len(base) != len(key) and fmt == "annotated":
                    sw.failures.append(("note", "html5 round trip", page,
                                        f"{len(key)} elements re-parse as {len(base)}"))
    ok, c = sw.run("content", page, lambda: extract_content(
        key, SiteIndex([key, *pages])))
    gold = f.with_suffix(".txt")
    if ok and gold.is_file() and not c.chosen:
        g = gold.read_text("utf-8", "replace").strip()
        if len(g) >= 200:
            sw.suspicious("content", page, f"empty content ({c.reason}); gold has {len(g)} chars")
    if model is not None:
        ok, saved = sw.run("saved:build", page, SavedTemplate.from_models, [model])
        if ok:
            ok, saved2 = sw.run("saved:roundtrip", page,
                                lambda: SavedTemplate.from_dict(
                                    json.loads(json.dumps(saved.to_dict()))))
            for d in [key, *pages]:
                ok, m = sw.run("saved:strip", page, strip, saved2 if ok else saved, d)
                if ok:
                    sw.run("saved:render", page, render, m, "content")
    if cli and pages:
        sw.run("cli:extract", page, quiet_cli,
               ["extract", page, "--pages", *[p.url for p in pages], "-f", "json",
                "-o", os.devnull])


def folder_cli(sw: Sweep, name: str, folder: Path, files: list[Path], tmp: Path) -> None:
    if not files:
        return
    out = tmp / name.replace("/", "_")
    if name.startswith("content/"):
        sw.run("cli:content", name, quiet_cli, ["content", str(folder), "-o", str(out / "c")])
    sample = [str(f) for f in files[:8]]
    ok, _ = sw.run("cli:fit", name, quiet_cli, ["fit", *sample, "-o", str(out / "t.json")])
    if ok:
        sw.run("cli:strip", name, quiet_cli,
               ["strip", "--template", str(out / "t.json"), *[str(f) for f in files],
                "-o", str(out / "s")])
    batch_in = folder
    ok, _ = sw.run("cli:batch", name, quiet_cli,
                   ["batch", str(batch_in), "-o", str(out / "b"), "-j", "1", "-q"])
    if ok:
        rows = 0
        for jf in (out / "b" / "sites").glob("*.jsonl"):
            with open(jf, encoding="utf-8") as fh:
                rows += sum(1 for _ in fh)
        expected = len(html_files(batch_in))
        if rows != expected:
            sw.suspicious("cli:batch", name, f"{rows} rows for {expected} pages")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=None,
                    help=DATA_HELP)
    ap.add_argument("--limit", type=int, default=0, help="pages per folder (0: all)")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--json", metavar="FILE", help="also write every failure here")
    args = ap.parse_args()
    data = data_dir(args.data)
    sw = Sweep(args.timeout)
    t0 = time.perf_counter()
    n_pages = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, folder, files in folders(data):
            docs: dict[Path, object] = {}
            chosen = files[:args.limit] if args.limit else files
            for f in chosen:
                others = [o for o in _proximity(f, files) if o != f][:3]
                page_ops(sw, f, others, docs, cli=not args.no_cli)
                n_pages += 1
            if not args.no_cli:
                folder_cli(sw, name, folder, files, Path(tmp))
            print(f"{name}: {len(chosen)} pages, {len(sw.failures)} failures so far",
                  file=sys.stderr)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kinds = Counter(k for k, *_ in sw.failures)
    print("| pages | operations | failures | wall (s) | peak RSS (MB) |\n|---|---|---|---|---|")
    print(f"| {n_pages} | {sum(sw.ops.values())} | {len(sw.failures)} | {wall:.0f} | {peak:.0f} |")
    print("\n| kind | count |\n|---|---|")
    for k in ("exception", "hang", "suspicious", "error", "note"):
        print(f"| {k} | {kinds.get(k, 0)} |")
    by = Counter((k, op, d.split(" (")[0][:70]) for k, op, _, d in sw.failures)
    if by:
        print("\n| kind | operation | detail | count |\n|---|---|---|---|")
        for (k, op, d), c in by.most_common(25):
            print(f"| {k} | {op} | {d.replace('|', '/')} | {c} |")
    print("\n| slowest pages (all operations) | s |\n|---|---|")
    for p, t in sorted(sw.times.items(), key=lambda x: -x[1])[:8]:
        print(f"| {p.replace(str(data).rstrip('/') + '/', '')} | {t:.1f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(sw.failures, indent=1))


if __name__ == "__main__":
    main()
