"""The app's page scripts and their registry; app.py (the st.navigation router) reads PAGES.

The page scripts live here, not in a top-level ``pages/`` directory beside app.py, on purpose.
Streamlit decides once per server process, when the first session starts, whether the app
"uses a pages directory": it checks only whether ``<main script dir>/pages`` exists. If it
does, every run goes through Streamlit's legacy multipage mode until app.py's own
``st.navigation`` has run once. A page URL opened on a fresh server (a bookmark or a shared
Score link) then runs the page script alone: Streamlit's automatic list of file names, no
router, no shared sidebar settings. No configuration option turns that check off, so nothing
named ``pages`` may sit next to app.py (tests/app/test_app_layout.py guards this).

Pages are scripts run by Streamlit, never imported; this package only names them.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

APP_ROOT = Path(__file__).resolve().parents[2]  # the directory holding app.py
DIRECTORY = "lens_app/pages"  # relative to APP_ROOT, as st.Page and st.switch_page expect


class PageSpec(NamedTuple):
    script: str  # path relative to APP_ROOT
    title: str
    icon: str
    url_path: str  # the page's URL, http://host/<url_path>: bookmarks and links rely on it


def script(name: str) -> str:
    """A page script's path relative to app.py, e.g. ``script("score")``."""
    return f"{DIRECTORY}/{name}.py"


# The first page is the default one. Streamlit serves it at "/" only (its share links are
# "/?c=..."): "/score" is not a URL of the app, and Streamlit answers it with "Page not found"
# and the default page.
PAGES = (
    PageSpec(script("score"), "Score", ":material/target:", "score"),
    PageSpec(script("learn"), "Learn", ":material/school:", "learn"),
    PageSpec(script("disagree"), "Why do tools disagree?", ":material/balance:", "disagree"),
    PageSpec(script("corpus"), "Corpus", ":material/folder_open:", "corpus"),
    PageSpec(script("compare"), "Compare systems", ":material/bar_chart:", "compare"),
    PageSpec(script("review"), "Review", ":material/rate_review:", "review"),
    PageSpec(script("meta"), "Which ROUGE agrees with your annotators?", ":material/insights:", "meta"),
)

SCORE = script("score")
