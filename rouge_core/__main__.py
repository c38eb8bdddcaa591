"""`python -m rouge_core`: the rouge-lens command line (see rouge_core.cli)."""

from .cli import main

raise SystemExit(main())
