"""Rebuild the app's example corpora (lens_app/data/sample_corpora/*.jsonl) from ROUGE-1.5.5's
sample test data in tests/data/conformance/rouge155-official/sample-test/.

Not a benchmark: it lives here because the app must not read tests/ at run time, so the
example data is a compact copy made once. The summaries are read the way ROUGE-1.5.5 reads
them, by rouge_core's own readers (the ROUGE_EVAL XML configuration and the SEE / SPL
sentence readers of rouge_core.compat.rouge155), so the copy holds exactly the sentences the
script scores: one JSON object per document, with its evaluation id, one text per peer
(system) and the models (references) in the configuration's order; a text's sentences are its
lines. tests/app/test_sample_corpora.py checks that the packaged files equal this script's
output.

    python bench/build_sample_corpora.py            # rewrite the files
    python bench/build_sample_corpora.py --check    # exit 1 if they differ from what it would write
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rouge_core.compat.rouge155.config import read_xml_config  # noqa: E402
from rouge_core.compat.rouge155.readers import read_sentences  # noqa: E402

SAMPLE_TEST = ROOT / "tests" / "data" / "conformance" / "rouge155-official" / "sample-test"
OUT = ROOT / "lens_app" / "data" / "sample_corpora"

# sample key -> (configuration in sample-test/, pattern giving a document's name from its first model's file name)
SAMPLES = {
    "sl2003": ("ROUGE-test.xml", re.compile(r"^SL\.P\.10\.R\.[A-Z]+\.(SL\d+-\d+)\.html$")),
    "duc2002": ("DUC2002-ROUGE.in.26.spl.xml", re.compile(r"^(D\d+)\.M\.100\.[A-Z]\.[A-Z]\.spl$")),
}


def _text(sentences: list[bytes], where: str) -> str:
    """The sentences as one text, one per line. A SEE sentence runs to the end of its line, so
    it can end with the line's newline: that is dropped (a line break separates sentences)."""
    lines = []
    for sentence in sentences:
        try:
            line = sentence.decode("ascii")
        except UnicodeDecodeError:  # the samples are ASCII; anything else would need a decision
            raise SystemExit(f"{where}: a sentence is not ASCII") from None
        line = line.rstrip("\r\n")
        if "\n" in line or "\r" in line:
            raise SystemExit(f"{where}: a sentence spans lines")
        lines.append(line)
    return "\n".join(lines)


def build(key: str) -> str:
    """The JSON lines of one sample, one document per line, in the configuration's order."""
    config_name, doc_pattern = SAMPLES[key]
    config = read_xml_config(str(SAMPLE_TEST / config_name))
    rows = []
    for ev in config.evaluations:
        first_model = next(iter(ev.models.values()))
        match = doc_pattern.match(first_model)
        if match is None:
            raise SystemExit(f"{config_name}, EVAL {ev.eval_id}: unexpected model file name {first_model!r}")
        row = {"id": match.group(1), "eval_id": ev.eval_id}
        for peer_id in config.peer_ids:
            path = SAMPLE_TEST / ev.peer_path(peer_id)
            row[peer_id] = _text(read_sentences(str(path), ev.input_format), str(path))
        row["model_ids"] = list(ev.models)
        row["references"] = [_text(read_sentences(str(SAMPLE_TEST / p), ev.input_format), p)
                             for p in ev.model_paths()]
        rows.append(json.dumps(row, ensure_ascii=True))
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only compare with the packaged files")
    args = parser.parse_args(argv)
    stale = []
    for key in SAMPLES:
        target = OUT / f"{key}.jsonl"
        text = build(key)
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(str(target.relative_to(ROOT)))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)} ({len(text.encode()):,} bytes)")
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
