import csv
import io
import json
import math

import pandas as pd
import pytest

from rouge_core import score_corpus
from rouge_core.agreement import cohen_kappa, pairwise_agreement
from rouge_core.export import neutralise, to_csv, to_json


@pytest.mark.parametrize("text", ["=1+1", "+cmd", "-2", "@SUM(A1)", "\t=x", "\r=x"])
def test_formula_starts_are_neutralised(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("value", ["plain", "a=b", "", 3, -2.5, None])
def test_other_cells_unchanged(value):
    assert neutralise(value) == value


def test_csv_and_json_carry_signature_and_are_safe():
    frame = pd.DataFrame([{"id": "1", "candidate": "=HYPERLINK(\"x\")", "score": -0.5, "missing": math.nan}])
    rows = list(csv.DictReader(io.StringIO(to_csv(frame, "rouge1|v:0.1.0").decode())))
    assert rows[0]["candidate"] == "'=HYPERLINK(\"x\")"
    assert rows[0]["score"] == "-0.5"  # numbers are not text cells
    assert rows[0]["signature"] == "rouge1|v:0.1.0"
    payload = json.loads(to_json(frame, "rouge1|v:0.1.0", meta={"seed": 0}))
    assert payload["signature"] == "rouge1|v:0.1.0" and payload["meta"] == {"seed": 0}
    assert payload["rows"][0]["candidate"].startswith("'=") and payload["rows"][0]["missing"] is None


def test_corpus_exports_round_trip():
    result = score_corpus(["-a b", "c"], [["a b"], ["c"]], ["rouge1"])
    rows = list(csv.DictReader(io.StringIO(to_csv(result.to_frame(), result.signature).decode())))
    assert rows[0]["candidate"] == "'-a b"
    assert float(rows[1]["rouge1_fmeasure"]) == 1.0
    agg = result.aggregates_frame()
    data = json.loads(to_json(agg, result.signature))
    assert data["rows"][0]["signature"].startswith("rouge1|")


def test_cohen_kappa_hand_checked():
    # 10 items: agree on 7; a says yes 5×, b says yes 6× -> p_e = .5*.6 + .5*.4 = .5; κ = (.7-.5)/.5 = .4
    a = ["y"] * 5 + ["n"] * 5
    b = ["y", "y", "y", "y", "n", "y", "y", "n", "n", "n"]
    assert sum(x == y for x, y in zip(a, b)) == 7
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert cohen_kappa(a, a) == 1.0
    assert cohen_kappa(["3", "3"], ["3", "3"]) == 1.0
    assert cohen_kappa(["1", "5"], ["2", "5"], weights="quadratic", categories="12345") > cohen_kappa(["1", "5"], ["2", "5"])
    rows = pairwise_agreement({"ann": {"p1": "A", "p2": "B"}, "bob": {"p1": "A", "p2": "A", "p3": "tie"}})
    assert (rows[0].items, rows[0].agreed) == (2, 1)
