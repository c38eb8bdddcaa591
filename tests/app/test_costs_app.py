"""Issue 27 item 9 and issue 29 items 3-4 in the app: the estimates a page shows come from the
cost model (each computation under its own profile and path), and a page asks, with the
estimate, before work above the bound instead of running it (or freezing). No timing here:
the estimates' accuracy is bench/calibrate_costs.py's."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import rouge_core  # noqa: E402
from corpus_gen import study_corpus  # noqa: E402
from lens_app import inputs, state  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from lens_app.settings import Settings  # noqa: E402
from rouge_core.scorer import cost  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.studies import meta  # noqa: E402
from rouge_core.teach import disagree  # noqa: E402


def page(name: str) -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / name), default_timeout=300)


def texts(at: AppTest, kind: str) -> list[str]:
    return [plain(e.value) for e in getattr(at, kind)]


def small_study(systems: int = 3, documents: int = 8, references: int = 2):
    rows, judgements = study_corpus(systems, documents, references, seed=5)
    table = corpus_io.Table(tuple(rows[0]), tuple(rows), tuple(range(2, len(rows) + 2)), "study.csv")
    return corpus_io.build_corpus(table), judgements


def test_score_every_variant_is_priced_per_variant_under_its_own_profile():
    corpus, judgements = small_study()
    at = page("meta.py")
    at.session_state["corpus_data"] = corpus
    at.session_state["meta_imported"] = meta.HumanJudgements(
        tuple(meta.HumanScore(j["system"], j["doc_id"], j["annotator"], j["aspect"], float(j["score"]))
              for j in judgements), "judgements.csv")
    at.run()
    assert not at.exception, at.exception
    caption = next(c for c in texts(at, "caption") if c.startswith("Scoring "))
    runnable = [p for p in rouge_core.PROFILES if rouge_core.scorer.scoring.missing_extra(rouge_core.profile(p)) is None]
    methods = Settings().methods()
    estimates = [cost.estimate_corpus(corpus.systems, corpus.references, methods, v.options, shared_references=True)
                 for v in meta.variants(runnable)]
    whole = cost.total(estimates)
    assert f"takes about {cost.format_seconds(whole.seconds)}" in caption
    # each variant on its own path: the multilingual profile's Python tokenizer, the others' kernels
    multilingual = cost.estimate_corpus(corpus.systems, corpus.references, methods, "multilingual",
                                        shared_references=True)
    assert multilingual.seconds > cost.estimate_corpus(corpus.systems, corpus.references, methods, "rouge-score",
                                                       shared_references=True).seconds
    assert whole.seconds > len(estimates) * min(e.seconds for e in estimates)


def test_the_corpus_page_asks_before_a_bootstrap_above_the_bound():
    # 100,000 resamples (the widget's maximum) took 72 s and 3.6 GB with no approval step
    rng = random.Random(2)
    rows = [{"id": f"p{i}", "candidate": " ".join(rng.choice("abcdefgh") for _ in range(8)),
             "reference": " ".join(rng.choice("abcdefgh") for _ in range(8))} for i in range(3_000)]
    corpus = corpus_io.build_corpus(corpus_io.Table(("id", "candidate", "reference"), tuple(rows),
                                                    tuple(range(2, 3_002)), "big.csv"))
    at = page("corpus.py")
    at.session_state["corpus_data"] = corpus
    at.run()
    at.button(key="score_corpus").click().run()
    assert not at.exception, at.exception
    at.number_input(key="corpus_resamples").set_value(100_000).run()
    assert not at.exception, at.exception
    warning = next(w for w in texts(at, "warning") if "bootstrap intervals" in w)
    # priced for the scored columns: methods whose scores rebuild from their counts cost more per element
    scored = rouge_core.score_corpus(next(iter(corpus.systems.values())), corpus.references, Settings().methods(),
                                     Settings().options(), cost_limit=rouge_core.UNBOUNDED)
    estimate = scored.bootstrap_estimate(100_000)
    assert estimate.seconds > cost.bootstrap_corpus_estimate(3_000, 100_000, len(Settings().methods()), rebuilt=0).seconds
    assert estimate.describe() in warning and not rouge_core.DEFAULT_COST_LIMIT.allows(estimate)
    assert any(b.label.startswith("Compute anyway") for b in at.button)
    assert "No intervals until the bootstrap is computed" in " ".join(texts(at, "caption"))


def _disagree_page_on_a_long_pair(monkeypatch, loaded: bool):
    """The Disagree page on a 120 KB pair, every library loaded or none (rouge_core.text.loading)."""
    from rouge_core.text import loading

    monkeypatch.setattr(loading, "loaded", lambda library: loaded)
    rng = random.Random(7)
    words = [f"w{rng.randrange(4000)}" for _ in range(20_000)]
    candidate = "\n".join(" ".join(words[i:i + 20]) for i in range(0, 20_000, 20))
    reference = "\n".join(" ".join(words[i:i + 20]) for i in range(10, 20_000, 20))
    assert len(candidate) > 100_000
    at = page("disagree.py")
    at.session_state[state.CANDIDATE_KEY] = candidate
    at.session_state[state.REFERENCES_KEY] = [reference]
    at.run()
    assert not at.exception, at.exception
    asked = [w for w in texts(at, "warning") if "Comparing the tools on these texts" in w]
    return at, asked, disagree.Comparison(candidate, [reference])


def test_the_disagreement_page_asks_before_comparing_long_texts_on_a_fresh_server(monkeypatch):
    # a 120 KB pair took 166-232 s to settle, with no prompt; now about 1.6 s of comparing, plus
    # NLTK's import (about 0.9-1.4 s) on a server that has not loaded it yet: above the bound
    at, asked, comparison = _disagree_page_on_a_long_pair(monkeypatch, loaded=False)
    expected = comparison.estimate({**disagree.VARIANTS, "your settings": Settings().options()}, "rouge-score")
    assert expected.seconds > cost.SECONDS["load.nltk"] and not rouge_core.DEFAULT_COST_LIMIT.allows(expected)
    assert len(asked) == 1 and f"would take {expected.describe()}" in asked[0]
    assert any(b.label.startswith("Compute anyway") for b in at.button)
    assert not at.dataframe  # nothing computed before the user asks


def test_the_disagreement_page_compares_long_texts_within_the_bound_once_nltk_is_loaded(monkeypatch):
    at, asked, comparison = _disagree_page_on_a_long_pair(monkeypatch, loaded=True)
    assert not asked
    table = next(df.value for df in at.dataframe if "rouge-score" in df.value.columns)
    expected = comparison.side_by_side(disagree.VARIANTS)
    assert list(table["rouge-score"]) == [row["rouge-score"] for row in expected]


def test_thousands_of_references_are_listed_not_drawn_as_boxes():
    # 2,000 references (a 64 KB JSON file) took 34 s to draw and 43 s per edit: one box each
    rng = random.Random(3)
    refs = [" ".join(rng.choice("the cat sat on a mat dog ran".split()) for _ in range(5)) for _ in range(60)]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state[state.CANDIDATE_KEY] = "the cat sat on the mat"
    at.session_state[state.REFERENCES_KEY] = refs
    at.run()
    assert not at.exception, at.exception
    boxes = [t for t in at.text_area if t.key and t.key.startswith("reference")]
    assert len(boxes) == inputs.EDITABLE_REFERENCES
    listed = next(df.value for df in at.dataframe if list(df.value.columns) == ["reference"])  # (no key in AppTest)
    assert list(listed["reference"]) == refs[inputs.EDITABLE_REFERENCES:]
    shown = next(df.value for df in at.dataframe if "method" in df.value.columns)
    expected = rouge_core.score("the cat sat on the mat", refs, Settings().methods(), cost_limit=rouge_core.UNBOUNDED)
    assert shown[shown["method"] == "ROUGE-1"].iloc[0]["F"] == expected["rouge1"].fmeasure


def test_reading_texts_above_the_bound_is_asked_for_first():
    # Thai through XL-Sum's segmenter, which reads the text as one run: 10 s of tokenizing (its
    # time grows faster than the characters), once priced at 1.7 s by a model linear in them
    text = ("ภาษาไทย" * 6 + " ") * 12_000
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state[state.CANDIDATE_KEY] = text
    at.session_state[state.REFERENCES_KEY] = [text[:500]]
    at.query_params["profile"] = "multilingual"
    at.query_params["lang"] = "thai"
    at.run()
    assert not at.exception, at.exception
    assert any("Reading these texts" in w for w in texts(at, "warning"))
    assert not any(df.value is not None and "method" in df.value.columns for df in at.dataframe)


def test_a_share_link_with_a_huge_skip_distance_is_refused_in_words():
    # ?d=2^63 showed an OverflowError; d >= 1e309 broke the page
    for value in (str(2**63), str(2**63 - 5), "1e309", "9" * 5000):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.query_params["d"] = value
        at.run()
        assert not at.exception, (value[:20], at.exception)
        warning = next(w for w in texts(at, "warning") if "ignored the link's d=" in w)
        assert len(warning) < 400
        assert at.session_state[state.SETTINGS_KEY].skip_distance == rouge_core.SKIP_DISTANCE.default
