"""The example corpora (lens_app.sample_corpora): ROUGE-1.5.5's SL2003 and DUC 2002 samples as
corpora, their numbers against the release's shipped outputs, the example judgements, and the
one-click load on the Corpus, Compare systems, Review and "Which ROUGE agrees" pages (AppTest)."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rouge_core  # noqa: E402
from lens_app import sample_corpora  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from rouge_core.studies import meta  # noqa: E402
from rouge_core.compat.rouge155 import bootstrap  # noqa: E402
from rouge_core.compat.rouge155.api import evaluate_config  # noqa: E402
from rouge_core.compat.rouge155.flags import parse_command_line  # noqa: E402
from rouge_core.corpora.corpus import rank_systems  # noqa: E402
# db: the fixture giving each test its own judgements database
from tests.app.test_review_meta_pages import db, frame_with, page  # noqa: E402,F401
from tests.conformance import CONFORMANCE_DIR  # noqa: E402

OFFICIAL = CONFORMANCE_DIR / "rouge155-official"
SL_SYSTEMS = ["11", "12", "13", "14", "21", "22", "23", "24"]
SL_IDS = [f"SL062003-{n:02d}" for n in range(1, 26)]
DUC_IDS = [f"D{n:03d}" for n in range(61, 121) if n != 88]


# --- the loader -------------------------------------------------------------------------------------

def test_the_sl2003_sample_is_8_systems_by_25_documents_with_4_models_each():
    corpus = sample_corpora.load_sample("sl2003")
    assert list(corpus.ids) == SL_IDS
    assert corpus.system_names == SL_SYSTEMS
    assert all(len(refs) == 4 for refs in corpus.references)
    assert corpus.references[0] == (
        "Poor nations demand trade subsidies from developed nations.",
        "Poor nations pressurise developed countries into granting trade subsidies.",
        "Developed countries should be pressurized. Business exemptions to poor nations.",
        "World's poor decide to urge developed nations for business concessions",
    )
    assert corpus.systems["11"][0] == "The/ Officers it/ The concessions/ The/ The discussion"
    assert corpus.systems["21"][0] == "world trade officials in the "  # the SEE text as the script reads it
    assert corpus.source == sample_corpora.get_sample("sl2003").title and corpus.warnings == ()


def test_the_duc2002_sample_is_system_26_on_59_documents_with_one_model_each():
    corpus = sample_corpora.load_sample("duc2002")
    assert list(corpus.ids) == DUC_IDS
    assert corpus.system_names == ["26"]
    assert all(len(refs) == 1 for refs in corpus.references)
    first_peer = corpus.systems["26"][0].split("\n")
    assert len(first_peer) == 5 and first_peer[0] == "-LRB- 09/11/1988 -RRB- Hurricane Gilbert ."
    first_model = corpus.references[0][0].split("\n")
    assert first_model[0] == "Hurricane Gilbert has cut a destructive swath through the Caribbean ."
    assert len(first_model) == 7


def test_a_sample_is_recognised_however_it_was_loaded():
    corpus = sample_corpora.load_sample("sl2003")
    rebuilt = type(corpus)(corpus.ids, dict(corpus.systems), corpus.references, source="uploaded.jsonl")
    assert sample_corpora.sample_of(rebuilt).key == "sl2003"
    changed = type(corpus)(corpus.ids, {**corpus.systems, "11": ("x",) * 25}, corpus.references)
    assert sample_corpora.sample_of(changed) is None and sample_corpora.sample_of(None) is None
    with pytest.raises(KeyError, match="known: sl2003, duc2002"):
        sample_corpora.get_sample("nope")


def test_the_packaged_files_are_what_the_build_script_makes_from_the_release():
    spec = importlib.util.spec_from_file_location("build_sample_corpora", ROOT / "bench" / "build_sample_corpora.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    for sample in sample_corpora.SAMPLES:
        assert sample.path.read_text(encoding="utf-8") == builder.build(sample.key), sample.key
    assert builder.main(["--check"]) == 0


# --- the numbers: the release's shipped outputs ---------------------------------------------------------

_AVERAGE = re.compile(r"^(\S+) (ROUGE-\S+) Average_([RPF]): (\d\.\d{5}) \(95%-conf\.int\. (\d\.\d{5}) - (\d\.\d{5})\)$")
# ROUGE-1.5.5's printed names under these flags -> the rouge_core methods (its ROUGE-L is summary-level)
_METHODS = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-3": "rouge3", "ROUGE-4": "rouge4", "ROUGE-L": "rougeLsum",
            "ROUGE-W-1.2": "rougeW-1.2", "ROUGE-S*": "rougeS*", "ROUGE-SU*": "rougeSU*"}
_BASE = "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-"
# (shipped output, sample, the rouge-1.5.5 profile's options for the output's flags other than -n -w -2 -U -c -r)
OUTPUTS = [
    ("DUC2002-ROUGE.in.26.spl.out", "duc2002", {}),
    (_BASE + "a.out", "sl2003", {}),
    (_BASE + "a-m.out", "sl2003", {"stemmer": "rouge155"}),
    (_BASE + "a-m-s.out", "sl2003", {"stemmer": "rouge155", "stopwords": "smart"}),
    (_BASE + "l10-a.out", "sl2003", {"limit_words": 10}),
    (_BASE + "l10-a-m.out", "sl2003", {"limit_words": 10, "stemmer": "rouge155"}),
    (_BASE + "l10-a-m-s.out", "sl2003", {"limit_words": 10, "stemmer": "rouge155", "stopwords": "smart"}),
    (_BASE + "b75-a.out", "sl2003", {"limit_bytes": 75}),
    (_BASE + "b75-a-m.out", "sl2003", {"limit_bytes": 75, "stemmer": "rouge155"}),
    (_BASE + "b75-a-m-s.out", "sl2003", {"limit_bytes": 75, "stemmer": "rouge155", "stopwords": "smart"}),
]


def eval_ids(key: str) -> list[str]:
    return [json.loads(line)["eval_id"] for line in sample_corpora.get_sample(key).path.read_text().splitlines()]


@pytest.mark.parametrize("output, key, overrides", OUTPUTS, ids=[o[0] for o in OUTPUTS])
def test_scored_under_the_rouge155_profile_the_sample_gives_the_shipped_averages(output, key, overrides):
    """Every average and interval the release prints, from the app's per-document scores resampled
    the script's way (its 1,000 drand48 resamples over the documents in string order of their
    evaluation ids: the printed average is their mean, not the plain mean)."""
    expected = {}
    for line in (OFFICIAL / "sample-output" / output).read_text().splitlines():
        match = _AVERAGE.match(line)
        if match:
            expected[match[1], match[2], match[3]] = match[4], match[5], match[6]
    metrics = sorted({metric for _, metric, _ in expected})
    corpus = sample_corpora.load_sample(key)
    assert len(expected) == len(corpus.systems) * len(metrics) * 3
    ids = eval_ids(key)
    script_order = sorted(range(len(ids)), key=lambda i: ids[i])
    options = rouge_core.profile("rouge-1.5.5", **overrides)
    assert options.profile == "rouge-1.5.5"  # every flag is one the profile itself offers
    got = {}
    for system, candidates in corpus.systems.items():
        result = rouge_core.score_corpus(list(candidates), list(corpus.references), [_METHODS[m] for m in metrics],
                                         options, ids=list(corpus.ids))
        for metric in metrics:
            scores = [result.pairs[i][_METHODS[metric]].score for i in script_order]
            columns = bootstrap.resample_means([(s.recall, s.precision, s.fmeasure) for s in scores], 1000, False,
                                               options.alpha)
            for measure, values in zip("RPF", columns):
                interval = bootstrap.summarize(values, 95)
                got[system, metric, measure] = tuple(f"{v:.5f}" for v in (interval.value, interval.low, interval.high))
    assert got == expected


def test_each_documents_scores_are_those_the_rouge155_front_door_gives_on_the_release_files(monkeypatch):
    """Per document (what -d would print): the packaged texts score as the release's own files do."""
    monkeypatch.chdir(OFFICIAL / "sample-test")
    flags, _ = parse_command_line(["-e", "../data", *shlex.split("-c 95 -2 -1 -U -r 10 -n 4 -w 1.2 -a -d")])
    report = evaluate_config("ROUGE-test.xml", flags)
    corpus = sample_corpora.load_sample("sl2003")
    by_eval = dict(zip(eval_ids("sl2003"), range(len(corpus))))
    compared = 0
    for system, candidates in corpus.systems.items():
        result = rouge_core.score_corpus(list(candidates), list(corpus.references), list(_METHODS.values()),
                                         rouge_core.profile("rouge-1.5.5"), ids=list(corpus.ids))
        for printed, method in _METHODS.items():
            for document in report.get(printed, system).documents:
                score = result.pairs[by_eval[document.eval_id]][method].score
                assert (score.recall, score.precision, score.fmeasure) == (document.recall, document.precision,
                                                                           document.f), (system, printed, document)
                compared += 1
    assert compared == 8 * 8 * 25


