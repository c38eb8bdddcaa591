"""ROUGE Lens: the router and the settings every page shares.

Run with `streamlit run app.py`. Pages register only if their file exists, so the app runs
while other pages are still being written.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from lens_app import inputs, share, sidebar

HERE = Path(__file__).parent
PAGES = (
    ("pages/score.py", "Score", ":material/target:"),
    ("pages/learn.py", "Learn", ":material/school:"),
    ("pages/disagree.py", "Why do tools disagree?", ":material/balance:"),
    ("pages/corpus.py", "Corpus", ":material/folder_open:"),
    ("pages/compare.py", "Compare systems", ":material/bar_chart:"),
    ("pages/review.py", "Review", ":material/rate_review:"),
)

st.set_page_config(page_title="ROUGE Lens", page_icon=":material/search:", layout="wide")

pages = [
    st.Page(path, title=title, icon=icon, default=(index == 0))
    for index, (path, title, icon) in enumerate(PAGES)
    if (HERE / path).exists()
]
navigation = st.navigation(pages)

# The URL (a shared link) wins over defaults, and must be read before the widgets exist.
link_problems = share.load_from_url_once()
inputs.ensure_texts()

st.sidebar.markdown("## ROUGE Lens")
st.sidebar.caption("Every ROUGE variant, exact against the tools people trust, with the evidence behind each number.")
sidebar.render()
for problem in link_problems:
    st.sidebar.warning(problem)

navigation.run()
