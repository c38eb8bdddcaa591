"""Fixtures for browser tests: one Streamlit server per session, one Chromium page per test.

Other pages' e2e tests reuse them: `app_url` is the server's base URL, `fresh_app_url` the
URL of a server started for one test and not visited before it, `browser_page` a fresh
Playwright page (1400x1000) in a shared headless Chromium.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from lens_app.devserver import APP_ROOT, CHROMIUM, CHROMIUM_ARGS, free_port, running_app

ARTIFACTS = APP_ROOT / "test-artifacts"


@contextlib.contextmanager
def streamlit_server(name: str = "e2e"):
    """Start `streamlit run app.py` on a free port; yield its base URL; stop it afterwards.

    The server's output goes to test-artifacts/streamlit-<name>-<port>.log, for failures, and
    its judgements database (server configuration: ROUGE_LENS_DB) is
    test-artifacts/judgements-e2e-<port>.sqlite3, a new file per server.
    """
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install it with `apt-get install -y chromium` to run browser tests")
    port = free_port()
    database = judgements_database(f"http://127.0.0.1:{port}")
    database.unlink(missing_ok=True)
    with running_app(ARTIFACTS / f"streamlit-{name}-{port}.log", port=port, env={"ROUGE_LENS_DB": str(database)}) as url:
        yield url


def judgements_database(url: str) -> Path:
    """The judgements database of the server at `url` (started by `streamlit_server`)."""
    return ARTIFACTS / f"judgements-e2e-{url.rsplit(':', 1)[1]}.sqlite3"


@pytest.fixture(scope="session")
def app_url():
    """One server for the whole session (other tests may already have used it)."""
    with streamlit_server() as url:
        yield url


@pytest.fixture
def app_judgements_db(app_url) -> Path:
    """The judgements database the session's server was configured with."""
    return judgements_database(app_url)


@pytest.fixture
def fresh_app_url():
    """A server of this test's own, that no browser has opened yet: the test's first request
    is the first one the server sees (e.g. a bookmarked page URL opened before "/")."""
    with streamlit_server("fresh") as url:
        yield url


@pytest.fixture(scope="session")
def chromium_browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: install it with `apt-get install -y chromium` to run browser tests")
    from playwright.sync_api import expect, sync_playwright

    # Retrying assertions wait as long as page actions do (browser_page: 30 s), not Playwright's
    # 5 s default: a rerun that scores every method can take longer on a busy machine.
    expect.set_options(timeout=30_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser_page(chromium_browser):
    """A fresh page (own context, so no shared session state) sized like a laptop screen."""
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