# --- the example judgements ----------------------------------------------------------------------------

def judgement_rows() -> list[dict]:
    return list(csv.DictReader(io.StringIO(sample_corpora.judgements_bytes("sl2003").decode("utf-8"))))


def test_the_example_judgements_rate_every_sl2003_summary_once_by_their_written_rule():
    judgements = sample_corpora.load_judgements("sl2003")
    corpus = sample_corpora.load_sample("sl2003")
    assert len(judgements) == 200 and judgements.annotators() == ["rouge-lens-dev"]
    assert judgements.aspects() == ["content coverage"]
    scores = judgements.scores("content coverage")
    assert set(scores) == {(s, d) for s in SL_SYSTEMS for d in SL_IDS}
    assert set(scores.values()) == {1.0, 2.0, 3.0, 4.0, 5.0}
    # the README's rule: 1 + subject (0-2) + event (0-2), minus 1 (not below 1) when misleading
    for row in judgement_rows():
        assert int(row["score"]) == max(1, 1 + int(row["subject"]) + int(row["event"]) - int(row["misleading"])), row
        assert row["evidence"].strip()
    # identical summaries of a document got identical scores
    for i, doc_id in enumerate(SL_IDS):
        by_text = {}
        for system in SL_SYSTEMS:
            by_text.setdefault(corpus.systems[system][i].strip().lower(), set()).add(scores[system, doc_id])
        assert all(len(values) == 1 for values in by_text.values()), doc_id
    assert sample_corpora.get_sample("duc2002").judgements is None
    with pytest.raises(KeyError, match="has no judgements"):
        sample_corpora.judgements_bytes("duc2002")


