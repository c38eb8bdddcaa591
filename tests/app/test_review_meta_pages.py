"""The Review page (tasks, blinding, navigation, reload), "Which ROUGE agrees with your
annotators?" and the ranking of several systems, in Streamlit's AppTest."""

import math
import sqlite3
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rouge_core  # noqa: E402
from lens_app import review_tasks as rt  # noqa: E402
from lens_app.settings import Settings  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from lens_app.review_store import ReviewStore  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.studies import meta  # noqa: E402
from rouge_core.scorer.scoring import missing_extra  # noqa: E402
from tests.annotated_corpus import corpus_csv, ratings, ratings_csv  # noqa: E402

CORPUS = corpus_io.build_corpus(corpus_io.read_csv(corpus_csv(systems=3, documents=25).encode(), "annotated.csv"))
SYSTEMS = CORPUS.system_names
RATING, PREFERENCE = rt.DEFAULT_TASKS


def page(name: str) -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)


def frame_with(at: AppTest, *columns: str):
    for df in at.dataframe:
        if all(c in df.value.columns for c in columns):
            return df.value
    raise AssertionError(f"no table with columns {columns}")


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = tmp_path / "judgements.sqlite3"
    monkeypatch.setenv("ROUGE_LENS_DB", str(path))
    return path


def review(annotator: str = "alice", params: dict | None = None, corpus=CORPUS) -> AppTest:
    at = page("review.py")
    if corpus is not None:
        at.session_state["corpus_data"] = corpus
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    if annotator:
        at.text_input(key="review_annotator").set_value(annotator).run()
    assert not at.exception, at.exception
    return at


def progress_text(at: AppTest) -> str:
    return plain(at.get("progress")[0].proto.text)


# --- Review ---------------------------------------------------------------------------------------

def test_a_reload_reopens_the_corpus_task_systems_and_pair_from_the_link(db):
    at = review()
    at.selectbox(key="review_sys").set_value(SYSTEMS[1]).run()
    at.number_input(key="review_goto").set_value(7).run()
    at.button(key="verdict_1").click().run()
    assert progress_text(at).startswith("Pair 7 of 25: id doc06 · alice has judged 1 of 25")
    link = dict(at.query_params)
    assert link["corpus"] == CORPUS.fingerprint() and link["pair"] == "doc06" and link["sys"] == SYSTEMS[1]

    reloaded = review(annotator="", params=link, corpus=None)  # a new browser session
    assert reloaded.session_state["corpus_data"] == CORPUS  # from the judgements database
    assert reloaded.text_input(key="review_annotator").value == "alice"
    assert reloaded.selectbox(key="review_sys").value == SYSTEMS[1]
    assert progress_text(reloaded).startswith("Pair 7 of 25: id doc06")
    assert reloaded.button(key="verdict_1").proto.type == "primary"


def test_a_link_to_an_unknown_corpus_says_so(db):
    at = review(annotator="", params={"corpus": "0123456789abcdef"}, corpus=None)
    assert any("not in the judgements database" in w.value for w in at.warning)
    assert "corpus" not in at.query_params


