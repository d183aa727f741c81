# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=False
"""The compiled kernel of the template layer: the exact top-down mapping of
:mod:`temex.template.mapping` (:func:`etdm_exact`, for a local relation whose
key is the equality, and :func:`key_signatures`) and a saved template's
match (:func:`reached_mask`, :func:`reached_mask_cached`:
:func:`temex.template.saved._reached_mask`), over the arrays of two
Documents; no Lexbor node is read. The same mapping in the same insertion
order, the same Python hashes and digests as the pure-Python path, which
stays the reference; :mod:`temex.page.kernel` loads it with the other
layers and names each function's twin (``TWINS``).
"""

from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memset
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM


# -- the exact top-down mapping (temex.template.mapping) -------------------------

ctypedef long long i64


cdef struct _Memo:
    i64 s1
    i64 s2
    i64 score
    Py_ssize_t off    # first (i, j) pair in the pair store
    Py_ssize_t count  # pairs of the alignment
    int used


cdef struct _KJ:
    Py_ssize_t key
    Py_ssize_t j


cdef int _cmp_kj(const void *a, const void *b) noexcept nogil:
    cdef const _KJ *x = <const _KJ *> a
    cdef const _KJ *y = <const _KJ *> b
    if x.key != y.key:
        return -1 if x.key < y.key else 1
    if x.j != y.j:
        return -1 if x.j < y.j else 1
    return 0


cdef inline size_t _mix(i64 a, i64 b) noexcept nogil:
    cdef unsigned long long h = (<unsigned long long> a) * 0x9E3779B97F4A7C15ULL
    h ^= (<unsigned long long> b) + 0x7F4A7C159E3779B9ULL + (h << 6) + (h >> 2)
    h ^= h >> 29
    return <size_t> h


cdef class _Tree:
    """One document's arrays as the mapping reads them: key ids, subtree
    signatures, sizes, children (CSR)."""
    cdef Py_ssize_t n
    cdef Py_ssize_t *key
    cdef i64 *sig
    cdef i64 *size
    cdef Py_ssize_t *cstart
    cdef Py_ssize_t *clist

    def __cinit__(self, list keys, dict ids, list sig, list size, list children):
        cdef Py_ssize_t n = len(keys), i, k, m, total = 0
        cdef tuple ch
        self.n = n
        self.key = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        self.sig = <i64 *> malloc((n + 1) * sizeof(i64))
        self.size = <i64 *> malloc((n + 1) * sizeof(i64))
        self.cstart = <Py_ssize_t *> malloc((n + 2) * sizeof(Py_ssize_t))
        if self.key == NULL or self.sig == NULL or self.size == NULL or self.cstart == NULL:
            raise MemoryError()
        for i in range(n):
            kv = keys[i]
            got = ids.get(kv)
            if got is None:
                got = ids[kv] = len(ids)
            self.key[i] = <Py_ssize_t> got
            self.sig[i] = <i64> sig[i]
            self.size[i] = <i64> size[i]
            self.cstart[i] = total
            total += len(<tuple> children[i])
        self.cstart[n] = total
        self.clist = <Py_ssize_t *> malloc((total + 1) * sizeof(Py_ssize_t))
        if self.clist == NULL:
            raise MemoryError()
        for i in range(n):
            ch = <tuple> children[i]
            m = len(ch)
            for k in range(m):
                self.clist[self.cstart[i] + k] = <Py_ssize_t> ch[k]

    def __dealloc__(self):
        free(self.key); free(self.sig); free(self.size); free(self.cstart); free(self.clist)


cdef int _grow(void **block, size_t nbytes) except -1:
    """``realloc`` of ``block[0]`` to ``nbytes``; MemoryError, the old block
    kept, when it fails (the aligner's growable pair arrays)."""
    cdef void *grown = realloc(block[0], nbytes)
    if grown == NULL:
        raise MemoryError()
    block[0] = grown
    return 0