# --- the pages: one click loads it ----------------------------------------------------------------------

def load_example(at: AppTest, prefix: str, key: str = "sl2003") -> None:
    at.run()
    at.selectbox(key=f"{prefix}_example_choice").set_value(key).run()
    at.button(key=f"{prefix}_example_load").click().run()
    assert not at.exception, at.exception


def assert_provenance_shown(at: AppTest, key: str) -> None:
    sample = sample_corpora.get_sample(key)
    captions = [plain(c.value).replace("**", "") for c in at.caption]
    loaded = sample_corpora.load_sample(key)
    assert f"Loaded: {sample.title} — {len(loaded)} pairs, systems: {', '.join(loaded.system_names)}" in captions
    assert any(c.startswith("Example corpus.") and "ROUGE-1.5.5 (Chin-Yew Lin, USC Information Sciences Institute, "
               "2005)" in c for c in captions)


def test_the_corpus_page_loads_an_example_in_one_click_and_scores_it(db):
    at = page("corpus.py")
    load_example(at, "corpus")
    corpus = sample_corpora.load_sample("sl2003")
    assert at.session_state["corpus_data"] == corpus
    assert_provenance_shown(at, "sl2003")
    preview = frame_with(at, "id", *SL_SYSTEMS, "reference_4")
    assert list(preview["id"]) == SL_IDS[:20]
    at.button(key="score_corpus").click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="corpus_system").options == SL_SYSTEMS
    at.selectbox(key="corpus_system").set_value("14").run()
    expected = rouge_core.score_corpus(list(corpus.systems["14"]), list(corpus.references), rouge_core.DEFAULT_METHODS,
                                       "rouge-score", ids=list(corpus.ids))
    shown = frame_with(at, "aggregate", "fmeasure_low")
    row = shown[(shown["method"] == "rouge1") & (shown["aggregate"] == "macro")].iloc[0]
    assert row["fmeasure"] == pytest.approx(expected.macro()["rouge1"].fmeasure)
    assert list(at.dataframe(key="corpus_pairs").value["id"]) == SL_IDS


