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
