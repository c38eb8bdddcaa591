"""The project layout: app.py, pages/ beside it, and every page going through app.py's router
(the browser check, a page URL opened first on a fresh server, is
tests/e2e/test_direct_urls_e2e.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from lens_app.navigation import APP_ROOT, DIRECTORY, PAGES, SCORE

APP = APP_ROOT / "app.py"


def test_the_promised_top_level_layout():
    for name in ("app.py", "rouge_core", "pages", "tests", "requirements.txt", "README.md"):
        assert (APP_ROOT / name).exists(), name
    assert DIRECTORY == "pages" and (APP_ROOT / DIRECTORY).is_dir()


def test_every_page_script_is_registered_and_starts_the_router():
    scripts = {p.relative_to(APP_ROOT).as_posix() for p in (APP_ROOT / DIRECTORY).glob("*.py")}
    assert scripts == {spec.script for spec in PAGES}
    for spec in PAGES:
        source = (APP_ROOT / spec.script).read_text(encoding="utf-8")
        assert "\nstart_router_once()" in source, spec.script  # a bookmarked URL still gets the router
    url_paths = [spec.url_path for spec in PAGES]
    assert len(set(url_paths)) == len(url_paths)
    assert all(path and "/" not in path for path in url_paths)
    assert SCORE == PAGES[0].script  # the default page, which share links and "open on Score" target


def test_a_page_script_run_alone_hands_over_to_the_router():
    """What Streamlit's legacy pages/ mode does on a fresh server: run the page file itself."""
    at = AppTest.from_file(str(APP_ROOT / "pages" / "learn.py"), default_timeout=90).run()
    assert not at.exception, at.exception
    assert at.session_state["_router_started"]


def test_the_score_page_path_other_pages_switch_to_is_registered_by_the_router():
    from lens_app import corpus_ui

    at = AppTest.from_file(str(APP), default_timeout=90).run()
    assert not at.exception, at.exception
    at.switch_page(corpus_ui.SCORE_PAGE).run()  # ValueError if app.py registered no such page
    assert not at.exception, at.exception
    assert any(t.value == "ROUGE Lens: Score" for t in at.title)