def test_navigation_next_unjudged_go_to_and_progress_per_annotator(db):
    at = review()
    for _ in range(3):  # judge pairs 1-3
        at.button(key="verdict_4").click().run()
        at.button(key="review_next").click().run()
    at.number_input(key="review_goto").set_value(1).run()
    at.button(key="review_next_unjudged").click().run()
    assert progress_text(at).startswith("Pair 4 of 25: id doc03 · alice has judged 3 of 25")
    shortcuts = {b.key: b.proto.shortcut for b in at.button}
    assert shortcuts["review_next"] == "j" and shortcuts["review_prev"] == "k" and shortcuts["review_next_unjudged"] == "n"
    assert [shortcuts[f"verdict_{i}"] for i in range(5)] == ["1", "2", "3", "4", "5"]
    bob = review("bob")
    bob.button(key="verdict_0").click().run()
    bob.session_state["review_progress_open"] = True
    bob.run()
    table = frame_with(bob, "annotator", "judged")
    assert table[["annotator", "judged", "pairs"]].values.tolist() == [["alice", 3, 25], ["bob", 1, 25]]
    # alice's verdicts stay hidden from bob (he has not finished), until the task's owner shows them
    assert list(frame_with(bob, "annotator", "verdict")["annotator"]) == ["bob"]
    at.session_state["review_task_options_open"] = True
    at.run()
    at.toggle(key="review_opt_visible|Overall quality").set_value(True).run()  # alice claims the built-in task
    bob.run()
    agreement = frame_with(bob, "annotator_a", "kappa_quadratic")
    assert agreement[["annotator_a", "annotator_b", "items", "agreed"]].values.tolist() == [["alice", "bob", 1, 0]]


def test_comparisons_are_blinded_reproducibly_and_stored_unshuffled(db):
    key = rt.task_key(PREFERENCE, [SYSTEMS[2], SYSTEMS[0]])
    # alice's seed (drawn at random when she first compares) fixed here to one that shows both orders in 6 pairs
    seed = next(s for s in range(100)
                if len({rt.shown_swapped(s, CORPUS.fingerprint(), key, CORPUS.ids[i]) for i in range(6)}) == 2)
    with sqlite3.connect(ReviewStore(db).path) as conn:
        conn.execute("INSERT INTO annotators (name, seed, created_at) VALUES ('alice', ?, '')", (seed,))
    at = review()
    at.selectbox(key="review_task").set_value(PREFERENCE.name).run()
    at.selectbox(key="review_sys_a").set_value(SYSTEMS[2]).run()
    at.selectbox(key="review_sys_b").set_value(SYSTEMS[0]).run()
    captions = [plain(c.value) for c in at.caption]
    assert captions.count("System hidden until your verdict is saved.") == 2
    assert not any(c.startswith("Summary") for c in captions)  # no system named before the verdict
    labels = [plain(b.label) for b in at.button if b.key.startswith("verdict_")]
    assert labels == ["1 · The first summary is better", "2 · They are about equally good",
                      "3 · The second summary is better"]
    store = ReviewStore(db)
    assert store.annotator_seed("alice") == seed
    stored_first = []
    for position in range(6):
        swapped = rt.shown_swapped(seed, CORPUS.fingerprint(), key, CORPUS.ids[position])
        first, second = rt.shown_order(rt.compared_pair(SYSTEMS[2], SYSTEMS[0]), swapped)
        at.button(key="verdict_0").click().run()  # "the first summary is better"
        saved = store.get(CORPUS.fingerprint(), key, CORPUS.ids[position], "alice")
        assert saved.verdict == ("B better" if swapped else "A better")  # A, B: the systems in sorted order
        assert rt.verdict_text(rt.parse_task_key(key), saved.verdict) == f"{first} better"
        assert (saved.shown_first, saved.system_a, saved.system_b) == (first, SYSTEMS[0], SYSTEMS[2])
        revealed = [plain(c.value) for c in at.caption if c.value.startswith("Summary")]
        assert revealed == [f"Summary 1 is **{first}**.", f"Summary 2 is **{second}**."]
        stored_first.append(first)
        at.button(key="review_next").click().run()
    assert len(set(stored_first)) == 2  # both orders occurred
    again = review()  # the same annotator later sees the same order
    again.selectbox(key="review_task").set_value(PREFERENCE.name).run()
    again.selectbox(key="review_sys_a").set_value(SYSTEMS[2]).run()
    again.selectbox(key="review_sys_b").set_value(SYSTEMS[0]).run()
    revealed = [plain(c.value) for c in again.caption if c.value.startswith("Summary")]
    other = next(s for s in (SYSTEMS[0], SYSTEMS[2]) if s != stored_first[0])
    assert revealed == [f"Summary 1 is **{stored_first[0]}**.", f"Summary 2 is **{other}**."]
    assert again.button(key="verdict_0").proto.type == "primary"


