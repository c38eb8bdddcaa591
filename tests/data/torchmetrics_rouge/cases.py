"""torchmetrics' own ROUGE test inputs (tests/unittests/text/_inputs.py and test_rouge.py of
torchmetrics, Apache-2.0, The Lightning team), as data: the texts, the batches and the settings
its tests run. `record.py` runs torchmetrics on them and writes expected.json; the ported tests
(tests/core/test_torchmetrics_rouge.py) compare rouge_core.frameworks with those values."""

from __future__ import annotations

import re

# _inputs.py: EXAMPLE 1-3 (the third with intentional white space)
HYPOTHESIS_A = "It is a guide to action which ensures that the military always obeys the commands of the party"
REFERENCE_1A = "It is a guide to action that ensures that the military will forever heed Party commands"
REFERENCE_2A = "It is a guiding principle which makes the military forces always being under the command of the Party"
HYPOTHESIS_B = "he read the book because he was interested in world history"
REFERENCE_1B = "he was interested in world history because he read the book"
REFERENCE_2B = "It is the practical guide for the army always to heed the directions of the party"
HYPOTHESIS_C = "the cat the   cat on the mat "
REFERENCE_1C = "the  cat is     on the mat "
REFERENCE_2C = "there is a   cat on the mat"

# _inputs_multiple_references: two batches of two predictions, two references each
MULTIPLE_REFERENCES = {
    "preds": [[HYPOTHESIS_A, HYPOTHESIS_B], [HYPOTHESIS_B, HYPOTHESIS_C]],
    "target": [[[REFERENCE_1A, REFERENCE_2A], [REFERENCE_1B, REFERENCE_2B]],
               [[REFERENCE_1B, REFERENCE_2B], [REFERENCE_1C, REFERENCE_2C]]],
}
# test_rouge.py: "some randomly adjusted input from CNN/DailyMail dataset which brakes the test"
SUMMARIZATION = {
    "preds": "A lawyer says him .\nMoschetto, 54 and prosecutors say .\nAuthority abc Moschetto  .",
    "target": "A trainer said her and Moschetto, 54s or weapons say . \nAuthorities Moschetto of .",
}
KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def normalizer(text: str) -> str:  # test_rouge_metric_normalizer_tokenizer's
    return re.sub(r"[^a-z0-9]+", " ", text.lower())


def tokenizer(text: str) -> list[str]:
    return re.split(r"\s+", text)


def cases() -> list[dict]:
    """Each case: a name, the batches [(preds, target), ...] fed to one metric, and its settings."""
    out = []
    batches = list(zip(MULTIPLE_REFERENCES["preds"], MULTIPLE_REFERENCES["target"]))
    for accumulate in ("avg", "best"):  # TestROUGEScore: every key, stemmer on and off, batch by batch and together
        for use_stemmer in (False, True):
            for i, batch in enumerate(batches):
                out.append({"name": f"multiple_references_batch{i}_{accumulate}_stem{use_stemmer}", "batches": [batch],
                            "accumulate": accumulate, "use_stemmer": use_stemmer, "rouge_keys": KEYS})
            out.append({"name": f"multiple_references_{accumulate}_stem{use_stemmer}", "batches": batches,
                        "accumulate": accumulate, "use_stemmer": use_stemmer, "rouge_keys": KEYS})
    for use_stemmer in (False, True):  # test_rouge_lsum_score
        out.append({"name": f"summarization_stem{use_stemmer}", "batches": [(SUMMARIZATION["preds"], SUMMARIZATION["target"])],
                    "accumulate": "best", "use_stemmer": use_stemmer, "rouge_keys": ("rougeL", "rougeLsum")})
    out.append({"name": "normalizer_tokenizer", "batches": [(HYPOTHESIS_B, REFERENCE_1B)], "accumulate": "best",
                "use_stemmer": False, "rouge_keys": KEYS, "custom": True})
    for refs in (["a b c", "c b a"], ["c b a", "a b c"]):  # test_rouge_score_accumulate_best (issue 2148)
        out.append({"name": f"accumulate_best_{'_'.join(r.replace(' ', '') for r in refs)}", "batches": [("a b c", refs)],
                    "accumulate": "best", "use_stemmer": False, "rouge_keys": KEYS})
    out.append({"name": "docstring", "batches": [("My name is John", "Is your name John")], "accumulate": "best",
                "use_stemmer": False, "rouge_keys": KEYS})
    out.append({"name": "docstring_update", "batches": [(["My name is John"], [["Is your name John"]])],
                "accumulate": "best", "use_stemmer": False, "rouge_keys": ("rouge1", "rouge2", "rougeL")})
    return out
