"""ROUGE Lens: the router and the settings every page shares.

Run with `streamlit run app.py`. The page scripts are in pages/ and registered in
lens_app/navigation.py (which also explains how a page URL opened first on a fresh server
still goes through this router).
"""

from __future__ import annotations

import streamlit as st

from lens_app import compute, heap, inputs, share, sidebar
from lens_app.markup import md
from lens_app.navigation import configure_page, run_router

configure_page()
heap.freeze_long_lived()  # before this run makes its objects; see lens_app/heap.py
compute.warm_stemmer()  # once per server, in the background

navigation = run_router()

# The URL (a shared link) wins over defaults, and must be read before the widgets exist.
link_problems = share.load_from_url_once()
inputs.ensure_texts()

st.sidebar.markdown("## ROUGE Lens")
st.sidebar.caption("Every ROUGE variant, exact against the tools people trust, with the evidence behind each number.")
sidebar.render()
for problem in link_problems:
    st.sidebar.warning(md(problem))

navigation.run()
