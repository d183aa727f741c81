# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of the content layer: the scorer's feature rows over
a page's arrays (no Lexbor node is read). :func:`feature_rows`
(:func:`temex.content.features.block_features`: every group in one pass,
the row's columns laid out by the group widths the caller passes from the
feature definitions) and :func:`context_rows` (stage 2's rows,
:func:`temex.content.features.context_features`; its window's float sum is
the scorer module's :func:`_psum`, cimported through
``_scorer_kernel.pxd``). What reads the rows, the stages' dot products and
sigmoids, the trees and the output's keep mask, is
:mod:`temex.content._scorer_kernel`. Each value is computed by the same
operations in the same order as the pure-Python path, which stays the
reference; :mod:`temex.page.kernel` loads it with the other layers and
names each function's twin (``TWINS``).
"""

from libc.stdlib cimport calloc, free, malloc
from libc.math cimport log, log1p, signbit
from cpython.ref cimport Py_INCREF
from cpython.number cimport PyNumber_Power
from cpython.float cimport PyFloat_FromDouble, PyFloat_AsDouble
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython cimport array
import array as _array_module

from temex.content._scorer_kernel cimport _psum

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISDIGIT(Py_UCS4 ch)
    bint Py_UNICODE_ISUPPER(Py_UCS4 ch)
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)


# -- the content features (temex.content.features.block_features) --------------

cdef array.array _DOUBLES = _array_module.array("d")

cdef object _F0 = 0.0
cdef object _F1 = 1.0
cdef object _TWO = 2


cdef inline void _put(list row, Py_ssize_t j, double x):
    """``row[j] = x`` on a new list (PyList_New): the slot holds no reference
    yet; 0.0 and 1.0 share one object each."""
    cdef object v
    if x == 0.0 and not signbit(x):
        v = _F0
    elif x == 1.0:
        v = _F1
    else:
        v = PyFloat_FromDouble(x)
    Py_INCREF(v)
    PyList_SET_ITEM(row, j, v)


cdef inline void _set(double *row, Py_ssize_t j, double x) noexcept:
    row[j] = x


cdef inline double _q(double a, double b):
    """``a / b``, raising as Python does when ``b`` is 0."""
    if b == 0.0:
        raise ZeroDivisionError("division by zero")
    return a / b


#: The width of each group of a row as :func:`feature_rows` writes it, in row
#: order (text, tags, ancestors, names, subtrees, neighbours, rules,
#: landmarks, records, kinds; then the site group); -1: one-hot, as wide as
#: the caller says.
FEATURE_WIDTHS = (20, -1, -1, 4, 10, 6, 9, 5, 10, 3, 9)


cdef int _check_widths(tuple widths) except -1:
    if len(widths) != len(FEATURE_WIDTHS) or any([want >= 0 and got != want for want, got
                                                  in zip(FEATURE_WIDTHS, widths)]):
        raise ValueError(f"feature group widths {widths}: the kernel writes {FEATURE_WIDTHS}"
                         " (-1: one-hot, any width)")
    return 0


def feature_rows(list tag, list parent, list size, list depth, Py_ssize_t body,
                 list node, list chars, list lchars, list texts, list words,
                 list sc, list sl, list sb, dict anc_bits, dict tag_index, object tag_class,
                 tuple widths, Py_ssize_t table_bit,
                 bytes neg, bytes pos, bytes comm, frozenset stop, object title_words,
                 tuple rule, list lists, list recs, object data_table, object site):
    """:func:`temex.content.features.block_features` in one pass per group:
    the same rows as one flat ``array('d')``, row after row, each value
    computed by the same operations in the same order. ``widths``: the
    widths of the groups in row order, then the site group's
    (:data:`temex.content.feature_columns.WIDTHS`): a row is the groups'
    widths long, the site group's more with ``site``; the tag and ancestor
    groups are one-hot of any width, the others must be as wide as the
    values written here (:data:`FEATURE_WIDTHS`; else ValueError).
    ``rule``: ld_ok, named, records, chosen_mask, region, title;
    ``site``: None or (pages, df, chosen_mask, region); ``tag_class(tag)``:
    the index in ``_TAGS`` of a tag not in ``tag_index`` yet; the float sum
    of the page's stop-word rate is Python's own ``sum``)."""
    _check_widths(widths)
    cdef Py_ssize_t nb = len(node), ne = len(tag), b, d, i, p, gp, j, k, col, nw, t
    cdef Py_ssize_t end = body + <Py_ssize_t> size[body] if body >= 0 else 0
    cdef Py_ssize_t gw[11]  # the groups' widths
    cdef Py_ssize_t nf = 0, nsite, n_tags, n_anc
    cdef const unsigned char[:] fneg = neg
    cdef const unsigned char[:] fpos = pos
    cdef const unsigned char[:] fcom = comm
    cdef long long *anc = <long long *> calloc(ne + 1, sizeof(long long))
    cdef long *negc = <long *> calloc(ne + 1, sizeof(long))
    cdef long *posc = <long *> calloc(ne + 1, sizeof(long))
    cdef unsigned char *below = <unsigned char *> calloc(ne + 1, 1)
    cdef double *c_ = <double *> calloc(nb + 1, sizeof(double))
    cdef double *l_ = <double *> calloc(nb + 1, sizeof(double))
    cdef long *sent = <long *> calloc(nb + 1, sizeof(long))
    cdef double *lc = NULL
    cdef double *ll = NULL
    cdef double *rmax = NULL
    cdef long *nrec = NULL
    cdef long *firstrec = NULL
    cdef double *rc = <double *> calloc(ne + 2, sizeof(double))
    cdef list stop_terms
    cdef array.array out
    cdef double *rowp
    cdef str s
    cdef Py_UCS4 ch, last
    cdef Py_ssize_t punct, commas, digits, syms, dots, ln, wlen, nstop, ntitle, maxdepth
    cdef Py_ssize_t bdepth, first_h1, nl, anchor, rk
    cdef bint upper, pipe, ends
    cdef double total, page_ld, page_stop, before, x, y, cc, ll_, region_share, log_total
    cdef double in_lists, total_text, tmax, rep_share, long_rep_share, long_c, pages_d
    cdef long long m
    cdef Py_ssize_t region = rule[4], title = rule[5], region_end
    cdef list ld_ok = rule[0], named = rule[1], records = rule[2], chosen = rule[3]
    cdef list sdf = None, schosen = None
    cdef Py_ssize_t sreg = -1, sreg_end = 0, pages = 0, df
    cdef dict tables = {}
    cdef list tclass = [], stop_rates = []
    cdef Py_ssize_t ntw = len(title_words)
    cdef int kind
    cdef void *data
    for j in range(11):
        gw[j] = <Py_ssize_t> widths[j]
        if j < 10:
            nf += gw[j]
    n_tags, n_anc = gw[1], gw[2]
    nsite = gw[10] if site is not None else 0
    if (anc == NULL or negc == NULL or posc == NULL or below == NULL or c_ == NULL
            or l_ == NULL or sent == NULL or rc == NULL):
        free(anc); free(negc); free(posc); free(below); free(c_); free(l_); free(sent); free(rc)
        raise MemoryError()
    try:
        out = array.clone(_DOUBLES, nb * (nf + nsite), zero=False)
        if nb == 0:
            return out
        # _ancestors: the _ANC bitmask, name counts, comment sections, down the body
        for i in range(body, end):
            v = anc_bits.get(tag[i])
            m = <long long> v if v is not None else 0
            p = <Py_ssize_t> parent[i]
            if i != body:
                anc[i] = anc[p] | m
                negc[i] = negc[p] + fneg[i]
                posc[i] = posc[p] + fpos[i]
                below[i] = 1 if (fcom[i] or below[p]) else 0
            else:
                anc[i] = m
                negc[i] = fneg[i]
                posc[i] = fpos[i]
                below[i] = 1 if fcom[i] else 0
        for b in range(nb):
            c_[b] = <double> <Py_ssize_t> chars[b]
            l_[b] = <double> <Py_ssize_t> lchars[b]
        total = <double> max(1, <Py_ssize_t> sc[body])
        page_ld = <double> <Py_ssize_t> sl[body] / total
        maxdepth = 1
        for i in range(body, end):
            if <Py_ssize_t> depth[i] > maxdepth:
                maxdepth = <Py_ssize_t> depth[i]
        bdepth = <Py_ssize_t> depth[body]
        # the page's stop-word rate: Python's float sum, as the pure path
        stop_terms = []
        ln = 0
        for b in range(nb):
            ws = words[b]
            nw = len(ws)
            nstop = 0
            for w in ws:
                if w in stop:
                    nstop += 1
            stop_rates.append(nstop / <double> nw if nw else 0.0)
            stop_terms.append(stop_rates[b] * chars[b])
            ln += <Py_ssize_t> chars[b]
        page_stop = sum(stop_terms) / <double> (ln if ln else 1)
        first_h1 = -1
        for b in range(nb):
            if tag[<Py_ssize_t> node[b]] == "h1":
                first_h1 = b
                break
        # record lists: characters, link characters, records, largest record
        nl = 0
        for b in range(nb):
            if <Py_ssize_t> lists[b] + 1 > nl:
                nl = <Py_ssize_t> lists[b] + 1
        lc = <double *> calloc(nl + 1, sizeof(double))
        ll = <double *> calloc(nl + 1, sizeof(double))
        rmax = <double *> calloc(nl + 1, sizeof(double))
        nrec = <long *> calloc(nl + 1, sizeof(long))
        firstrec = <long *> calloc(nl + 1, sizeof(long))
        if lc == NULL or ll == NULL or rmax == NULL or nrec == NULL or firstrec == NULL:
            raise MemoryError()
        for k in range(nl):
            firstrec[k] = -2
        for b in range(nb):
            k = <Py_ssize_t> lists[b]
            if k >= 0:
                lc[k] += c_[b]
                ll[k] += l_[b]
                rc[<Py_ssize_t> recs[b] + 1] += c_[b]
                if firstrec[k] == -2:
                    firstrec[k] = <Py_ssize_t> recs[b]
        for b in range(nb):
            k = <Py_ssize_t> lists[b]
            if k >= 0 and (b == 0 or recs[b - 1] != recs[b]):
                nrec[k] += 1
                x = rc[<Py_ssize_t> recs[b] + 1]
                if x > rmax[k]:
                    rmax[k] = x
        anchor = 0
        tmax = c_[0] - l_[0]
        ln = 0
        for b in range(nb):
            x = c_[b] - l_[b]
            ln += <Py_ssize_t> chars[b] - <Py_ssize_t> lchars[b]
            if x > tmax:
                tmax = x
                anchor = b
        total_text = <double> max(1, ln)
        in_lists = 0.0
        for k in range(nl):
            in_lists += lc[k]
        in_lists = in_lists / total
        region_end = region + <Py_ssize_t> size[region] if region >= 0 else 0
        region_share = <double> <Py_ssize_t> sc[region] / total if region >= 0 else 0.0
        log_total = log1p(total)
        if site is not None:
            pages = <Py_ssize_t> site[0]
            sdf = site[1]
            schosen = site[2]
            sreg = <Py_ssize_t> site[3]
            sreg_end = sreg + <Py_ssize_t> size[sreg] if sreg >= 0 else 0
            ln = 0
            rk = 0
            long_c = 0.0
            for b in range(min(nb, len(sdf))):
                if <Py_ssize_t> sdf[b] >= 1:
                    ln += <Py_ssize_t> chars[b]
                    if <Py_ssize_t> chars[b] >= 150:
                        rk += <Py_ssize_t> chars[b]
            for b in range(nb):
                if <Py_ssize_t> chars[b] >= 150:
                    long_c += c_[b]
            rep_share = <double> ln / total
            long_rep_share = <double> rk / long_c if long_c else 0.0
        before = 0.0
        for b in range(nb):
            d = <Py_ssize_t> node[b]
            p = <Py_ssize_t> parent[d] if d != body else body
            gp = <Py_ssize_t> parent[p] if p != body else body
            s = texts[b]
            ws = words[b]
            nw = len(ws)
            cc = c_[b]
            # one scan of the text: punctuation, digits, code symbols, marks
            punct = commas = digits = syms = dots = 0
            pipe = False
            last = 0
            ln = len(s)
            kind = PyUnicode_KIND(s)
            data = PyUnicode_DATA(s)
            for j in range(ln):
                ch = PyUnicode_READ(kind, data, j)
                if ch == 46 or ch == 44 or ch == 59 or ch == 58 or ch == 33 or ch == 63:
                    punct += 1
                    if ch == 44:
                        commas += 1
                    elif ((ch == 46 or ch == 63 or ch == 33) and j + 1 < ln
                          and PyUnicode_READ(kind, data, j + 1) == 32):
                        dots += 1  # ". ", "? ", "! " (they cannot overlap)
                if Py_UNICODE_ISDIGIT(ch):
                    digits += 1
                if ch == 124 or ch == 0x2022 or ch == 0xbb:
                    pipe = True
                if (ch == 123 or ch == 125 or ch == 91 or ch == 93 or ch == 40 or ch == 41
                        or ch == 59 or ch == 61 or ch == 60 or ch == 62 or ch == 47 or ch == 92
                        or ch == 95 or ch == 36 or ch == 35 or ch == 42 or ch == 38
                        or ch == 124 or ch == 43):
                    syms += 1  # features._CODE_SYMS
                if not Py_UNICODE_ISSPACE(ch):
                    last = ch  # the last character of s.rstrip()
            ends = (last == 46 or last == 33 or last == 63 or last == 58 or last == 34
                    or last == 0x201d)
            sent[b] = dots + ends
            upper = ln > 0 and Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, 0))
            wlen = 0
            ntitle = 0
            for w in ws:
                wlen += len(<str> w)
                if ntw and w in title_words:
                    ntitle += 1
            rowp = out.data.as_doubles + b * (nf + nsite)
            col = 0
            # TEXT_FEATURES
            _set(rowp, 0, 1.0)
            _set(rowp, 1, log1p(cc))
            _set(rowp, 2, log1p(<double> (<Py_ssize_t> chars[b] - <Py_ssize_t> lchars[b])))
            _set(rowp, 3, l_[b] / cc if cc else 0.0)
            _set(rowp, 4, log1p(<double> nw))
            _set(rowp, 5, <double> wlen / <double> nw if nw else 0.0)
            _set(rowp, 6, <double> stop_rates[b] - page_stop)
            _set(rowp, 7, <double> punct / cc if cc else 0.0)
            _set(rowp, 8, <double> min(sent[b], 10) / 10.0)
            _set(rowp, 9, 1.0 if ends else 0.0)
            _set(rowp, 10, <double> digits / cc if cc else 0.0)
            _set(rowp, 11, 1.0 if upper else 0.0)
            _set(rowp, 12, <double> commas / <double> max(1, nw))
            _set(rowp, 13, 1.0 if pipe else 0.0)
            _set(rowp, 14, <double> (<Py_ssize_t> depth[d] - bdepth) / <double> max(1, maxdepth - bdepth))
            x = before / total
            _set(rowp, 15, x)
            # Python's float ** 2 calls libm's pow; C's pow(x, 2.0) may be x * x
            _set(rowp, 16, <double> PyNumber_Power(PyFloat_FromDouble(x), _TWO, None))
            _set(rowp, 17, <double> b / <double> nb)
            _set(rowp, 18, 1.0 if cc < 20 else 0.0)
            _set(rowp, 19, 1.0 if cc > 400 else 0.0)
            before += cc
            col = gw[0]
            # TAG_FEATURES
            v = tag_index.get(tag[d])
            if v is None:
                v = tag_class(tag[d])
                if len(tag_index) < 4096:  # bounded: custom elements are many
                    tag_index[tag[d]] = v
            t = <Py_ssize_t> v
            for j in range(n_tags):
                _set(rowp, col + j, 1.0 if j == t else 0.0)
            col += n_tags
            # ANCESTOR_FEATURES
            m = anc[d]
            for j in range(n_anc):
                _set(rowp, col + j, 1.0 if (m >> j) & 1 else 0.0)
            col += n_anc
            # NAME_FEATURES
            _set(rowp, col, <double> min(negc[d], 3) / 3.0)
            _set(rowp, col + 1, 1.0 if (fneg[d] or fneg[p]) else 0.0)
            _set(rowp, col + 2, <double> min(posc[d], 3) / 3.0)
            _set(rowp, col + 3, 1.0 if (fpos[d] or (d != body and fpos[p])) else 0.0)
            col += gw[3]
            # SUBTREE_FEATURES
            for i in (p, gp):
                x = <double> <Py_ssize_t> sc[i]
                y = <double> <Py_ssize_t> sb[i]
                _set(rowp, col, log1p(x))
                _set(rowp, col + 1, <double> <Py_ssize_t> sl[i] / x if x else 0.0)
                _set(rowp, col + 2, log1p(y))
                _set(rowp, col + 3, x / total)
                _set(rowp, col + 4, log1p(x / <double> max(1, <Py_ssize_t> sb[i])))
                col += 5
            # NEIGHBOUR_FEATURES
            if b > 0:
                _set(rowp, col, _q(l_[b - 1], c_[b - 1]))
                _set(rowp, col + 2, log1p(c_[b - 1]))
                _set(rowp, col + 4, 1.0 if tag[<Py_ssize_t> node[b - 1]] in (
                    "h1", "h2", "h3", "h4", "h5", "h6") else 0.0)
            else:
                _set(rowp, col, 0.0)
                _set(rowp, col + 2, 0.0)
                _set(rowp, col + 4, 0.0)
            if b + 1 < nb:
                _set(rowp, col + 1, _q(l_[b + 1], c_[b + 1]))
                _set(rowp, col + 3, log1p(c_[b + 1]))
                _set(rowp, col + 5, log1p(<double> (<Py_ssize_t> chars[b + 1]
                                                   - <Py_ssize_t> lchars[b + 1])))
            else:
                _set(rowp, col + 1, 0.0)
                _set(rowp, col + 3, 0.0)
                _set(rowp, col + 5, 0.0)
            col += gw[5]
            # RULE_FEATURES
            _set(rowp, col, PyFloat_AsDouble(ld_ok[b]))
            _set(rowp, col + 1, PyFloat_AsDouble(named[b]))
            _set(rowp, col + 2, PyFloat_AsDouble(records[b]))
            _set(rowp, col + 3, 1.0 if (region >= 0 and region <= d < region_end) else 0.0)
            _set(rowp, col + 4, PyFloat_AsDouble(chosen[b]))
            _set(rowp, col + 5, 1.0 if b == title else 0.0)
            _set(rowp, col + 6, region_share)
            _set(rowp, col + 7, log_total)
            _set(rowp, col + 8, page_ld)
            col += gw[6]
            # LANDMARK_FEATURES
            x = <double> ntitle / <double> nw if (nw and ntw) else 0.0
            _set(rowp, col, x)
            _set(rowp, col + 1, 1.0 if (x > 0.8 and nw >= 2
                                       and <double> (nw * 2) >= <double> ntw * 0.5) else 0.0)
            _set(rowp, col + 2, 1.0 if (first_h1 >= 0 and b >= first_h1) else 0.0)
            _set(rowp, col + 3, 1.0 if below[d] else 0.0)
            _set(rowp, col + 4, 1.0 if b == first_h1 else 0.0)
            col += gw[7]
            # RECORD_FEATURES
            k = <Py_ssize_t> lists[b]
            if k < 0:
                for j in range(9):
                    _set(rowp, col + j, 0.0)
                _set(rowp, col + 9, in_lists)
            else:
                x = rc[<Py_ssize_t> recs[b] + 1]
                _set(rowp, col, 1.0)
                _set(rowp, col + 1, lc[k] / total)
                _set(rowp, col + 2, (lc[k] - ll[k]) / total_text)
                _set(rowp, col + 3, log1p(<double> nrec[k]))
                _set(rowp, col + 4, ll[k] / lc[k] if lc[k] else 0.0)
                _set(rowp, col + 5, 1.0 if <Py_ssize_t> lists[anchor] == k else 0.0)
                _set(rowp, col + 6, rmax[k] / lc[k] if lc[k] else 0.0)
                _set(rowp, col + 7, 1.0 if firstrec[k] == <Py_ssize_t> recs[b] else 0.0)
                _set(rowp, col + 8, in_lists)
                _set(rowp, col + 9, x / total)
            col += gw[8]
            # KIND_FEATURES
            _set(rowp, col, <double> syms / cc if cc else 0.0)
            if anc[d] & (<long long> 1 << table_bit):
                t = d
                while t > body and tag[t] != "table":
                    t = <Py_ssize_t> parent[t]
                v = tables.get(t)
                if v is None:
                    v = tables[t] = (1.0 if data_table(t) else 0.0,
                                     <double> <Py_ssize_t> sc[t] / total)
                _set(rowp, col + 1, <double> v[0])
                _set(rowp, col + 2, <double> v[1])
            else:
                _set(rowp, col + 1, 0.0)
                _set(rowp, col + 2, 0.0)
            col += gw[9]
            # SITE_FEATURES
            if site is not None:
                df = <Py_ssize_t> sdf[b]
                pages_d = <double> pages
                x = l_[b] / cc if cc else 0.0
                _set(rowp, col, <double> min(pages, 20) / 20.0)
                _set(rowp, col + 1, 1.0 if df >= 1 else 0.0)
                _set(rowp, col + 2, <double> df / pages_d if pages else 0.0)
                _set(rowp, col + 3, 1.0 if (df >= 2 or (df >= 1 and cc < 100)) else 0.0)
                _set(rowp, col + 4, PyFloat_AsDouble(schosen[b]))
                _set(rowp, col + 5, 1.0 if (sreg >= 0 and sreg <= d < sreg_end) else 0.0)
                _set(rowp, col + 6, rep_share)
                _set(rowp, col + 7, long_rep_share)
                _set(rowp, col + 8, 1.0 if (df >= 1 and cc >= 150 and x < 0.3
                                           and sent[b] >= 2) else 0.0)
        return out
    finally:
        free(anc); free(negc); free(posc); free(below); free(c_); free(l_); free(sent)
        free(rc); free(lc); free(ll); free(rmax); free(nrec); free(firstrec)


# -- stage 2's context rows (temex.content.features.context_features) ----------

cdef inline double _logit(double p) noexcept:
    """:func:`temex.content.features.logit`: ``min``/``max`` as Python's."""
    if 1e-6 > p:
        p = 1e-6
    if 1 - 1e-6 < p:
        p = 1 - 1e-6
    return log(p / (1 - p))


