"""Line-number gutters: the column of numbers beside a highlighted code block.

Idea: code highlighters that number lines in a table (Pygments'
``linenos="table"``, as Sphinx, Python-Markdown's ``codehilite`` and many
static sites write it; Hugo's Chroma with ``lineNos = "table"``) put the
numbers in one cell and the code in the next: ``<tr><td class="linenos">
<pre>1 2 3</pre></td><td class="code"><pre>...``. Read as text, every code
block then begins with a run of numbers, words to a bag-of-words reader
(on a Hugo blog, thousands a site). The shared sites' convention (the data
README: "the line-number column of a code block ... is template; the code
is content") calls the gutter template. It is recognised by what it says
and what sits beside it, not by a highlighter's class names: a ``<td>``
whose text is two or more consecutive whole numbers in ascending order and
nothing else, followed by a ``<td>`` that holds a ``<pre>``. A table
numbering its rows (one number a cell) or whose code cell is not
preformatted is no gutter.

Departure: numbers written inside the code lines themselves (Pygments'
``linenos="inline"``: a ``span.lineno`` at the start of each line) are
not taken: they are one token among the line's, told apart by class names
or by their place in each line, which this module does not read.

Read by the text and Markdown writers (:mod:`temex.content.text`), which
leave gutters out, and by the template detectors' rules
(:mod:`temex.template.rules.sequence`), which call them template.

Cost: a scan of the page's ``<td>`` elements; a cell's text read only where
the next cell holds a ``<pre>``.
"""

from __future__ import annotations

from ..page.dom import Document

__all__ = ["gutters"]


def _numbers_only(doc: Document, i: int) -> bool:
    """Whether the subtree of ``i`` says two or more consecutive whole
    numbers, ascending, and nothing else."""
    words = " ".join(doc.text[j] for j in doc.descendants(i)).split()
    if len(words) < 2 or not all(w.isdigit() for w in words):
        return False
    nums = [int(w) for w in words]
    return all(b == a + 1 for a, b in zip(nums, nums[1:]))


def gutters(doc: Document) -> list[int]:
    """The line-number cells of the page's code tables (module docstring)."""
    out: list[int] = []
    tag, parent, size, n = doc.tag, doc.parent, doc.size, len(doc)
    for i in doc.positions("td"):
        code = i + size[i]  # the next sibling, if any: the element after the subtree
        if code >= n or parent[code] != parent[i] or tag[code] != "td":
            continue
        if "pre" not in tag[code:code + size[code]]:
            continue
        if _numbers_only(doc, i):
            out.append(i)
    return out

