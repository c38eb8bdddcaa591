"""Keep Python's full garbage collections short in the app's server process.

A full collection walks every container object alive: the modules of Streamlit, pandas,
Altair and rouge_core alone are about 200,000 of them, and one full pass took 100-190 ms on
the 2-core machine, about once per click, holding the GIL all along, so the messages that
carry the new scores waited behind it. Those objects live as long as the process does, so
once they are loaded they are moved out of the collector's sight (`gc.freeze`); later
collections walk only what was made after. New modules come with the first visit of each
page, so the freeze is redone whenever more modules are loaded than at the last one: a few
times in a server's life, each costing one full collection. The price: an object alive at a
freeze that later dies inside a reference cycle is not reclaimed (a session open at one of
those few moments, at most); objects freed by their reference counts are freed as ever.
"""

from __future__ import annotations

import gc
import sys
import threading

_lock = threading.Lock()
_modules_at_last_freeze = 0


def freeze_long_lived() -> bool:
    """Collect, then freeze everything alive, if modules were loaded since the last freeze.
    Called at the start of every script run (before the page makes its own objects, so what
    is frozen is the process's: modules, caches, session states). Returns whether it froze."""
    global _modules_at_last_freeze
    if len(sys.modules) == _modules_at_last_freeze:
        return False
    with _lock:  # sessions run their scripts in threads of their own
        loaded = len(sys.modules)
        if loaded == _modules_at_last_freeze:
            return False
        gc.collect()
        gc.freeze()
        _modules_at_last_freeze = loaded
        return True
