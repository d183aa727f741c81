# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The content scorer's arithmetic, compiled: what follows the feature rows
(:mod:`temex.content._kernel`). :func:`logistic` (both stages' dot
products and sigmoids of :class:`temex.content.scorer.ScorerModel`;
Python's float ``sum`` reproduced, with 3.12's compensation, by
:func:`_psum`, which the context rows share through ``_scorer_kernel.pxd``,
and checked against ``sum`` at load by :mod:`temex.page.kernel_check`
through :func:`dot` and :func:`psum`), :class:`Forest` (the
gradient-boosted trees of :class:`temex.content.scorer.Forest`), and the
content output's :func:`keep_mask` (the elements a choice of blocks
keeps). Each value is computed by the same operations in the same order as
the pure-Python path, which stays the reference; :mod:`temex.page.kernel`
loads it with the other layers and names each function's twin
(``TWINS``).
"""

from libc.stdlib cimport calloc, free, malloc
from libc.math cimport exp, fabs, isfinite
from cpython.ref cimport Py_INCREF
from cpython.float cimport PyFloat_FromDouble, PyFloat_AsDouble
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython cimport array

cdef extern from "Python.h":
    int PY_VERSION_HEX


# -- the scorer's logistic regressions (temex.content.scorer) ------------------

cdef double _psum(double *x, Py_ssize_t n) noexcept:
    """``sum(xs)`` of ``n`` Python floats as this Python adds them: the first
    added to the int 0, the others one by one (Python 3.12 and later: with
    Neumaier's compensation, as ``builtin_sum_impl`` does).
    :mod:`temex.page.kernel` checks it against ``sum`` itself before the
    kernel is used."""
    cdef Py_ssize_t j
    cdef double acc, t, c = 0.0
    if n == 0:
        return 0.0
    acc = 0.0 + x[0]
    if PY_VERSION_HEX >= 0x030C0000:
        for j in range(1, n):
            t = acc + x[j]
            if fabs(acc) >= fabs(x[j]):
                c += (acc - t) + x[j]
            else:
                c += (x[j] - t) + acc
            acc = t
        if c != 0.0 and isfinite(c):
            acc += c
    else:
        for j in range(1, n):
            acc += x[j]
    return acc


cdef double _dot(list f, Py_ssize_t wf, list g, double *k, Py_ssize_t nk,
                 double *buf) except? -1.0:
    """``sum(map(operator.mul, f[:wf] + g, k))`` (``buf``: room for ``nk``
    values): the row read into ``buf``, then :func:`_dot_flat`."""
    cdef Py_ssize_t j
    for j in range(wf if wf < nk else nk):
        buf[j] = PyFloat_AsDouble(f[j])
    return _dot_flat(buf, wf, g, k, nk, buf)


cdef double _dot_flat(const double *f, Py_ssize_t wf, list g, double *k, Py_ssize_t nk,
                      double *buf) except? -1.0:
    """``sum(map(operator.mul, f[:wf] + g, k))`` of a row held as ``wf``
    doubles (``buf``: room for ``nk`` products; it may be ``f`` itself,
    each product replacing the value it reads)."""
    cdef Py_ssize_t n = wf + (len(g) if g is not None else 0), j
    if nk < n:
        n = nk
    for j in range(n):
        buf[j] = (f[j] if j < wf else PyFloat_AsDouble(g[j - wf])) * k[j]
    return _psum(buf, n)


def dot(list f, list k):
    """``sum(map(operator.mul, f, k))`` (:func:`_dot`), for the self-check."""
    cdef Py_ssize_t nk = len(k), j
    cdef double *kk = <double *> malloc((2 * nk + 1) * sizeof(double))
    if kk == NULL:
        raise MemoryError()
    try:
        for j in range(nk):
            kk[j] = PyFloat_AsDouble(k[j])
        return _dot(f, len(f), None, kk, nk, kk + nk)
    finally:
        free(kk)


cdef struct _Node:
    double threshold
    double value
    int feature
    int child[2]


cdef class Forest:
    """:class:`temex.content.scorer.Forest` in C: the raw score of a row is
    ``base`` plus, tree by tree, the value of the leaf its walk reaches
    (``x[feature] <= threshold``: left). The Python class has checked that
    every node points inside the arrays and every child comes after its
    parent (so that a walk ends). Laid out for a walk without branches on
    the data: one record a node (its test, its value, its children: left at
    ``child[0]``), a leaf its own two children, and every walk ``depth``
    steps long (the deepest leaf's), so that the processor overlaps the
    walks of successive trees instead of mispredicting their turns (about
    10 ns a tree of depth 4 and a row)."""
    cdef double base
    cdef Py_ssize_t n, ntrees, depth
    cdef _Node *nodes
    cdef int *roots

    def __cinit__(self, double base, list feature, list threshold, list left, list right,
                  list value, list roots):
        cdef Py_ssize_t j
        cdef int i
        self.base = base
        self.n = len(feature)
        self.ntrees = len(roots)
        self.nodes = <_Node *> malloc((self.n + 1) * sizeof(_Node))
        self.roots = <int *> malloc((self.ntrees + 1) * sizeof(int))
        cdef int *deep = <int *> malloc((self.n + 1) * sizeof(int))
        if self.nodes == NULL or self.roots == NULL or deep == NULL:
            free(deep)
            raise MemoryError()
        for j in range(self.n):
            self.nodes[j].threshold = threshold[j]
            self.nodes[j].value = value[j]
            if feature[j] < 0:  # a leaf: reads feature 0 and stays
                self.nodes[j].feature = 0
                self.nodes[j].child[0] = self.nodes[j].child[1] = j
            else:
                self.nodes[j].feature = feature[j]
                self.nodes[j].child[0] = left[j]
                self.nodes[j].child[1] = right[j]
        for j in range(self.ntrees):
            self.roots[j] = roots[j]
        # the longest walk: every node's depth (children come after parents)
        self.depth = 0
        for j in range(self.n):
            deep[j] = 0
        for j in range(self.n):
            if feature[j] >= 0:
                for i in (left[j], right[j]):
                    deep[i] = deep[j] + 1
                    if deep[i] > self.depth:
                        self.depth = deep[i]
        free(deep)

    def __dealloc__(self):
        free(self.nodes)
        free(self.roots)

    cdef double raw(self, const double *x) noexcept:
        cdef double z = self.base
        cdef Py_ssize_t t, d
        cdef const _Node *nd
        cdef int i
        for t in range(self.ntrees):
            i = self.roots[t]
            for d in range(self.depth):
                # right where not x <= threshold (a NaN goes right, as in Python)
                nd = &self.nodes[i]
                i = nd.child[1 - (x[nd.feature] <= nd.threshold)]
            z += self.nodes[i].value
        return z

    def raw_rows(self, list rows):
        """``[Forest.raw(row) for row in rows]`` of
        :class:`temex.content.scorer.Forest` (the site decision's rows,
        lists of floats): the same walks and the same sums in the same
        order, so equal."""
        cdef Py_ssize_t r, j, w
        cdef list row, out = []
        cdef double *x = NULL
        cdef Py_ssize_t cap = 0
        try:
            for r in range(len(rows)):
                row = rows[r]
                w = len(row)
                if w > cap:
                    free(x)
                    x = <double *> malloc((w + 1) * sizeof(double))
                    if x == NULL:
                        raise MemoryError()
                    cap = w
                for j in range(w):
                    x[j] = row[j]
                out.append(self.raw(x))
        finally:
            free(x)
        return out


def logistic(object rows, object ctx, Py_ssize_t width, double b, list k,
             Forest forest=None):
    """``[_sigmoid(b + sum(map(operator.mul, row[:width] + ctx[i], k)))]``
    per row (:class:`temex.content.scorer.ScorerModel`'s stages: ``ctx``
    None for stage 1, ``width`` -1 for the whole row); with ``forest``, the
    sigmoid of ``0.5 * (that sum + forest's raw score of the row)``.
    ``rows``: a list of rows, or an object with ``values`` (a flat
    ``array('d')``) and ``width`` (:class:`temex.content.features.FeatureRows`)."""
    cdef Py_ssize_t nk = len(k), j, i, n = len(rows), wf, rw = 0, nx
    cdef double *kk = <double *> malloc((3 * nk + 1) * sizeof(double))
    cdef double *xb
    cdef double z, e
    cdef list out = PyList_New(n) if n else [], f = None, g = None
    cdef array.array flat = None
    if kk == NULL:
        raise MemoryError()
    if type(rows) is not list:
        flat = rows.values
        rw = rows.width
    xb = kk + 2 * nk
    try:
        for j in range(nk):
            kk[j] = PyFloat_AsDouble(k[j])
        for i in range(n):
            if ctx is not None:
                g = ctx[i]
            if flat is not None:
                wf = rw if width < 0 or width > rw else width
                if forest is not None:
                    for j in range(wf if wf < nk else nk):
                        xb[j] = flat.data.as_doubles[i * rw + j]
                z = b + _dot_flat(flat.data.as_doubles + i * rw, wf, g, kk, nk, kk + nk)
            else:
                f = rows[i]
                wf = len(f) if width < 0 or width > len(f) else width
                if forest is not None:
                    for j in range(wf if wf < nk else nk):
                        xb[j] = PyFloat_AsDouble(f[j])
                z = b + _dot(f, wf, g, kk, nk, kk + nk)
            if forest is not None:
                # the row as the forest reads it: the row's values, then the
                # context's; a short row would read past them (Python: an
                # IndexError)
                nx = wf + (len(g) if g is not None else 0)
                if nx < nk:
                    raise IndexError("feature row shorter than the model")
                for j in range(wf, nk):
                    xb[j] = PyFloat_AsDouble(g[j - wf])
                z = 0.5 * (z + forest.raw(xb))
            if z >= 0:
                z = 1.0 / (1.0 + exp(-z))
            else:
                e = exp(z)
                z = e / (1.0 + e)
            v = PyFloat_FromDouble(z)
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out
    finally:
        free(kk)


def psum(list xs):
    """``sum(xs)`` of floats (:func:`_psum`), for the self-check."""
    cdef Py_ssize_t n = len(xs), j
    cdef double *x = <double *> malloc((n + 1) * sizeof(double))
    if x == NULL:
        raise MemoryError()
    try:
        for j in range(n):
            x[j] = PyFloat_AsDouble(xs[j])
        return _psum(x, n)
    finally:
        free(x)


# -- the kept elements of a choice of blocks (temex.content.output) ------------

def keep_mask(list block_of, list chosen, Py_ssize_t nblocks, list parent, list text,
              list tag, list size, frozenset spacers):
    """:meth:`temex.content.output.Content.keep_mask`'s three passes (the
    elements of kept blocks, the text-free elements that hold one or space
    one, the text-free elements of a kept ``<pre>``), in C: the same
    list."""
    cdef Py_ssize_t n = len(parent), i, j, p, b, e
    cdef unsigned char *ch = <unsigned char *> calloc(nblocks + 1, 1)
    cdef unsigned char *keep = <unsigned char *> calloc(n + 1, 1)
    cdef unsigned char *holds = <unsigned char *> calloc(n + 1, 1)
    cdef list out
    if ch == NULL or keep == NULL or holds == NULL:
        free(ch); free(keep); free(holds)
        raise MemoryError()
    try:
        for x in chosen:
            b = x
            if 0 <= b < nblocks:
                ch[b] = 1
        for i in range(n):
            b = block_of[i]
            keep[i] = 1 if (0 <= b < nblocks and ch[b]) else 0
        for i in range(n - 1, -1, -1):
            p = parent[i]
            if p >= 0 and (keep[i] or holds[i]):
                holds[p] = 1
        for i in range(n):
            if keep[i] or text[i]:
                continue
            p = parent[i]
            if holds[i] or (size[i] == 1 and p >= 0 and keep[p] and tag[i] in spacers):
                keep[i] = 1
        for i in range(n):
            if (keep[i] or holds[i]) and tag[i] == "pre":
                e = i + <Py_ssize_t> size[i]
                for j in range(i + 1, e):
                    if not text[j]:
                        keep[j] = 1
        out = [False] * n
        for i in range(n):
            if keep[i]:
                out[i] = True
        return out
    finally:
        free(ch); free(keep); free(holds)
