"""Streamlit-side helpers shared by the pages (rouge_core stays free of Streamlit)."""
