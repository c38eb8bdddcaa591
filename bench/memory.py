"""Peak memory of a call, Python and C allocations alike.

tracemalloc sees Python's allocations only; the compiled kernels (rouge_core._native) allocate
with C's malloc. So the peak is the larger of tracemalloc's peak and the rise of the process's
resident high-water mark (Linux: /proc/self/status VmHWM, reset through /proc/self/clear_refs;
free memory is first handed back with malloc_trim so that the rise is this call's), each over
its own run of the call (tracemalloc's records would swell the resident set). Elsewhere only
tracemalloc's figure is available.
"""

from __future__ import annotations

import ctypes
import gc
import tracemalloc

_KIB = 1024


def _status_kib(key: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_high_water() -> bool:
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def resident_rise(run) -> float:
    """The resident high-water mark's rise over `run()` in bytes (0 where it cannot be read)."""
    gc.collect()
    rss = _reset_high_water() and _status_kib("VmRSS")
    run()
    high = _status_kib("VmHWM") if rss else None
    return float((high - rss) * _KIB) if high is not None and rss else 0.0


# glibc's mallopt parameter M_MMAP_THRESHOLD, and its default: the size from which a block is
# mapped on its own (handed back to the system when freed) rather than taken from the heap
_M_MMAP_THRESHOLD, _DEFAULT_MMAP_THRESHOLD = -3, 128 * _KIB


def fix_mmap_threshold() -> bool:
    """Keep glibc's mmap threshold at its default, as in a fresh process, so that a call's peak
    is its own: left free, the threshold rises to the size of the largest mapped block freed,
    and a later call's large blocks come from the heap instead, where growing them copies (ROUGE-S4
    on 100,000 distinct words rose 62.7 MB after the other ROUGE-S4 cases had run, 12.4 MB
    alone or with the threshold fixed). True where glibc took it."""
    try:
        return bool(ctypes.CDLL("libc.so.6").mallopt(_M_MMAP_THRESHOLD, _DEFAULT_MMAP_THRESHOLD))
    except (OSError, AttributeError):
        return False


def peak_bytes(run) -> float:
    """Bytes at the peak of `run()` above what the process held before it: the larger of the
    resident set's rise over one run and tracemalloc's peak over another (run apart: tracemalloc
    keeps a record of every block it traces, which swells the resident set of the run it
    traces, 2.5 to 4 times on calls that make many small Python objects)."""
    resident = resident_rise(run)
    gc.collect()
    tracemalloc.start()
    try:
        run()
        _, traced = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return float(max(traced, resident))