def test_a_new_task_with_its_own_scale_and_anchors(db):
    at = review()
    at.session_state["review_task_editor_open"] = True
    at.run()
    at.text_input(key="review_edit_name").set_value("Coherence").run()
    at.selectbox(key="review_edit_points_new_rating").set_value(3).run()
    at.text_input(key="review_edit_question_new").set_value("Is the summary well structured?").run()
    for i, anchor in enumerate(("Jumbled", "Mostly ordered", "Well structured")):
        at.text_input(key=f"review_edit_anchor_new_3_{i}").set_value(anchor).run()
    at.button(key="review_edit_save").click().run()
    assert not at.exception
    at.selectbox(key="review_task").set_value("Coherence").run()
    assert "#### Is the summary well structured?" in [plain(m.value) for m in at.markdown]
    assert [plain(b.label) for b in at.button if b.key.startswith("verdict_")] == [
        "1 · Jumbled", "2 · Mostly ordered", "3 · Well structured"]
    assert any("Your rating (keys 1–3)" in m.value for m in at.markdown)
    at.button(key="verdict_2").click().run()
    assert ReviewStore(db).all()[0].task_name == "Coherence"
    at.session_state["review_edit_target"] = "Coherence"
    at.run()
    assert any("its points stay as they are" in plain(c.value) for c in at.caption)


def test_the_judgements_table_carries_each_rows_task(db):
    at = review()
    at.button(key="verdict_2").click().run()
    at.selectbox(key="review_task").set_value(PREFERENCE.name).run()
    at.button(key="verdict_1").click().run()
    table = frame_with(at, "task_name", "verdict")
    assert sorted(table["task_name"]) == sorted([RATING.name, PREFERENCE.name])
    assert sorted(table["verdict"]) == ["3", "tie"]


# --- Which ROUGE agrees with your annotators? ------------------------------------------------------------

def seeded_judgements(db) -> list:
    store = ReviewStore(db)
    fingerprint = store.save_corpus(CORPUS)
    rows = ratings(CORPUS)
    for system, doc_id, annotator, value in rows:
        store.save(fingerprint, rt.task_key(RATING, [system]), doc_id, annotator, str(value), task_name=RATING.name,
                   kind="rating", system_a=system)
    return rows


def meta_page(db, resamples: int = 200) -> AppTest:
    at = page("meta.py")
    at.session_state["corpus_data"] = CORPUS
    at.session_state["meta_resamples"] = resamples  # before the widget is drawn: the first table uses it
    at.run()
    assert not at.exception, at.exception
    at.button(key="meta_score").click().run()
    assert not at.exception, at.exception
    return at


def expected_scores(method: str, variant: meta.Variant) -> dict:
    results = {s: rouge_core.score_corpus(list(c), list(CORPUS.references), [method], variant.options, ids=list(CORPUS.ids))
               for s, c in CORPUS.systems.items()}
    return meta.metric_scores(results, method)


