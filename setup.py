"""Builds the optional C extension `rouge_core._native` (the compiled kernels; see
rouge_core/kernels/native.py and docs/architecture.md). Everything else about the package is declared
in pyproject.toml.

`pip install .` / `pip install -e .` compile it when a C compiler is there; when compiling
fails (no compiler, e.g. `CC=false`), the install goes on without it and rouge_core runs on
its pure-Python path, which gives the same numbers, only slower.

The kernels (rouge_core/kernels/*.c) are plain C; the binding (rouge_core/_native.c) uses only
CPython's stable ABI, so on a CPython with a GIL one build (`_native.abi3.so`, a cp310-abi3
wheel) serves every version from 3.10 on. A free-threaded CPython has no stable ABI: there the
binding builds for that version alone. ROUGE_LENS_SANITIZE=1 builds with AddressSanitizer and
UndefinedBehaviorSanitizer (.ci/sanitize). The lower-casing table of the rouge-score tokenizer
(lowering.h) is written at build time from the building Python's str.lower()
(rouge_core.kernels.kernel_spec.lowerings); rouge_core.kernels.native checks it against the running Python's.
"""

import importlib.util
import os
import sysconfig
from glob import glob

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Same floats as the pure path: no fused multiply-add, no fast-math reordering.
UNIX_FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-std=gnu11", "-pthread"]
SANITIZE_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g",
                  "-O1"]

FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
LIMITED_API = not FREE_THREADED  # the stable ABI of CPython 3.10, the oldest rouge_core supports
SANITIZE = os.environ.get("ROUGE_LENS_SANITIZE", "").strip() not in ("", "0")


class OptionalBuildExt(build_ext):
    """Compile with exact floating-point flags; a failed compile leaves the pure package."""

    # --- Never reuse a stale build (issue 32): a module left in build/ (or in place) by an
    # earlier build, of older sources or by another compiler, must not be packed as this one.
    def finalize_options(self):
        super().finalize_options()
        self.force = True  # compile every time: no "up-to-date" skip on file dates

    def build_extension(self, ext):
        # Every earlier module of this name goes, whatever ABI tag it was built for (an abi3 build
        # must not leave a cpython-311 one beside it to be packed): a failed compile then leaves
        # no module, and the package is pure.
        target = self.get_ext_fullpath(ext.name)
        stem = os.path.join(os.path.dirname(target), ext.name.rsplit(".", 1)[-1])
        for stale in glob(stem + ".*"):
            if stale.endswith((".so", ".pyd")):
                os.remove(stale)
        super().build_extension(ext)
    # --- end of the stale-build guard

    def build_extensions(self):
        # The rouge-score tokenizer's lower-casing table, from this Python's str.lower()
        # (rouge_core/kernels/kernel_spec.py, loaded alone: it imports nothing of rouge_core).
        generated = os.path.join(self.build_temp, "rouge_core_generated")
        spec = importlib.util.spec_from_file_location("_rouge_kernel_spec",
                                                      os.path.join("rouge_core", "kernels", "kernel_spec.py"))
        kernel_spec = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kernel_spec)
        kernel_spec.write_lowering_header(generated)
        for ext in self.extensions:
            ext.include_dirs = [generated, *ext.include_dirs]
            ext.depends = [*ext.depends, os.path.join(generated, kernel_spec.LOWERING_HEADER)]
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                flags = UNIX_FLAGS + (SANITIZE_FLAGS if SANITIZE else [])
                ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
                ext.extra_link_args = (["-pthread"] + (SANITIZE_FLAGS if SANITIZE else []) +
                                       list(ext.extra_link_args or []))
        super().build_extensions()

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no usable compiler at all
            self.warn(f"rouge_core._native not built ({exc}); rouge_core will use its pure-Python path")


native = Extension(
    "rouge_core._native",
    ["rouge_core/_native.c", *sorted(glob("rouge_core/kernels/*.c"))],
    depends=sorted(glob("rouge_core/kernels/*.h")),
    define_macros=[("Py_LIMITED_API", "0x030A0000")] if LIMITED_API else [],
    py_limited_api=LIMITED_API,
    optional=True,
)

setup(
    ext_modules=[native],
    cmdclass={"build_ext": OptionalBuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp310"}} if LIMITED_API else {},
)
