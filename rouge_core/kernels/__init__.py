"""The compiled kernels: the C files beside this package (`kernels/*.c`, plain C), the binding
`rouge_core._native` (one level up: its path does not move), `native` (the only module that
imports it: which path computes) and `kernel_spec` (what both sides share, generated into
`kernels/spec.h`).

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