cdef class _Aligner:
    """:class:`temex.template.mapping._Aligner` for a relation whose key is
    the equality and that is local (``label``, ``strict``): the same
    recursion, tables, trims, bounds and tie-breaks, in C. Scores are memoised
    by the pair of subtree signatures, as there."""
    cdef _Tree t1, t2
    cdef Py_ssize_t max_cells, proxy_cells
    cdef _Memo *memo
    cdef size_t memo_cap, memo_len
    cdef int *pi      # pair store: (child index in a, child index in b)
    cdef int *pj
    cdef Py_ssize_t pairs_len, pairs_cap
    # scratch
    cdef Py_ssize_t *cx
    cdef Py_ssize_t *cy
    cdef Py_ssize_t cand_len, cand_cap
    cdef i64 *table
    cdef i64 *w
    cdef size_t table_cap, w_cap
    cdef int *ri
    cdef int *rj
    cdef Py_ssize_t r_len, r_cap
    cdef _KJ *kj
    cdef Py_ssize_t kj_cap

    def __cinit__(self, _Tree t1, _Tree t2, Py_ssize_t max_cells, Py_ssize_t proxy_cells):
        self.t1, self.t2 = t1, t2
        self.max_cells, self.proxy_cells = max_cells, proxy_cells
        self.memo_cap = 1024
        self.memo = <_Memo *> malloc(self.memo_cap * sizeof(_Memo))
        if self.memo == NULL:
            raise MemoryError()
        memset(self.memo, 0, self.memo_cap * sizeof(_Memo))

    def __dealloc__(self):
        free(self.memo); free(self.pi); free(self.pj); free(self.cx); free(self.cy)
        free(self.table); free(self.w); free(self.ri); free(self.rj); free(self.kj)

    # -- memo --------------------------------------------------------------
    cdef _Memo *find(self, i64 s1, i64 s2) noexcept:
        cdef size_t mask = self.memo_cap - 1, h = _mix(s1, s2) & mask
        while self.memo[h].used:
            if self.memo[h].s1 == s1 and self.memo[h].s2 == s2:
                return &self.memo[h]
            h = (h + 1) & mask
        return NULL

    cdef int grow_memo(self) except -1:
        cdef size_t old_cap = self.memo_cap, k, h, mask
        cdef _Memo *old = self.memo
        cdef _Memo *new = <_Memo *> malloc(2 * old_cap * sizeof(_Memo))
        if new == NULL:
            raise MemoryError()
        memset(new, 0, 2 * old_cap * sizeof(_Memo))
        mask = 2 * old_cap - 1
        for k in range(old_cap):
            if old[k].used:
                h = _mix(old[k].s1, old[k].s2) & mask
                while new[h].used:
                    h = (h + 1) & mask
                new[h] = old[k]
        self.memo = new
        self.memo_cap = 2 * old_cap
        free(old)
        return 0

    cdef int store(self, i64 s1, i64 s2, i64 score, Py_ssize_t off, Py_ssize_t count) except -1:
        cdef size_t mask, h
        if 2 * (self.memo_len + 1) > self.memo_cap:
            self.grow_memo()
        mask = self.memo_cap - 1
        h = _mix(s1, s2) & mask
        while self.memo[h].used:
            h = (h + 1) & mask
        self.memo[h].used = 1
        self.memo[h].s1 = s1
        self.memo[h].s2 = s2
        self.memo[h].score = score
        self.memo[h].off = off
        self.memo[h].count = count
        self.memo_len += 1
        return 0

    cdef int add_pair(self, Py_ssize_t i, Py_ssize_t j) except -1:
        if self.pairs_len == self.pairs_cap:
            self.pairs_cap = 2 * self.pairs_cap + 256
            _grow(<void **> &self.pi, self.pairs_cap * sizeof(int))
            _grow(<void **> &self.pj, self.pairs_cap * sizeof(int))
        self.pi[self.pairs_len] = <int> i
        self.pj[self.pairs_len] = <int> j
        self.pairs_len += 1
        return 0

    cdef int add_cand(self, Py_ssize_t x, Py_ssize_t y) except -1:
        if self.cand_len == self.cand_cap:
            self.cand_cap = 2 * self.cand_cap + 256
            _grow(<void **> &self.cx, self.cand_cap * sizeof(Py_ssize_t))
            _grow(<void **> &self.cy, self.cand_cap * sizeof(Py_ssize_t))
        self.cx[self.cand_len] = x
        self.cy[self.cand_len] = y
        self.cand_len += 1
        return 0

    cdef int add_result(self, Py_ssize_t i, Py_ssize_t j) except -1:
        if self.r_len == self.r_cap:
            self.r_cap = 2 * self.r_cap + 256
            _grow(<void **> &self.ri, self.r_cap * sizeof(int))
            _grow(<void **> &self.rj, self.r_cap * sizeof(int))
        self.ri[self.r_len] = <int> i
        self.rj[self.r_len] = <int> j
        self.r_len += 1
        return 0

    # -- the pieces of mapping._Aligner --------------------------------------
    cdef void trim(self, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *p, Py_ssize_t *s) noexcept:
        """Lengths of the identical prefix and suffix of the children of a, b."""
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef Py_ssize_t *c1 = t1.clist + t1.cstart[a]
        cdef Py_ssize_t *c2 = t2.clist + t2.cstart[b]
        cdef Py_ssize_t l1 = t1.cstart[a + 1] - t1.cstart[a]
        cdef Py_ssize_t l2 = t2.cstart[b + 1] - t2.cstart[b]
        cdef Py_ssize_t n = l1 if l1 < l2 else l2, pp = 0, ss = 0
        while pp < n and t1.sig[c1[pp]] == t2.sig[c2[pp]]:
            pp += 1
        while ss < n - pp and t1.sig[c1[l1 - 1 - ss]] == t2.sig[c2[l2 - 1 - ss]]:
            ss += 1
        p[0] = pp
        s[0] = ss

    cdef i64 score(self, Py_ssize_t x, Py_ssize_t y) except -1:
        cdef _Memo *m
        if self.t1.sig[x] == self.t2.sig[y]:
            return self.t1.size[x]
        m = self.find(self.t1.sig[x], self.t2.sig[y])
        if m == NULL:
            raise KeyError((x, y))
        return m.score

    cdef i64 bound(self, Py_ssize_t x, Py_ssize_t y) noexcept:
        cdef i64 a = self.t1.size[x], b = self.t2.size[y]
        if self.t1.sig[x] == self.t2.sig[y]:
            return a
        return a if a < b else b

    cdef i64 dp(self, Py_ssize_t *m1, Py_ssize_t n1, Py_ssize_t *m2, Py_ssize_t n2,
                bint by_bound) except -2:
        """mapping._Aligner._dp: the matched (i, j) go to the result list
        (``ri``, ``rj``), in order; returns the gain."""
        cdef Py_ssize_t i, j, bi = -1, bj = -1
        cdef i64 v, best = 0, wij, c
        cdef size_t cells = <size_t> n1 * <size_t> n2, tcells = <size_t> (n1 + 1) * <size_t> (n2 + 1)
        cdef void *g
        cdef Py_ssize_t *k1 = self.t1.key
        cdef Py_ssize_t *k2 = self.t2.key
        cdef i64 *w
        cdef i64 *table
        self.r_len = 0
        if cells > self.w_cap:
            g = realloc(<void *> self.w, cells * sizeof(i64))
            if g == NULL:
                raise MemoryError()
            self.w = <i64 *> g
            self.w_cap = cells
        w = self.w
        for i in range(n1):
            for j in range(n2):
                if k1[m1[i]] == k2[m2[j]]:
                    w[i * n2 + j] = self.bound(m1[i], m2[j]) if by_bound else self.score(m1[i], m2[j])
                else:
                    w[i * n2 + j] = 0
        if n1 == 1 or n2 == 1:  # a single candidate row or column
            for i in range(n1):
                for j in range(n2):
                    v = w[i * n2 + j]
                    if v > best:
                        best, bi, bj = v, i, j
            if best:
                self.add_result(bi, bj)
            return best
        if tcells > self.table_cap:
            g = realloc(<void *> self.table, tcells * sizeof(i64))
            if g == NULL:
                raise MemoryError()
            self.table = <i64 *> g
            self.table_cap = tcells
        table = self.table
        for j in range(n2 + 1):
            table[j] = 0
        for i in range(1, n1 + 1):
            table[i * (n2 + 1)] = 0
            for j in range(1, n2 + 1):
                v = table[i * (n2 + 1) + j - 1]
                c = table[(i - 1) * (n2 + 1) + j]
                if c > v:
                    v = c
                wij = w[(i - 1) * n2 + j - 1]
                if wij and table[(i - 1) * (n2 + 1) + j - 1] + wij > v:
                    v = table[(i - 1) * (n2 + 1) + j - 1] + wij
                table[i * (n2 + 1) + j] = v
        i, j = n1, n2
        while i > 0 and j > 0:
            wij = w[(i - 1) * n2 + j - 1]
            if wij and table[i * (n2 + 1) + j] == table[(i - 1) * (n2 + 1) + j - 1] + wij:
                self.add_result(i - 1, j - 1)
                i -= 1
                j -= 1
            elif table[i * (n2 + 1) + j] == table[(i - 1) * (n2 + 1) + j]:
                i -= 1
            else:
                j -= 1
        # reverse: in order
        i, j = 0, self.r_len - 1
        while i < j:
            self.ri[i], self.ri[j] = self.ri[j], self.ri[i]
            self.rj[i], self.rj[j] = self.rj[j], self.rj[i]
            i += 1
            j -= 1
        return table[n1 * (n2 + 1) + n2]

    cdef int greedy(self, Py_ssize_t *m1, Py_ssize_t n1, Py_ssize_t *m2, Py_ssize_t n2) except -1:
        """mapping._Aligner._greedy: in-order greedy matching by key, the
        matched (i, j) to the result list."""
        cdef Py_ssize_t i, j, lo, hi, mid, nxt = 0, key
        cdef void *g
        self.r_len = 0
        if n2 > self.kj_cap:
            g = realloc(<void *> self.kj, n2 * sizeof(_KJ))
            if g == NULL:
                raise MemoryError()
            self.kj = <_KJ *> g
            self.kj_cap = n2
        for j in range(n2):
            self.kj[j].key = self.t2.key[m2[j]]
            self.kj[j].j = j
        qsort(<void *> self.kj, n2, sizeof(_KJ), _cmp_kj)
        for i in range(n1):
            key = self.t1.key[m1[i]]
            # first entry with (key, j >= nxt)
            lo, hi = 0, n2
            while lo < hi:
                mid = (lo + hi) // 2
                if self.kj[mid].key < key or (self.kj[mid].key == key and self.kj[mid].j < nxt):
                    lo = mid + 1
                else:
                    hi = mid
            if lo < n2 and self.kj[lo].key == key:
                self.add_result(i, self.kj[lo].j)
                nxt = self.kj[lo].j + 1
        return 0

    cdef int approximate(self, Py_ssize_t *m1, Py_ssize_t n1, Py_ssize_t *m2,
                         Py_ssize_t n2) except -1:
        """mapping._Aligner._approximate: the matched (i, j) to the result list."""
        if <size_t> n1 * <size_t> n2 > <size_t> self.proxy_cells:
            return self.greedy(m1, n1, m2, n2)
        self.dp(m1, n1, m2, n2, True)
        return 0

    cdef int candidates(self, Py_ssize_t a, Py_ssize_t b) except -1:
        """mapping._Aligner.candidate_pairs into ``cx``, ``cy``."""
        cdef Py_ssize_t p, s, n1, n2, i, j
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef Py_ssize_t *m1
        cdef Py_ssize_t *m2
        self.cand_len = 0
        self.trim(a, b, &p, &s)
        n1 = t1.cstart[a + 1] - t1.cstart[a] - p - s
        n2 = t2.cstart[b + 1] - t2.cstart[b] - p - s
        if n1 <= 0 or n2 <= 0:
            return 0
        m1 = t1.clist + t1.cstart[a] + p
        m2 = t2.clist + t2.cstart[b] + p
        if n1 * n2 > self.max_cells:
            self.approximate(m1, n1, m2, n2)
            for i in range(self.r_len):
                self.add_cand(m1[self.ri[i]], m2[self.rj[i]])
            return 0
        for i in range(n1):
            for j in range(n2):
                if t1.key[m1[i]] == t2.key[m2[j]]:
                    self.add_cand(m1[i], m2[j])
        return 0

    cdef int align(self, Py_ssize_t a, Py_ssize_t b) except -1:
        """mapping._Aligner.align, stored in the memo."""
        cdef Py_ssize_t p, s, n1, n2, l1, l2, i, off = self.pairs_len
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef Py_ssize_t *c1 = t1.clist + t1.cstart[a]
        cdef i64 total = 1
        self.trim(a, b, &p, &s)
        l1 = t1.cstart[a + 1] - t1.cstart[a]
        l2 = t2.cstart[b + 1] - t2.cstart[b]
        n1, n2 = l1 - p - s, l2 - p - s
        for i in range(p):
            self.add_pair(i, i)
            total += t1.size[c1[i]]
        for i in range(s):
            total += t1.size[c1[l1 - 1 - i]]
        if n1 > 0 and n2 > 0:
            if n1 * n2 > self.max_cells:
                self.approximate(c1 + p, n1, t2.clist + t2.cstart[b] + p, n2)
                for i in range(self.r_len):
                    total += self.score(c1[p + self.ri[i]],
                                        t2.clist[t2.cstart[b] + p + self.rj[i]])
            else:
                total += self.dp(c1 + p, n1, t2.clist + t2.cstart[b] + p, n2, False)
            for i in range(self.r_len):
                self.add_pair(p + self.ri[i], p + self.rj[i])
        for i in range(s):
            self.add_pair(l1 - s + i, l2 - s + i)
        self.store(t1.sig[a], t2.sig[b], total, off, self.pairs_len - off)
        return 0

    cdef dict run(self, Py_ssize_t r1, Py_ssize_t r2):
        cdef Py_ssize_t sp = 0, cap = 256, a, b, k, x, y
        cdef Py_ssize_t *stack = <Py_ssize_t *> malloc(3 * cap * sizeof(Py_ssize_t))
        cdef void *g
        cdef _Tree t1 = self.t1, t2 = self.t2
        cdef dict mapping = {}
        cdef _Memo *m
        cdef i64 n
        if stack == NULL:
            raise MemoryError()
        try:
            stack[0], stack[1], stack[2] = r1, r2, 0
            sp = 1
            while sp:
                sp -= 1
                a, b, k = stack[3 * sp], stack[3 * sp + 1], stack[3 * sp + 2]
                if self.find(t1.sig[a], t2.sig[b]) != NULL:
                    continue
                if k:
                    self.align(a, b)
                    continue
                self.candidates(a, b)
                if sp + 1 + self.cand_len > cap:
                    cap = 2 * (sp + 1 + self.cand_len)
                    g = realloc(<void *> stack, 3 * cap * sizeof(Py_ssize_t))
                    if g == NULL:
                        raise MemoryError()
                    stack = <Py_ssize_t *> g
                stack[3 * sp], stack[3 * sp + 1], stack[3 * sp + 2] = a, b, 1
                sp += 1
                for k in range(self.cand_len):
                    x, y = self.cx[k], self.cy[k]
                    if t1.sig[x] != t2.sig[y] and self.find(t1.sig[x], t2.sig[y]) == NULL:
                        stack[3 * sp], stack[3 * sp + 1], stack[3 * sp + 2] = x, y, 0
                        sp += 1
            # phase 2: the mapping, top-down (mapping._Aligner.reconstruct)
            stack[0], stack[1] = r1, r2
            sp = 1
            while sp:
                sp -= 1
                a, b = stack[3 * sp], stack[3 * sp + 1]
                if t1.sig[a] == t2.sig[b]:
                    n = t1.size[a]
                    for k in range(n):
                        mapping[a + k] = b + k
                    continue
                mapping[a] = b
                m = self.find(t1.sig[a], t2.sig[b])
                if m == NULL:
                    raise KeyError((a, b))
                if sp + m.count > cap:
                    cap = 2 * (sp + m.count)
                    g = realloc(<void *> stack, 3 * cap * sizeof(Py_ssize_t))
                    if g == NULL:
                        raise MemoryError()
                    stack = <Py_ssize_t *> g
                for k in range(m.off, m.off + m.count):
                    stack[3 * sp] = t1.clist[t1.cstart[a] + self.pi[k]]
                    stack[3 * sp + 1] = t2.clist[t2.cstart[b] + self.pj[k]]
                    sp += 1
            return mapping
        finally:
            free(stack)


