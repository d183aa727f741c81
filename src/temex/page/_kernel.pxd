# cython: language_level=3
"""What the page layer's compiled reader shares with the other compiled
modules: the tag flags of :func:`tag_flags` (:mod:`temex.page._array_kernel`
reads them for the blocks) and the walk of a Lexbor subtree, whose receiver a
layer subclasses (:mod:`temex.content._text_kernel` walks a subtree with
it)."""

from libc.stdint cimport uintptr_t

from temex.page._lexbor cimport CharData

cdef enum:
    #: bits of the per-element ``flags`` of :func:`tag_flags`
    BLOCK = 1
    PRE = 2
    IGNORED = 4
    HIDDEN = 8
    LINK = 16
    DIALOG = 32


cdef class _Walk:
    """What one walk of a subtree (:func:`_walk`) gives each element and text
    node: this class appends events (:func:`events`); a subclass overrides
    ``enter``, ``exit`` and ``text`` (text lines, the Markdown writer)."""

    cdef list out
    cdef const unsigned char[:] flags
    cdef const unsigned char[:] template
    cdef list tags
    cdef frozenset emit

    cdef void enter(self, Py_ssize_t i) except *
    cdef void exit(self, Py_ssize_t i) except *
    cdef void text(self, Py_ssize_t owner, CharData *t) except *


cdef int _walk(_Walk w, uintptr_t start_address, Py_ssize_t start, list size,
               const unsigned char[:] skip) except -1
