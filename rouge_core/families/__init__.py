"""Tokens → statistics: the method registry (`methods`: one `Family` per method family), the
counting of each family (`ngram`, `lcs` + `bitparallel_lcs`, `wlcs` + `wlcs_fast`, `skipgram`),
the units of work of each kernel (`cost_terms`) and ROUGE-BE's names (`be_method`).

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
