"""Write expected.json: torchmetrics' ROUGEScore on each case of cases.py, its compute() and its
per-pair states, as the float32 values it holds (each printed as the Python float it equals).

    python tests/data/torchmetrics_rouge/record.py    # needs torch and torchmetrics (requirements-torch.txt)

Punkt's English model comes from tests/punkt_model.py (no download)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import nltk  # noqa: E402
import torch  # noqa: E402
import torchmetrics  # noqa: E402
from torchmetrics.text.rouge import ROUGEScore  # noqa: E402

from cases import cases, normalizer, tokenizer  # noqa: E402
from punkt_model import write_punkt_tab  # noqa: E402


def run(case: dict) -> dict:
    custom = {"normalizer": normalizer, "tokenizer": tokenizer} if case.get("custom") else {}
    metric = ROUGEScore(use_stemmer=case["use_stemmer"], accumulate=case["accumulate"],
                        rouge_keys=tuple(case["rouge_keys"]), **custom)
    for preds, target in case["batches"]:
        metric.update(preds, target)
    result = {k: float(v) for k, v in metric.compute().items()}
    states = {name: [float(v) for v in getattr(metric, name)] for name in result}
    return {"compute": result, "per_pair": states}


def main() -> None:
    nltk.data.path.insert(0, str(write_punkt_tab(Path(tempfile.mkdtemp()))))
    expected = {"torch": torch.__version__, "torchmetrics": torchmetrics.__version__,
                "cases": {case["name"]: run(case) for case in cases()}}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(expected['cases'])} cases to {HERE / 'expected.json'}")


if __name__ == "__main__":
    main()
