"""Teaching: the Learn page's walk-throughs (`explain`), why two settings disagree (`disagree`)
and scores against a parameter (`sweep`).

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
