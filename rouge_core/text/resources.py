"""Data files the profiles need: ROUGE-1.5.5's stemming exceptions and SMART stopwords.

The files are read from a data directory laid out like ROUGE-1.5.5's `data/` folder
(`smart_common_words.txt`, `WordNet-2.0-Exceptions/{adj,adv,noun,verb}.exc`). A copy ships
inside the package; users may point at their own (`Options(data_dir=...)` or `-e DIR`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

BUNDLED_DATA_DIR = Path(__file__).parent.with_name("data")  # rouge_core/data
EXCEPTION_FOLDER = "WordNet-2.0-Exceptions"
EXCEPTION_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
STOPWORD_FILE = "smart_common_words.txt"
DATA_FILES = (STOPWORD_FILE, *(f"{EXCEPTION_FOLDER}/{name}" for name in EXCEPTION_FILES))
"""Every file of a data directory, relative to it (the layout of ROUGE-1.5.5's data/)."""


class DataDirError(ValueError):
    """A data directory lacks a file the chosen options need."""


def resolve_data_dir(data_dir: str | Path | None) -> Path:
    return Path(data_dir) if data_dir else BUNDLED_DATA_DIR


@lru_cache(maxsize=8)
def exception_table(data_dir: str | Path | None = None) -> dict[str, str]:
    """The `-m` exception table: the four `.exc` files loaded in alphabetical order.

    Each line is `inflected base [base ...]`; only the first base is kept and a later
    occurrence of a key overwrites an earlier one, which is how the shipped
    `WordNet-2.0.exc.db` was built (so `better` maps to `well`, not `good`).
    """
    folder = resolve_data_dir(data_dir) / EXCEPTION_FOLDER
    table: dict[str, str] = {}
    for name in EXCEPTION_FILES:
        path = folder / name
        if not path.is_file():
            raise DataDirError(f"{path}: missing WordNet-2.0 exception list (needed for stemming)")
        for line in path.read_text(encoding="latin-1").splitlines():
            fields = line.split()
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    return table


@lru_cache(maxsize=8)
def smart_stopwords(data_dir: str | Path | None = None) -> frozenset[str]:
    """ROUGE-1.5.5's SMART common-word list (`-s`)."""
    path = resolve_data_dir(data_dir) / STOPWORD_FILE
    if not path.is_file():
        raise DataDirError(f"{path}: missing SMART stopword list (needed for stopword removal)")
    words = path.read_text(encoding="latin-1").split()
    return frozenset(w.lower() for w in words)
