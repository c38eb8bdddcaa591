"""Peak memory of a call, as the cost tests compare estimates with it."""

import gc
import tracemalloc


def traced_peak(run) -> int:
    """The peak of the bytes Python and NumPy allocate during `run()` (tracemalloc: deterministic)."""
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
