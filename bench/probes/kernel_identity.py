"""The compiled kernel against the pure-Python path on every shared page
(tests/test_kernel.py does every 7th page).

Per page of the evaluation data (sites and content datasets), both paths in
one process: the Document arrays, the element addresses, the page-level main content (kept blocks,
text, Markdown), text and Markdown of a random half of the elements, and the
body text. Then ``temex batch -j 1 --template-stats`` over the content
datasets and over the shared sites, once with the kernel and once with
``TEMEX_KERNEL=0``: rows and saved templates compared byte for byte. Prints a
table; exit status 1 on any difference.

    .venv/bin/python -m bench.probes.kernel_identity [--no-batch] [--vs OTHER_SRC]

``--vs OTHER_SRC`` also compares the batch outputs with those of another
tree (``git archive MAIN src | tar -x -C /tmp/before``, then ``--vs
/tmp/before/src``): a speed change must leave them byte-identical.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import data_dir
from temex.evaluate.identity import outputs
from temex.page import kernel


def pages(data: Path) -> tuple[int, int, float, float]:
    k = kernel.get()
    files = sorted(p for p in data.rglob("*.htm*") if p.is_file())
    differ = 0
    t_kernel = t_pure = 0.0
    for path in files:
        raw = path.read_bytes()
        kernel._state = (k, "on")
        t0 = time.process_time()
        fast = outputs(raw, path.name)
        t_kernel += time.process_time() - t0
        kernel._state = (None, "off")
        t0 = time.process_time()
        pure = outputs(raw, path.name)
        t_pure += time.process_time() - t0
        if fast != pure:
            differ += 1
            print(f"differs: {path}", file=sys.stderr)
    kernel._state = (k, "on")
    return len(files), differ, t_kernel, t_pure


def batch(inputs: list[Path], label: str, other: str = "pure",
          vs: str | None = None) -> tuple[str, int, int, int]:
    """Row and template files of ``temex batch`` with the kernel against
    ``other``: the pure path (``TEMEX_KERNEL=0``), or ``before``: another
    tree's ``src/`` (``vs``) on its own default path."""
    out: dict[str, Path] = {}
    tmp = Path(tempfile.mkdtemp(prefix="temex-kernel-"))
    here = str(Path(__file__).resolve().parents[2] / "src")
    runs = {"kernel": ({}, here), "pure": ({"TEMEX_KERNEL": "0"}, here),
            "before": ({}, vs or here)}
    for name in ("kernel", other):
        env, tree = runs[name]
        out[name] = tmp / name
        # exit 4 is "done with failures" (records that are not pages, e.g. the
        # shared sites' feeds and stubs): their error rows are compared too
        done = subprocess.run([sys.executable, "-m", "temex", "batch", *map(str, inputs),
                               "-o", str(out[name]), "-j", "1", "-q", "--quiet-errors",
                               "--template-stats"],
                              env={**os.environ, **env, "PYTHONPATH": tree}, check=False)
        if done.returncode not in (0, 4):
            raise SystemExit(f"kernel_identity: temex batch exited {done.returncode}")
    files = sorted(p.relative_to(out["kernel"]) for p in out["kernel"].rglob("*")
                   if p.is_file() and p.parts[-2] in ("sites", "templates"))
    theirs = sorted(p.relative_to(out[other]) for p in out[other].rglob("*")
                    if p.is_file() and p.parts[-2] in ("sites", "templates"))
    differ = sum((out["kernel"] / f).read_bytes() != (out[other] / f).read_bytes()
                 for f in files if (out[other] / f).is_file()) + (files != theirs)
    rows = sum(len((out["kernel"] / f).read_text().splitlines())
               for f in files if f.suffix == ".jsonl")
    shutil.rmtree(tmp, ignore_errors=True)
    return label, len(files), rows, differ


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-batch", action="store_true")
    ap.add_argument("--vs", metavar="OTHER_SRC",
                    help="also compare the batch outputs with another tree's src/ (e.g. "
                         "main before a speed change: the same rows and templates)")
    args = ap.parse_args()
    data = data_dir()
    if kernel.get() is None:
        sys.exit(f"nothing to compare: {kernel.status()}")
    status = kernel.status()
    n, differ, tk, tp = pages(data)
    print(f"{status}\n")
    print("| check | items | differing | CPU s kernel / pure |")
    print("|---|---|---|---|")
    print(f"| pages of {data}: arrays, page content (blocks, text, Markdown), random-half "
          f"text and Markdown, body text | {n} | {differ} | {tk:.1f} / {tp:.1f} |")
    bad = differ
    if not args.no_batch:
        content = sorted(p for p in (data / "content").iterdir() if p.is_dir())
        for label, inputs in (("content datasets", content), ("shared sites", [data / "sites"])):
            for other in ("pure", "before") if args.vs else ("pure",):
                label2, files, rows, d = batch(inputs, label, other, args.vs)
                print(f"| `temex batch -j 1 --template-stats`, {label2}: row and template files "
                      f"({rows} rows), kernel against {other} | {files} | {d} | |")
                bad += d
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
