"""Start the app on a free local port for browser tests and the app benchmark.

`running_app()` runs `streamlit run app.py` headless on 127.0.0.1, waits until
/_stcore/health answers, yields the base URL and stops the server afterwards. Chromium is
Debian's (`CHROMIUM`, with `CHROMIUM_ARGS`), driven by Playwright; never a downloaded browser.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator, Mapping

from .navigation import APP_ROOT
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]


# The page is idle when Streamlit's script run has finished (the app root's
# data-test-script-state; its "Running" widget shows only after a delay, so its absence proves
# nothing) and no element of a replaced run is left stale.
IDLE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-stale="true"]');
}"""


def wait_idle(page, timeout_ms: int = 60_000) -> None:
    """Wait until the page's script run has finished and nothing is stale (a click on an
    element of a run being replaced is lost)."""
    page.wait_for_function(IDLE, timeout=timeout_ms)


def text_box(page, label: str):
    """The Score page's text area labelled `label` that is on screen: a text area the texts'
    replacement (an example, an upload, a link) replaced stays in the page, hidden, until that
    run ends (lens_app.inputs)."""
    return page.locator(f'textarea[aria-label="{label}"]:visible')


def load_example(page, title: str) -> None:
    """Click the Score page's example `title` and wait until its candidate is in the box and
    the page is idle (typing before that types into the box the example replaces)."""
    from playwright.sync_api import expect

    from .examples import EXAMPLES

    example = next(example for example in EXAMPLES if example.title == title)
    page.get_by_role("button", name=title).click()
    expect(text_box(page, "Candidate (the summary to score)")).to_have_value(example.candidate)
    wait_idle(page)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().decode().strip() == "ok":
                    return
        except OSError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"streamlit did not answer at {url} within {timeout:.0f} s")


@contextlib.contextmanager
def running_app(log_path: Path, *, port: int | None = None, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """The app served on 127.0.0.1 (a free port unless given); its output goes to `log_path`."""
    port = port or free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
            cwd=APP_ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
