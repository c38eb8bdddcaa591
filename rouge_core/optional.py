"""Optional dependencies, imported when a feature needs them, with an error that says how to get them.

rouge_core's scoring needs NLTK, snowballstemmer and NumPy only (the core install). Tables
(`to_frame()` and the other `*_frame` methods) need pandas, which comes with the `frames`
extra (`pip install 'rouge-lens[frames]'`); a missing one raises `MissingDependency`, an
ImportError naming the package, the feature and the extra.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# module -> (distribution to install, extra of rouge-lens that brings it)
EXTRAS = {
    "pandas": ("pandas", "frames"),
    "numpy": ("numpy", None),  # a core dependency: only missing from a broken install
    "vl_convert": ("vl-convert-python", "report"),
    "altair": ("altair", "report"),
}


class MissingDependency(ImportError):
    """An optional package a feature needs is not installed; the message says what to install."""


def require(module: str, feature: str) -> ModuleType:
    """Import `module` for `feature`, or raise MissingDependency naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        distribution, extra = EXTRAS.get(module, (module, None))
        if extra is None:
            how = f"pip install {distribution} (a dependency of rouge-lens: reinstall it with pip install rouge-lens)"
        else:
            how = f"pip install 'rouge-lens[{extra}]' (or pip install {distribution})"
        raise MissingDependency(f"{feature} needs {module}, which is not installed: {how}", name=module) from exc


def pandas(feature: str = "this table") -> ModuleType:
    """pandas, for the DataFrame-returning methods (extra `frames`)."""
    return require("pandas", feature)
