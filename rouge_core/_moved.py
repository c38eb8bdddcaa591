"""The old paths of the modules issue 28 moved into sub-packages: `rouge_core.<name>` is
`rouge_core.<layer>.<name>` (the map below). `rouge_core/__init__.py` installs `OldPaths`, an
import hook that answers an old path with the moved module itself (no file stands at the old
path, so git follows each file to its new place), with a DeprecationWarning naming the new one:
monkeypatching either path patches both, and data pickled under an old path loads."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

MOVED_MODULES = {
    'tokenize': 'text',
    'words': 'text',
    'stemming': 'text',
    'porter155': 'text',
    'stopwords': 'text',
    'segment': 'text',
    'sentences': 'text',
    'multilingual': 'text',
    'languages': 'text',
    'limits': 'text',
    'document': 'text',
    'resources': 'text',
    'options': 'text',
    'textio': 'text',
    'native': 'kernels',
    'kernel_spec': 'kernels',
    'methods': 'families',
    'ngram': 'families',
    'lcs': 'families',
    'bitparallel_lcs': 'families',
    'wlcs': 'families',
    'wlcs_fast': 'families',
    'skipgram': 'families',
    'scoring': 'scorer',
    'rules155': 'scorer',
    'signature': 'scorer',
    'cost': 'scorer',
    'cost_model': 'scorer',
    'basic_elements': 'scorer',
    'corpus': 'corpora',
    'batch': 'corpora',
    'parallel': 'corpora',
    'corpus_io': 'corpora',
    'corpus_stats': 'corpora',
    'corpus_stream': 'corpora',
    'dask_support': 'corpora',
    'significance': 'corpora',
    'export': 'corpora',
    'pickle_data': 'corpora',
    'formats': 'corpora',
    'meta': 'studies',
    'agreement': 'studies',
    'source': 'studies',
    'analysis': 'studies',
    'explain': 'teach',
    'disagree': 'teach',
    'sweep': 'teach',
}


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `rouge_core.<name>` for a moved module; loading it gives the moved module."""

    def find_spec(self, fullname: str, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != "rouge_core" or name not in MOVED_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        name = spec.name.rpartition(".")[2]
        new = f"rouge_core.{MOVED_MODULES[name]}.{name}"
        warnings.warn(f"{spec.name} moved to {new}; import it from there", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        spec.loader_state = module.__spec__  # the import system sets __spec__ next; exec_module puts it back
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = module.__spec__.loader_state  # it ran when imported under its own name

    def get_code(self, fullname: str):
        """`python -m rouge_core.<name>` (runpy asks for code): run the moved module as the program."""
        name = fullname.rpartition(".")[2]
        new = f"rouge_core.{MOVED_MODULES[name]}.{name}"
        warnings.warn(f"{fullname} moved to {new}: python -m {new}", DeprecationWarning, stacklevel=2)
        program = f"import runpy\nrunpy.run_module({new!r}, run_name='__main__', alter_sys=True)\n"
        return compile(program, fullname, "exec")


def install() -> None:
    # First: it answers only the old paths, and an editable install's finder (setuptools) would
    # look for them as files of the source tree, where none is left.
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())
