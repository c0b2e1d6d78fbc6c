# The compiled build's declarations for venedig.py (hatch_build.py; Cython reads them, Python
# never does; see games/saeulen.pxd): a space's index typed as a C integer reads the
# per-space value's item directly. The values are the pure-Python ones.

cimport cython


@cython.locals(i=Py_ssize_t, found=list)
cpdef tuple _on_swamp(tuple by_name, swamp)

@cython.locals(k=Py_ssize_t, j=Py_ssize_t, out=list)
cpdef tuple _free_sites(tuple sites, tuple indexes, list free)
