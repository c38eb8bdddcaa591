"""Render helpers for ROUGE evidence: HTML highlighting, pandas tables, Altair charts.

No Streamlit here; pages call these and show what they return. `charts` imports Altair,
so it is imported on demand (`from rouge_core.viz import charts`).
"""

from . import highlight, tables

__all__ = ["highlight", "tables"]
