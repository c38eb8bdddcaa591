"""Studies over corpora: meta-evaluation against human scores (`meta`, `agreement`),
copying from the source document (`source`) and one system against another (`analysis`); the
HTML report that shows them (`rouge_core.report`) is a front door above `viz`.

A layer of rouge_core (docs/architecture.md); its modules were top-level modules of
rouge_core before issue 28, and their old paths still import them (deprecated)."""
