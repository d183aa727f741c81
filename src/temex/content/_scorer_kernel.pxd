# cython: language_level=3
"""What the content scorer's compiled module shares with the feature rows
(:func:`temex.content._kernel.context_rows` sums its window as Python's
``sum`` does)."""

cdef double _psum(double *x, Py_ssize_t n) noexcept
