"""Does removing the template help what comes after? (RTDM paper §6.)

Pages of shared sites are grouped by *section* and two downstream tasks are
run on five versions of each page's text:

* ``raw``: every visible text block of the page (what a page-to-text converter
  without boilerplate removal gives);
* ``page-level``: temex's main content of the page alone (no site behind it);
* ``site-level``: temex's main content from ``temex batch`` over the site's
  folder (template fitted once per cluster, site index of repeated text);
* ``trafilatura``: a page-level peer, when installed;
* ``gold``: the site's gold content text (the upper bound).

Tasks: **clustering** with TF-IDF and k-means (k = number of sections; purity
and NMI against the sections, mean over 5 seeds) and **classification** with
multinomial naive Bayes on TF-IDF (accuracy, stratified 5-fold cross-validation).

Sections are ground truth of this benchmark, read from each page's URL (the
first path segment below the site root) or, for a forum whose URLs carry no
path, from the forum named in the page's breadcrumb; sections with fewer than
5 pages are left out. The labels are never shown to temex.

Run from a clone (needs the ``bench`` extra: scikit-learn)::

    .venv/bin/python -m bench.eval.bench_downstream [--data DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

from bench.common import DATA_HELP, data_dir  # noqa: E402
from temex.batch.pipeline import BatchOptions, run_batch  # noqa: E402
from temex.content.extract import extract_content  # noqa: E402
from temex.content.text import text_lines  # noqa: E402
from temex.errors import ParseError  # noqa: E402
from temex.evaluate import NoGoldError, gold_mask, load_site  # noqa: E402
from temex.page.dom import Document, parse  # noqa: E402
from temex.page.files import html_files, read_page, unusable  # noqa: E402

#: Sites whose pages fall into sections, and how a page's section is read.
SITES = ("klnet-forum", "openehr-org-archive", "wikinotes")
MIN_SECTION = 5
VERSIONS = ("raw", "page-level", "site-level", "trafilatura", "gold")


def breadcrumb_forum(doc: Document) -> str | None:
    """The forum a thread page belongs to: the first forum link of its breadcrumb."""
    if doc.parser is None:
        return None
    for a in doc.parser.css("span.navbar a[href*=forumdisplay]"):
        return (a.text() or "").strip() or None
    return None


def section(site: str, root: Path, path: Path, doc: Document) -> str | None:
    rel = path.relative_to(root).parts
    if site == "klnet-forum":
        return breadcrumb_forum(doc) if path.name.startswith("showthread") else None
    if len(rel) < 2:
        return None  # pages at the root (home, contact) belong to no section
    return unquote(rel[0])


def raw_text(doc: Document) -> str:
    return "\n".join(text_lines(doc, [True] * len(doc), markdown=False))


def gold_text(doc: Document, site) -> str | None:  # type: ignore[no-untyped-def]
    try:
        gold = gold_mask(doc, site.content_selector, site.template_selector)
    except NoGoldError:
        return None
    return "\n".join(text_lines(doc, [g is False for g in gold], markdown=False))


def site_level(root: Path) -> dict[str, str]:
    """Main content of every page of the folder from ``temex batch``."""
    with tempfile.TemporaryDirectory() as tmp:
        run_batch([str(root)], Path(tmp) / "out", BatchOptions(), engine="local", workers=1,
                  progress=False)
        out: dict[str, str] = {}
        for jl in (Path(tmp) / "out" / "sites").glob("*.jsonl"):
            for line in jl.read_text("utf-8").splitlines():
                row = json.loads(line)
                out[str(Path(row["source"]).resolve())] = row.get("content") or ""
    return out


def load(site_dir: Path) -> tuple[list[str], dict[str, list[str]]]:
    site = load_site(site_dir)
    try:
        import trafilatura
    except ImportError:
        trafilatura = None
    batch = site_level(site.root)
    labels: list[str] = []
    texts: dict[str, list[str]] = {v: [] for v in VERSIONS}
    rows = []
    for f in html_files(site.root):
        try:
            data = read_page(f)
            doc = parse(data, url=str(f))
        except (OSError, ParseError):
            continue
        if unusable(doc):
            continue
        label = section(site.name, site.root, f, doc)
        gold = gold_text(doc, site)
        if label is None or gold is None:
            continue
        rows.append((f, doc, data, label, gold))
    counts = Counter(r[3] for r in rows)
    for f, doc, data, label, gold in rows:
        if counts[label] < MIN_SECTION:
            continue
        labels.append(label)
        texts["raw"].append(raw_text(doc))
        texts["page-level"].append(extract_content(doc).text())
        texts["site-level"].append(batch.get(str(f.resolve()), ""))
        texts["gold"].append(gold)
        if trafilatura is not None:
            texts["trafilatura"].append(
                trafilatura.extract(data.decode("utf-8", "replace")) or "")
    if trafilatura is None:
        del texts["trafilatura"]
    return labels, texts


def scores(labels: list[str], docs: list[str]) -> dict[str, float]:
    import numpy as np
    from sklearn.cluster import KMeans
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics import normalized_mutual_info_score
    from sklearn.metrics.cluster import contingency_matrix
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline

    token = r"(?u)\b\w\w+\b"
    y = np.array(labels)
    k = len(set(labels))
    x = TfidfVectorizer(sublinear_tf=True, min_df=2, token_pattern=token).fit_transform(
        [d if d.strip() else "empty" for d in docs])
    purity, nmi = [], []
    for seed in range(5):
        pred = KMeans(n_clusters=k, n_init=5, random_state=seed).fit_predict(x)
        m = contingency_matrix(y, pred)
        purity.append(m.max(axis=0).sum() / m.sum())
        nmi.append(normalized_mutual_info_score(y, pred))
    folds = StratifiedKFold(n_splits=min(5, min(Counter(labels).values())), shuffle=True,
                            random_state=0)
    nb = make_pipeline(TfidfVectorizer(sublinear_tf=True, token_pattern=token),
                       MultinomialNB(alpha=0.1))
    acc = cross_val_score(nb, [d if d.strip() else "empty" for d in docs], y, cv=folds)
    return {"purity": float(np.mean(purity)), "nmi": float(np.mean(nmi)),
            "accuracy": float(acc.mean())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, help=DATA_HELP)
    ap.add_argument("sites", nargs="*", default=list(SITES))
    args = ap.parse_args()
    data = data_dir(args.data)
    print("| site | pages | sections | text | purity | NMI | NB accuracy |")
    print("|---|---|---|---|---|---|---|")
    mean: dict[str, list[dict[str, float]]] = {}
    for name in args.sites:
        labels, texts = load(Path(data) / "sites" / name)
        for version, docs in texts.items():
            s = scores(labels, docs)
            mean.setdefault(version, []).append(s)
            print(f"| {name} | {len(labels)} | {len(set(labels))} | {version} | "
                  f"{s['purity']:.3f} | {s['nmi']:.3f} | {s['accuracy']:.3f} |", flush=True)
    for version, rows in mean.items():
        avg = {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]}
        print(f"| **mean** | | | {version} | {avg['purity']:.3f} | {avg['nmi']:.3f} | "
              f"{avg['accuracy']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