def test_the_page_correlates_every_variant_with_the_app_judgements(db):
    rows = seeded_judgements(db)
    at = meta_page(db)
    table = frame_with(at, "summary", "system", "profile", "stemmer")
    runnable = [p for p in rouge_core.PROFILES if missing_extra(rouge_core.profile(p)) is None]
    assert len(table) == len(Settings().methods()) * len(runnable) * 2  # the sidebar's methods
    human = {}
    for system, doc_id, _, value in rows:
        human.setdefault((system, doc_id), []).append(value)
    human = {k: sum(v) / len(v) for k, v in human.items()}
    for method, profile, stemmer in (("rouge1", "rouge-score", "none"), ("rougeLsum", "rouge-1.5.5", "rouge155")):
        variant = meta.Variant(profile, stemmer)
        scores = expected_scores(method, variant)
        row = table[(table["method"] == method) & (table["profile"] == profile) & (table["stemmer"] == stemmer)].iloc[0]
        summary = meta.correlate(scores, human, "summary", "kendall", "b", bootstrap=200, seed=0)
        system = meta.correlate(scores, human, "system", "kendall", "b", bootstrap=200, seed=0)
        assert row["summary"] == summary.value and row["system"] == system.value
        assert (row["summary_low"], row["summary_high"]) == (summary.low, summary.high)
        assert row["coverage"] == "25 / 25" and row["systems"] == 3 and row["items"] == 75
    assert list(table["summary"]) == sorted(table["summary"], reverse=True)  # best first
    caption = next(plain(c.value) for c in at.caption if "human scores (this app's judgements)" in plain(c.value))
    assert caption.startswith("75 human scores (this app's judgements) for 3 system(s) × 25 document(s)")
    worst = frame_with(at, "doc_id", "human_rank", "metric_rank")
    assert set(worst["system"]) == set(SYSTEMS) and len(worst) == 30  # the 10 worst documents, 3 systems each


def test_a_profile_whose_extra_is_missing_is_named_and_left_out(db, monkeypatch):
    """The app extra without the multilingual one: the other profiles are scored, the missing one is named."""
    from rouge_core.text import multilingual

    monkeypatch.setitem(sys.modules, "pyonmttok", None)  # as if the [multilingual] extra were not installed
    multilingual.forget_tokenizer()
    try:
        seeded_judgements(db)
        at = meta_page(db)
        assert at.multiselect(key="meta_profiles").options == [p for p in rouge_core.PROFILES if p != "multilingual"]
        table = frame_with(at, "summary", "system", "profile", "stemmer")
        assert set(table["profile"]) == set(rouge_core.PROFILES) - {"multilingual"}
        assert any(plain(c.value).startswith("The multilingual profile cannot run here: XL-Sum's multilingual "
                                             "tokenizer (OpenNMT) needs the package pyonmttok")
                   and "pip install 'rouge-lens[multilingual]'" in plain(c.value) for c in at.caption)
    finally:
        multilingual.forget_tokenizer()


def test_imported_judgements_and_one_annotator(db):
    rows = ratings(CORPUS, annotators=("x", "y"), seed=5)
    at = page("meta.py")
    at.session_state["corpus_data"] = CORPUS
    at.run()
    assert any("No human scores yet" in i.value for i in at.info)
    at.file_uploader(key="meta_judgements_file").set_value(
        ("ratings.csv", (ratings_csv(rows) + "unknown_system,doc01,x,3,overall\n").encode(), "text/csv")).run()
    assert not at.exception, at.exception
    assert any(plain(w.value).startswith("The judgements name 1 system(s) this corpus does not have: unknown_system. "
                                         "Their scores are left out (1 under this aspect).") for w in at.warning)
    at.multiselect(key="meta_annotators_overall").set_value(["x"]).run()
    at.button(key="meta_score").click().run()
    at.segmented_control(key="meta_coefficient").set_value("Pearson r").run()
    at.number_input(key="meta_resamples").set_value(0).run()
    table = frame_with(at, "summary", "system", "profile")
    human = {(s, d): float(v) for s, d, a, v in rows if a == "x"}
    row = table[(table["method"] == "rouge2") & (table["profile"] == "matlab") & (table["stemmer"] == "porter")].iloc[0]
    scores = expected_scores("rouge2", meta.Variant("matlab", "porter"))
    assert row["summary"] == meta.correlate(scores, human, "summary", "pearson").value
    assert row["system"] == meta.correlate(scores, human, "system", "pearson").value
    assert "summary_low" not in table.columns


