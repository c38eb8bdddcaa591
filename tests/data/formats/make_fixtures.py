"""Writes the synthetic fixtures of this folder: one small made-up meta-evaluation (4 systems ×
5 documents) in each standard format ROUGE Lens reads, laid out as the projects' own code
writes them (SummEval's data_processing/pair_data.py, sacrerouge's datasets/fabbri2020 and
bhandari2020 setup, REALSumm's scores_dicts). No text or score comes from those datasets.

The numbers are built so the correlations are known without ROUGE Lens: every reference and
summary is 10 distinct words, and system s's summary of document d starts with the first
MATCHED[s][d] words of the document's first reference, then fillers found in no reference,
so its ROUGE-1 precision, recall and F are all MATCHED[s][d] / 10 (under every profile: the
words are lower-case letters, no stopwords, stems distinct). The experts' relevance means
rank the systems M0 < M2 < M1 < M3 where ROUGE-1 ranks them M0 < M1 < M2 < M3: one discordant
pair of six, so the system-level Kendall tau-b of ROUGE-1 with expert relevance is 4/6 = 2/3.

Run `python tests/data/formats/make_fixtures.py` to write them again (numpy needed for the
pickle, whose scores are numpy float64 scalars as in REALSumm's files).
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SYSTEMS = ("M0", "M1", "M2", "M3")
DOCUMENTS = tuple(f"dm-test-{i:040x}" for i in (0xA1, 0xB2, 0xC3, 0xD4, 0xE5))
MATCHED = {  # reference words each system's summary of each document matches
    "M0": (2, 1, 3, 2, 2),
    "M1": (4, 5, 3, 4, 4),
    "M2": (6, 6, 5, 7, 6),
    "M3": (8, 9, 8, 7, 8),
}
EXPERT_RELEVANCE = {  # three experts per summary; means per system: 2.0, 3.4, 3.0, 4.4
    "M0": ((2, 2, 2), (1, 2, 3), (3, 2, 1), (2, 2, 2), (2, 3, 1)),
    "M1": ((3, 4, 3), (4, 4, 4), (3, 3, 3), (3, 3, 3), (4, 3, 4)),
    "M2": ((3, 3, 3), (3, 2, 3), (3, 3, 3), (4, 3, 3), (3, 3, 3)),
    "M3": ((4, 5, 4), (5, 5, 5), (4, 4, 4), (4, 4, 5), (4, 4, 5)),
}
WORDS = ("apple", "bridge", "candle", "desert", "engine", "forest", "garden", "harbor", "island", "jacket",
         "kettle", "ladder", "meadow", "needle", "orchard", "pepper", "quarry", "rabbit", "saddle", "tunnel",
         "umbrella", "valley", "walnut", "yogurt", "zipper", "anchor", "basket", "canyon", "dolphin", "falcon",
         "glacier", "hammer", "iceberg", "jungle", "kitten", "lemon", "marble", "nutmeg", "oyster", "pillow",
         "quilt", "ribbon", "salmon", "teapot", "violin", "window", "yacht", "zebra", "acorn", "bucket")
FILLERS = ("cobalt", "fjord", "gazebo", "mosaic", "nimbus", "paprika", "quokka", "sherbet", "tundra", "wombat")
ASPECTS = ("coherence", "consistency", "fluency", "relevance")


def reference(d: int) -> list[str]:
    return list(WORDS[10 * d:10 * d + 10])


def summary(system: str, d: int) -> str:
    m = MATCHED[system][d]
    return " ".join(reference(d)[:m] + list(FILLERS[:10 - m]))


def crowd_references(d: int) -> list[str]:
    """Ten crowd references (SummEval's 2nd to 11th): the original's words rotated and cut."""
    words = reference(d)
    return [" ".join(words[k:] + words[:k])[: 40 + 3 * k] .rsplit(" ", 1)[0] for k in range(1, 11)]


def article(d: int) -> str:
    return f"the {WORDS[10 * d]} story . " + " ".join(reference(d)) + " . more words about " + WORDS[(10 * d + 17) % 50]


def annotations(rng: random.Random, system: str, d: int, group: str) -> list[dict]:
    count = 3 if group == "expert" else 5
    out = []
    for k in range(count):
        scores = {a: rng.randint(1, 5) for a in ASPECTS}
        if group == "expert":
            scores["relevance"] = EXPERT_RELEVANCE[system][d][k]
        out.append(scores)
    return out


def records() -> list[dict]:
    rng = random.Random(30)
    out = []
    for d, doc in enumerate(DOCUMENTS):
        for system in SYSTEMS:
            out.append({
                "id": doc,
                "model_id": system,
                "decoded": summary(system, d),
                "references": [" ".join(reference(d))] + crowd_references(d),
                "expert_annotations": annotations(rng, system, d, "expert"),
                "turker_annotations": annotations(rng, system, d, "turker"),
                "filepath": f"cnndm/dailymail/stories/{doc[8:]}.story",
                "metric_scores_11": {"rouge": {"rouge_1_f_score": MATCHED[system][d] / 10}},
                "text": article(d),
            })
    return out


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def sacrerouge(rows: list[dict]) -> tuple[list[dict], list[dict]]:
    """sacrerouge's fabbri2020 `summaries.jsonl` (the ground-truth reference) and `metrics.jsonl`."""
    summaries, metrics = [], []
    for r in rows:
        summaries.append({
            "instance_id": r["id"], "summarizer_id": r["model_id"], "summarizer_type": "peer",
            "file_path": r["filepath"], "document": {"text": r["text"]}, "summary": {"text": r["decoded"]},
            "references": [{"summarizer_id": "ground-truth", "summarizer_type": "reference", "text": r["references"][0]}],
        })
        metrics.append({
            "instance_id": r["id"], "summarizer_id": r["model_id"], "summarizer_type": "peer",
            "metrics": {group: {a: [x[a] for x in r[f"{group}_annotations"]] for a in ASPECTS}
                        for group in ("expert", "turker")},
        })
    return summaries, metrics


def realsumm(rows: list[dict]) -> dict:
    """A REALSumm scores dict: litepyramid_recall (the human score) = mean expert relevance / 5,
    beside automatic metrics' scores; texts with <t> … </t> sentence tags."""
    import numpy as np

    out: dict = {}
    for d, doc in enumerate(DOCUMENTS):
        words = reference(d)
        entry = {"doc_id": d, "ref_summ": f"<t> {' '.join(words[:5])} </t>  <t> {' '.join(words[5:])} </t>",
                 "system_summaries": {}}
        for r in rows:
            if r["id"] != doc:
                continue
            system, text = r["model_id"], r["decoded"].split()
            relevance = [x["relevance"] for x in r["expert_annotations"]]
            entry["system_summaries"][f"{system}.txt"] = {
                "system_summary": f"<t> {' '.join(text[:4])} </t> <t> {' '.join(text[4:])} </t>",
                "scores": {"rouge_1_recall": MATCHED[system][d] / 10, "js-2": np.float64(-0.5 + d / 100),
                           "litepyramid_recall": np.float64(sum(relevance) / len(relevance) / 5)},
            }
        out[d] = entry
    return out


def main() -> None:
    rows = records()
    write_jsonl(HERE / "summeval.jsonl", rows)
    summaries, metrics = sacrerouge(rows)
    write_jsonl(HERE / "sacrerouge_summaries.jsonl", summaries)
    write_jsonl(HERE / "sacrerouge_metrics.jsonl", metrics)
    scores = realsumm(rows)
    (HERE / "realsumm.pkl").write_bytes(pickle.dumps(scores, protocol=3))
    (HERE / "realsumm.json").write_text(json.dumps(scores), encoding="utf-8")  # the README's conversion


if __name__ == "__main__":
    main()
