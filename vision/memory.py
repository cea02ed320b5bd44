"""The C allocator's settings for scanning.

A scan makes and drops many arrays of a few megabytes (a 1280x720 working image in float32
is 3.7 MB).  By default glibc hands such blocks straight back to the system when they are
freed and takes fresh pages for the next ones, and every fresh page is a page fault: about
4,000 a 1920x1080 photo, 8 to 10 ms of its 100 (more in virtual machines).  Asking it to
keep blocks of up to :data:`REUSED_BLOCK` for reuse, and up to :data:`KEPT_FREE` of free
memory before giving any back, brings that to about 50 faults a photo.  The price is that
a process may hold up to ``KEPT_FREE`` more than it uses.

The scanner's entry points (``trickmate scan``, ``calibrate`` and ``serve``, the evaluation
command and the benchmark) call :func:`reuse_freed_memory` once, through
:func:`vision.process.prepare_for_scanning`; the library itself leaves the process's
settings alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: glibc's ``mallopt`` parameters (``malloc.h``).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: Blocks up to this size come from the reused heap, not fresh pages (a 1920x1080 photo is
#: 6.2 MB; a 12-megapixel one, 36 MB, still gets its own).
REUSED_BLOCK = 16 * 1024 * 1024
#: Free heap memory kept before any is given back to the system.
KEPT_FREE = 64 * 1024 * 1024


def reuse_freed_memory() -> bool:
    """Ask the C allocator to reuse freed blocks of up to :data:`REUSED_BLOCK` (see the module
    docstring).  True when it was set; False where the C library is not glibc (macOS,
    Windows, musl), which leaves everything as it was."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return False
    # glibc only (musl has a mallopt that does nothing).
    if not (hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt")):
        return False
    mallopt = libc.mallopt
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # (Setting either turns off glibc's own sliding threshold, so both are set.)
    return bool(mallopt(_M_MMAP_THRESHOLD, REUSED_BLOCK)) and bool(mallopt(_M_TRIM_THRESHOLD, KEPT_FREE))
