"""Text → tokens: the tokenizing pipeline (`tokenize`), word splitters, segmenters, stemmers,
stopwords, sentences, ROUGE-1.5.5's length limits, the `Document` they make, the `Options`
(fields by job, profiles), the languages, the bundled data files and reading texts (`textio`).

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
