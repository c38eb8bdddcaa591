"""The app's pages and its router (app.py runs `run_router`).

The page scripts live in the top-level `pages/` folder, beside app.py, as the project layout
promises. Streamlit treats an app with such a folder as a legacy ("v1") multipage app until
some script calls `st.navigation`: on a freshly started server the first visitor's run (of
"/" or of a bookmarked page URL such as "/learn") executes through Streamlit's automatic list
of the folder's files, without app.py's router or the shared sidebar. So the first run of
every session starts the router (`start_router_once`, called first thing by app.py and by
every page script): it calls `st.navigation`, which turns the legacy mode off for the whole
server process, and reruns; from the rerun on, app.py routes every page. Only public
Streamlit API is used.

"/" is the Score page (Streamlit serves the default page at the root); "/score" is a hidden
page that opens it with the same query parameters, so that URL never shows "Page not found".
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import streamlit as st

APP_ROOT = Path(__file__).resolve().parents[1]  # the directory holding app.py
DIRECTORY = "pages"  # relative to APP_ROOT, as st.Page and st.switch_page expect
_ROUTED_KEY = "_router_started"


class PageSpec(NamedTuple):
    script: str  # path relative to APP_ROOT
    title: str
    icon: str
    url_path: str  # the page's URL, http://host/<url_path>: bookmarks and links rely on it


def script(name: str) -> str:
    """A page script's path relative to app.py, e.g. ``script("score")``."""
    return f"{DIRECTORY}/{name}.py"


# The first page is the default one, served at "/".
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
SCORE_URL = "score"  # the Score page's own URL: it redirects to "/", where the default page is served
HOME_URL = "home"  # the URL path Streamlit requires of the default page (it is served at "/")


def _open_score_at_root() -> None:
    st.switch_page(APP_ROOT / SCORE, query_params=st.query_params.to_dict())


def pages() -> list:
    """The st.Page objects of the router, in order, plus the hidden "/score" redirect."""
    # absolute paths: a page file run alone (the legacy mode) resolves relative ones from pages/
    listed = [st.Page(APP_ROOT / spec.script, title=spec.title, icon=spec.icon, default=(index == 0),
                      url_path=HOME_URL if index == 0 else spec.url_path)
              for index, spec in enumerate(PAGES) if (APP_ROOT / spec.script).exists()]
    return listed + [st.Page(_open_score_at_root, title="Score", url_path=SCORE_URL, visibility="hidden")]


def start_router_once() -> None:
    """On a session's first run, hand over to app.py's router (see the module docstring)."""
    if st.session_state.get(_ROUTED_KEY):
        return
    st.session_state[_ROUTED_KEY] = True
    st.navigation(pages())  # public API: turns Streamlit's legacy pages/ mode off for the process
    st.rerun()


def run_router():
    """app.py's navigation: returns the page to run."""
    start_router_once()
    return st.navigation(pages())
