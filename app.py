"""ROUGE Lens: the router and the settings every page shares.

Run with `streamlit run app.py`. Pages register only if their file exists, so the app runs
while other pages are still being written.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from lens_app import inputs, share, sidebar
from lens_app.markup import md
from lens_app.pages import PAGES

# The page scripts live in lens_app/pages/. Keep anything named `pages` away from this
# directory: Streamlit would serve its files directly to the first visitor of a page URL,
# skipping this router (see lens_app/pages/__init__.py).
HERE = Path(__file__).parent

# The icon is served by this server: an icon name would make browsers fetch it from a font CDN.
st.set_page_config(page_title="ROUGE Lens", page_icon=str(HERE / "lens_app" / "static" / "icon.png"), layout="wide")

pages = [
    st.Page(spec.script, title=spec.title, icon=spec.icon, url_path=spec.url_path, default=(index == 0))
    for index, spec in enumerate(PAGES)
    if (HERE / spec.script).exists()
]
navigation = st.navigation(pages)

# The URL (a shared link) wins over defaults, and must be read before the widgets exist.
link_problems = share.load_from_url_once()
inputs.ensure_texts()

st.sidebar.markdown("## ROUGE Lens")
st.sidebar.caption("Every ROUGE variant, exact against the tools people trust, with the evidence behind each number.")
sidebar.render()
for problem in link_problems:
    st.sidebar.warning(md(problem))

navigation.run()
