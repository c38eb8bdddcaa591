"""Finding the data directory (`-e`): the SMART stopwords and the WordNet exception lists.

The script reads `WordNet-2.0.exc.db` (Berkeley DB); here the `.exc` text files it was built
from are read instead (same table), so a ROUGE-1.5.5 `data/` folder works unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...text.resources import BUNDLED_DATA_DIR
from ...text.resources import DATA_FILES
from .errors import Rouge155Error


def missing_files(folder: Path) -> list[str]:
    return [name for name in DATA_FILES if not (folder / name).is_file()]


def check_data_dir(folder: str | Path, how: str) -> str:
    path = Path(folder)
    if not path.is_dir():
        raise Rouge155Error(f"{folder}: data directory ({how}) does not exist")
    missing = missing_files(path)
    if missing:
        raise Rouge155Error(
            f"{folder}: data directory ({how}) lacks {', '.join(missing)} "
            "(expected ROUGE-1.5.5's data/ folder)")
    return str(path)


def resolve_data_dir(explicit: str | None) -> str:
    """-e DIR, else $ROUGE_EVAL_HOME, else ./data or the current directory, else the bundled copy."""
    if explicit:
        return check_data_dir(explicit, "-e")
    env = os.environ.get("ROUGE_EVAL_HOME")
    if env:
        return check_data_dir(env, "ROUGE_EVAL_HOME")
    for candidate in (Path("data"), Path(".")):
        if candidate.is_dir() and not missing_files(candidate):
            return str(candidate)
    return check_data_dir(BUNDLED_DATA_DIR, "bundled")