def test_the_duc2002_example_and_an_example_replacing_a_pasted_corpus_for_good(db):
    at = page("corpus.py")
    at.run()
    at.radio(key="corpus_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key="corpus_paste").set_value("id,candidate,reference\n1,a b c,a b d\n").run()
    assert at.session_state["corpus_data"].ids == ("1",)
    at.selectbox(key="corpus_example_choice").set_value("duc2002").run()
    at.button(key="corpus_example_load").click().run()
    at.run()  # the pasted text must not come back on the next run and replace the example
    assert not at.exception, at.exception
    assert at.session_state["corpus_data"] == sample_corpora.load_sample("duc2002")
    assert [t.value for t in at.text_area] == [""]  # the paste box starts afresh
    assert_provenance_shown(at, "duc2002")
    # a new paste replaces the example again, as any load does
    at.text_area[0].set_value("id,candidate,reference\n7,x y,x z\n").run()
    assert at.session_state["corpus_data"].ids == ("7",)
    assert not any(plain(c.value).startswith("**Example corpus.**") for c in at.caption)


def test_the_compare_page_ranks_the_example_systems(db):
    at = page("compare.py")
    load_example(at, "compare")
    assert_provenance_shown(at, "sl2003")
    at.button(key="compare_score").click().run()
    at.number_input(key="rank_resamples").set_value(200).run()
    assert not at.exception, at.exception
    corpus = sample_corpora.load_sample("sl2003")
    scored = {s: rouge_core.score_corpus(list(c), list(corpus.references), rouge_core.DEFAULT_METHODS,
                                         ids=list(corpus.ids)) for s, c in corpus.systems.items()}
    want = rank_systems(scored, "rouge1", resamples=200, seed=0)
    shown = frame_with(at, "rank", "best_rank", "cluster")
    assert sorted(shown["system"]) == SL_SYSTEMS and list(shown["system"]) == list(want.order)


def test_the_review_page_reviews_the_example(db):
    at = page("review.py")
    load_example(at, "review")
    assert_provenance_shown(at, "sl2003")
    assert at.selectbox(key="review_sys").options == SL_SYSTEMS
    assert plain(at.get("progress")[0].proto.text).startswith("Pair 1 of 25: id SL062003-01")
    shown = [re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", h.value)) for h in at.html]
    assert any("Poor nations demand trade subsidies from developed nations" in h for h in shown)
    assert any("The/ Officers it/ The concessions/" in h.replace(" /", "/") for h in shown)


def test_the_annotators_page_ranks_variants_with_the_example_judgements(db):
    at = page("meta.py")
    at.session_state["meta_resamples"] = 100
    load_example(at, "meta")
    assert any("No human scores yet" in i.value for i in at.info)
    at.button(key="meta_example_judgements").click().run()
    assert not at.exception, at.exception
    notes = [plain(i.value) for i in at.info]
    assert any("Rated by a ROUGE Lens developer for this demo, one rater, not NIST/DUC assessments" in n for n in notes)
    assert at.session_state["meta_imported"] == sample_corpora.load_judgements("sl2003")
    at.multiselect(key="meta_methods").set_value(["rouge1", "rougeLsum"]).run()
    at.button(key="meta_score").click().run()
    assert not at.exception, at.exception
    table = frame_with(at, "summary", "system", "profile", "stemmer")
    assert list(table["summary"]) == sorted(table["summary"], reverse=True)  # ranked, best first
    corpus = sample_corpora.load_sample("sl2003")
    human = sample_corpora.load_judgements("sl2003").scores("content coverage")
    for method, profile, stemmer in (("rouge1", "rouge-1.5.5", "none"), ("rougeLsum", "rouge-score", "porter")):
        variant = meta.Variant(profile, stemmer)
        results = {s: rouge_core.score_corpus(list(c), list(corpus.references), [method], variant.options,
                                              ids=list(corpus.ids)) for s, c in corpus.systems.items()}
        scores = meta.metric_scores(results, method)
        row = table[(table["method"] == method) & (table["profile"] == profile) & (table["stemmer"] == stemmer)].iloc[0]
        assert row["summary"] == meta.correlate(scores, human, "summary", "kendall", "b", bootstrap=100, seed=0).value
        assert row["system"] == meta.correlate(scores, human, "system", "kendall", "b", bootstrap=100, seed=0).value
        assert row["coverage"] == "25 / 25" and row["systems"] == 8 and row["items"] == 200  # every document
