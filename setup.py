"""Builds the optional C extension `rouge_core._native` (the compiled kernels; see
rouge_core/native.py). Everything else about the package is declared in pyproject.toml.

`pip install .` / `pip install -e .` compile it when a C compiler is there; when compiling
fails (no compiler, e.g. `CC=false`), the install goes on without it and rouge_core runs on
its pure-Python path, which gives the same numbers, only slower.
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Same floats as the pure path: no fused multiply-add, no fast-math reordering.
UNIX_FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-std=gnu11"]


class OptionalBuildExt(build_ext):
    """Compile with exact floating-point flags; a failed compile leaves the pure package."""

    # --- Never reuse a stale build (issue 32): a module left in build/ (or in place) by an
    # earlier build, of older sources or by another compiler, must not be packed as this one.
    def finalize_options(self):
        super().finalize_options()
        self.force = True  # compile every time: no "up-to-date" skip on file dates

    def build_extension(self, ext):
        stale = self.get_ext_fullpath(ext.name)
        if os.path.exists(stale):
            os.remove(stale)  # a failed compile then leaves no module, and the package is pure
        super().build_extension(ext)
    # --- end of the stale-build guard

    def build_extensions(self):
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = UNIX_FLAGS + list(ext.extra_compile_args or [])
        super().build_extensions()

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no usable compiler at all
            self.warn(f"rouge_core._native not built ({exc}); rouge_core will use its pure-Python path")


setup(
    ext_modules=[Extension("rouge_core._native", ["rouge_core/_native.c"], optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
