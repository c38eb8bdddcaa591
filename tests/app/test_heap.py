"""lens_app.heap: the server's long-lived objects are frozen once they are loaded, and again
only when more modules come."""

from __future__ import annotations

import gc
import sys
import types

from lens_app import heap


def test_freezes_once_per_wave_of_loaded_modules(monkeypatch):
    monkeypatch.setattr(heap, "_modules_at_last_freeze", 0)
    try:
        assert heap.freeze_long_lived() is True
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the interpreter's and pytest's modules at least
        assert heap.freeze_long_lived() is False  # nothing new loaded: no full collection
        monkeypatch.setitem(sys.modules, "_rouge_lens_new_module", types.ModuleType("_rouge_lens_new_module"))
        assert heap.freeze_long_lived() is True
        assert gc.get_freeze_count() >= frozen
        assert heap.freeze_long_lived() is False
    finally:
        gc.unfreeze()


def test_a_full_collection_after_the_freeze_walks_only_new_objects(monkeypatch):
    monkeypatch.setattr(heap, "_modules_at_last_freeze", 0)
    try:
        heap.freeze_long_lived()
        assert len(gc.get_objects(generation=2)) < gc.get_freeze_count() / 10
    finally:
        gc.unfreeze()
