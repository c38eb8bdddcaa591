"""The one error type of the ROUGE-1.5.5 front door: a message and an exit code."""

from __future__ import annotations

USAGE_ERROR = 2  # bad command line (unknown flag, bad flag value)
INPUT_ERROR = 1  # bad configuration, missing or unusable files


class Rouge155Error(Exception):
    """A problem the user can fix; `main` prints `message` as one line on stderr."""

    def __init__(self, message: str, exit_code: int = INPUT_ERROR) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