def etdm_exact(list k1, list s1, list size1, list children1,
               list k2, list s2, list size2, list children2,
               Py_ssize_t r1, Py_ssize_t r2, Py_ssize_t max_cells, Py_ssize_t proxy_cells):
    """:func:`temex.template.mapping.etdm` for a local relation whose key is
    the equality (``k1``, ``k2``: the keys; ``s1``, ``s2``: the subtree
    signatures of :func:`temex.template.mapping.signatures`): the same
    mapping, as a dict in the same insertion order."""
    cdef dict ids = {}
    cdef _Tree t1 = _Tree(k1, ids, s1, size1, children1)
    cdef _Tree t2 = _Tree(k2, ids, s2, size2, children2)
    return _Aligner(t1, t2, max_cells, proxy_cells).run(r1, r2)


def key_signatures(list keys, list children):
    """:func:`temex.template.mapping.signatures` of a local relation,
    compiled: the same Python ``hash`` of the same tuples, bottom-up."""
    cdef Py_ssize_t n = len(keys), i, m, c
    cdef list sig = [0] * n
    cdef tuple ch, kids
    for i in range(n - 1, -1, -1):
        ch = <tuple> children[i]
        m = len(ch)
        if m:
            kids = PyTuple_New(m)
            for c in range(m):
                v = sig[<Py_ssize_t> ch[c]]
                Py_INCREF(v)
                PyTuple_SET_ITEM(kids, c, v)
            sig[i] = hash((keys[i], kids))
        else:
            sig[i] = hash((keys[i],))
    return sig


