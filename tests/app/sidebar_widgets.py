"""The sidebar's widgets as AppTest sees them, found by their labels (lens_app.sidebar.LABELS):
what the sidebar displays, whatever key the widget has on this draw."""

from __future__ import annotations

from lens_app import sidebar

KINDS = ("selectbox", "checkbox", "number_input", "radio")


def widget(at, name: str):
    """The sidebar widget `name` (a key of sidebar.LABELS) drawn on the last run, or None."""
    label = sidebar.LABELS[name]
    found = [w for kind in KINDS for w in getattr(at.sidebar, kind) if w.label == label]
    assert len(found) <= 1, f"{len(found)} sidebar widgets labelled {label!r}"
    return found[0] if found else None