def test_bad_judgement_files_are_named_and_the_page_goes_on(db):
    at = page("meta.py")
    at.session_state["corpus_data"] = CORPUS
    at.run()
    at.file_uploader(key="meta_judgements_file").set_value(
        ("bad.csv", b"system,doc_id,score\ncandidate_alpha,doc01,great\n", "text/csv")).run()
    assert not at.exception
    assert any("bad.csv line 2: score 'great' is not a number" in plain(e.value) for e in at.error)


def test_two_variants_compared_with_the_tests(db):
    seeded_judgements(db)
    at = meta_page(db, resamples=100)
    at.session_state["meta_compare_open"] = True
    at.run()
    labels = list(at.selectbox(key="meta_compare_a").options)
    at.selectbox(key="meta_compare_b").set_value(plain(labels[-1])).run()
    at.radio(key="meta_compare_level").set_value("system").run()
    at.number_input(key="meta_compare_resamples").set_value(100).run()
    assert not at.exception, at.exception
    tests = frame_with(at, "test", "p_value", "difference")
    assert list(tests["test"]) == ["paired bootstrap", "permutation"]  # 3 systems: no Williams' test
    words = next(plain(m.value) for m in at.markdown if plain(m.value).startswith("At the system level"))
    assert "paired bootstrap p = " in words and "permutation p = " in words


# --- ranking several systems ---------------------------------------------------------------------

def compare_page(resamples: int, systems: int = 3, documents: int = 25) -> AppTest:
    """Compare systems with a generated corpus (`systems` systems x `documents` documents) pasted
    and scored, ranked with `resamples`."""
    at = page("compare.py")
    at.run()
    at.radio(key="compare_kind").set_value("Paste CSV / JSONL").run()
    at.text_area(key="compare_paste").set_value(corpus_csv(systems=systems, documents=documents)).run()
    at.button(key="compare_score").click().run()
    at.number_input(key="rank_resamples").set_value(resamples).run()
    return at


def test_the_compare_page_ranks_three_systems(db):
    from rouge_core.corpora.corpus import rank_systems

    at = compare_page(300)
    assert not at.exception, at.exception
    scored = {s: rouge_core.score_corpus(list(c), list(CORPUS.references), rouge_core.DEFAULT_METHODS,
                                         ids=list(CORPUS.ids)) for s, c in CORPUS.systems.items()}
    want = rank_systems(scored, "rouge1", resamples=300, seed=0)
    assert any(plain(m.value) == "\n\n".join(want.summary_parts()) for m in at.markdown)
    shown = frame_with(at, "rank", "best_rank", "cluster")
    assert list(shown["system"]) == list(want.order) and list(shown["cluster"]) == list(want.ranking_frame()["cluster"])
    pairs = frame_with(at, "effect_size", "adjusted_p")
    assert len(pairs) == 3 and pairs["effect_low"].le(pairs["effect_size"]).all()
    assert not math.isnan(pairs["difference_low"].iloc[0])
    # one document side by side: each system's scores, and its evidence
    at.selectbox(key="side_doc").set_value(4).run()
    at.selectbox(key="side_b").set_value(SYSTEMS[2]).run()
    side = [df.value for df in at.dataframe if list(df.value.columns) == ["method", "precision", "recall", "fmeasure"]]
    assert side[1].set_index("method").loc["rouge1", "fmeasure"] == scored[SYSTEMS[2]].pairs[4]["rouge1"].score.fmeasure


def test_ranking_many_resamples_asks_first(db):
    # 5 systems (10 comparisons) x 120 pairs with 100,000 resamples measure 1.7 s and run (estimated
    # 1.7 s); x 200 pairs they measure 2.5 s, estimated 2.7 s: above the bound of 2 s, the page asks
    at = compare_page(100_000, systems=5, documents=200)
    assert any("Lower the resamples, or compute it anyway" in plain(w.value) for w in at.warning)
    assert not any(plain(m.value).startswith("Ranking of") for m in at.markdown)