# -- a saved template's match (temex.template.saved._reached_mask) ---------------

def reached_mask(list tags, list ids, list classes, list parent, list own, object struct,
                 object texts, dict free_paths, dict steps, dict known, dict text_verdict,
                 object step_of, object blake2b):
    """:func:`temex.template.saved._reached_mask` where the page's signatures
    are not cached: the same walk (a node is reached when its parent is and
    its path signature is one of ``struct``), the same memos (``steps``,
    ``known``, ``text_verdict``: the :class:`MatchCache`'s), the same
    ``blake2b`` digests; the loop in C. ``step_of(i)``: a node's step
    string. Returns the mask (before the ``<head>`` fill)."""
    cdef Py_ssize_t n = len(parent), i, p
    cdef unsigned char *reach = <unsigned char *> calloc(n + 1, 1)
    cdef list raw = [b""] * n
    cdef list mask = [False] * n
    cdef bytes root = b"temex1"
    cdef tuple sig
    if reach == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            p = parent[i]
            if p >= 0 and not reach[p]:
                continue
            key = (tags[i], ids[i], classes[i])
            step = steps.get(key)
            if step is None:
                step = steps[key] = b"/" + step_of(i).encode()
            joined = (raw[p] if p >= 0 else root) + step
            got = known.get(joined)
            if got is None:
                d = blake2b(joined, digest_size=8).digest()
                got = known[joined] = (d, d.hex())
            sig = <tuple> got
            if sig[1] not in struct:
                continue
            reach[i] = 1
            raw[i] = sig[0]
            t = own[i]
            if t:
                tkey = (sig[0], t)
                verdict = text_verdict.get(tkey)
                if verdict is None:
                    verdict = text_verdict[tkey] = blake2b(
                        sig[0] + b"\x00" + t.encode("utf-8", "replace"),
                        digest_size=8).hexdigest() in texts
                mask[i] = verdict
            else:
                c = free_paths.get(sig[1])
                mask[i] = c is None or c[0] >= c[1]
        return mask
    finally:
        free(reach)


def reached_mask_cached(list parent, list path, list text, object struct, object texts,
                        dict free_paths):
    """:func:`temex.template.saved._reached_mask` from the page's cached
    signatures (``node_signatures``): the same walk, the loop in C."""
    cdef Py_ssize_t n = len(parent), i, p
    cdef unsigned char *reach = <unsigned char *> calloc(n + 1, 1)
    cdef list mask = [False] * n
    if reach == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            p = parent[i]
            if (p < 0 or reach[p]) and path[i] in struct:
                reach[i] = 1
                if text[i]:
                    mask[i] = text[i] in texts
                else:
                    c = free_paths.get(path[i])
                    mask[i] = c is None or c[0] >= c[1]
        return mask
    finally:
        free(reach)
