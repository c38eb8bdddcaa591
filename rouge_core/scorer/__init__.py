"""Statistics → a score: one pair's `Result` (`scoring`), ROUGE-1.5.5's printed rules
(`rules155`), signatures, a call's texts as Documents (`inputs`), the cost guard (`cost`,
`cost_model`) and ROUGE-BE on BE files (`basic_elements`).

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
