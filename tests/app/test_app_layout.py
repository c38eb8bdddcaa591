"""The app's layout keeps Streamlit's legacy `pages/` mode off, so a page URL opened before
"/" still goes through app.py's router (the browser check is tests/e2e/test_direct_urls_e2e.py)."""

from __future__ import annotations


from streamlit.runtime.pages_manager import PagesManager

from lens_app.pages import APP_ROOT, DIRECTORY, PAGES, SCORE

APP = APP_ROOT / "app.py"


def test_nothing_named_pages_sits_next_to_app_py():
    # Streamlit checks only whether <main script dir>/pages exists (file or directory, with
    # or without .py files in it); if it does, every page URL opened before "/" runs the
    # page script alone, under an automatic list of file names and without the sidebar.
    assert not (APP.parent / "pages").exists(), (
        "Move page scripts to lens_app/pages/ and register them in lens_app/pages/__init__.py; "
        "a `pages` entry beside app.py makes Streamlit bypass the router (see that module's docstring)."
    )


def test_streamlit_does_not_treat_the_app_as_a_pages_directory_app():
    saved = PagesManager.uses_pages_directory
    try:
        PagesManager.uses_pages_directory = None  # decided afresh, as when a server starts
        PagesManager(str(APP))
        assert PagesManager.uses_pages_directory is False
    finally:
        PagesManager.uses_pages_directory = saved


def test_every_registered_page_exists_with_its_own_url():
    assert APP.is_file()
    for spec in PAGES:
        assert spec.script.startswith(DIRECTORY + "/")
        assert (APP_ROOT / spec.script).is_file(), spec.script
    url_paths = [spec.url_path for spec in PAGES]
    assert len(set(url_paths)) == len(url_paths)
    assert all(path and "/" not in path for path in url_paths)
    assert SCORE == PAGES[0].script  # the default page, which share links and "open on Score" target


def test_the_score_page_path_other_pages_switch_to_is_registered_by_the_router():
    from streamlit.testing.v1 import AppTest

    from lens_app import corpus_ui

    at = AppTest.from_file(str(APP), default_timeout=90).run()
    assert not at.exception, at.exception
    at.switch_page(corpus_ui.SCORE_PAGE).run()  # ValueError if app.py registered no such page
    assert not at.exception, at.exception
    assert any(t.value == "ROUGE Lens: Score" for t in at.title)
