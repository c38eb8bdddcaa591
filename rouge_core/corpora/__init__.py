"""Many pairs: `corpus` (score_corpus, bootstrap, compare and rank systems), one pair at a time and
in processes (`pairs`, `parallel`), many pairs per compiled call (`batch`), the columns of a
corpus's numbers (`corpus_stats`, `corpus_stream`), Dask (`dask_support`), the paired tests
(`significance`), reading corpora (`corpus_io`) and the released meta-evaluation files
(`formats`), exports and pickles read without unpickling.

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