def context_rows(list s1, list chars, list node, list parent, Py_ssize_t body,
                 Py_ssize_t n_elements, list lk, list rk, list ws, list cs):
    """:func:`temex.content.features.context_features` from the subtree sums
    of ``s1 × chars`` and ``chars`` (``ws``, ``cs``): the same rows, the
    window's float sum as this Python's ``sum``."""
    cdef Py_ssize_t n = len(s1), b, d, p, gp, ggp, lo, hi, j, k, r, nl = 0
    cdef double *s = <double *> malloc((n + 1) * sizeof(double))
    cdef double *c = <double *> malloc((n + 1) * sizeof(double))
    cdef double *lw = NULL
    cdef double *rw = <double *> calloc(2 * (n_elements + 2), sizeof(double))
    cdef double buf[5]
    cdef double w, wc, page, x
    cdef list out = [], row
    if s == NULL or c == NULL or rw == NULL:
        free(s); free(c); free(rw)
        raise MemoryError()
    try:
        for b in range(n):
            s[b] = PyFloat_AsDouble(s1[b])
            c[b] = <double> <Py_ssize_t> chars[b]
            if <Py_ssize_t> lk[b] + 1 > nl:
                nl = <Py_ssize_t> lk[b] + 1
        lw = <double *> calloc(2 * (nl + 1), sizeof(double))
        if lw == NULL:
            raise MemoryError()
        for b in range(n):
            k = <Py_ssize_t> lk[b]
            if k >= 0:
                w = s[b] * c[b]
                r = <Py_ssize_t> rk[b] + 1
                lw[2 * k] += w
                lw[2 * k + 1] += c[b]
                rw[2 * r] += w
                rw[2 * r + 1] += c[b]
        x = PyFloat_AsDouble(cs[body])
        page = PyFloat_AsDouble(ws[body]) / x if x else 0.0
        for b in range(n):
            d = <Py_ssize_t> node[b]
            p = <Py_ssize_t> parent[d] if d != body else body
            gp = <Py_ssize_t> parent[p] if p != body else body
            ggp = <Py_ssize_t> parent[gp] if gp != body else body
            lo = b - 2 if b >= 2 else 0
            hi = b + 3 if b + 3 < n else n
            wc = 0.0
            for j in range(lo, hi):
                wc += c[j]  # an int sum in Python: exact either way
                buf[j - lo] = s[j] * c[j]
            row = PyList_New(10)
            _put(row, 0, _logit(s[b]))
            _put(row, 1, s[b - 1] if b else 0.0)
            _put(row, 2, s[b + 1] if b + 1 < n else 0.0)
            for j, k in enumerate((p, gp, ggp)):
                x = PyFloat_AsDouble(cs[k])
                _put(row, 3 + j, PyFloat_AsDouble(ws[k]) / x if x else 0.0)
            _put(row, 6, _psum(buf, hi - lo) / wc if wc else 0.0)
            _put(row, 7, page)
            k = <Py_ssize_t> lk[b]
            if k >= 0:
                r = <Py_ssize_t> rk[b] + 1
                _put(row, 8, lw[2 * k] / lw[2 * k + 1] if lw[2 * k + 1] else 0.0)
                _put(row, 9, rw[2 * r] / rw[2 * r + 1] if rw[2 * r + 1] else 0.0)
            else:
                _put(row, 8, s[b])
                _put(row, 9, s[b])
            out.append(row)
        return out
    finally:
        free(s); free(c); free(lw); free(rw)
