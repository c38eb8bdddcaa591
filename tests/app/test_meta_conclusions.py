"""Which ROUGE agrees with your annotators? (pages/meta.py): the ranking compares only variants
computed on the same documents and says which are indistinguishable from the best (issue 27,
item 6); judgements naming systems as `M0` match a corpus whose columns are `candidate_M0`,
and names that match nothing are said and can be mapped (item 8)."""

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rouge_core  # noqa: E402
from lens_app.markup import plain  # noqa: E402
from rouge_core.corpora import corpus_io  # noqa: E402
from rouge_core.studies import meta  # noqa: E402
from tests.annotated_corpus import many_systems_csv, ratings, ratings_csv  # noqa: E402

REFERENCE = "the cat sat on the mat near the old dog"
# Four documents every variant scores; on six, two of the three summaries are one word long, which
# MATLAB's ROUGE-2 and ROUGE-S4 cannot score (no bigram, no skip-bigram: 0 / 0), so under the matlab
# profile those variants are computed on 4 of the 10 documents, where they agree perfectly with the
# humans (as in the issue: rougeS4 under matlab, 4 of 10 documents, crowned).
FULL = {"candidate_A": "the cat sat on a mat", "candidate_B": "a dog sat on the old mat", "candidate_C": "zzz qqq the mat"}
SHORT = {"candidate_A": "cat", "candidate_B": "zzz", "candidate_C": "cat sat"}
HUMAN_FULL = {"candidate_A": 5, "candidate_B": 3, "candidate_C": 1}
HUMAN_SHORT = {"candidate_A": 3, "candidate_B": 5, "candidate_C": 1}


def thin_corpus_csv() -> str:
    lines = ["id,candidate_A,candidate_B,candidate_C,reference"]
    for d in range(10):
        texts = FULL if d < 4 else SHORT
        lines.append(f"doc{d}," + ",".join(texts[s] for s in FULL) + "," + REFERENCE)
    return "\n".join(lines) + "\n"


def thin_ratings() -> list:
    return [(s, f"doc{d}", "ann", (HUMAN_FULL if d < 4 else HUMAN_SHORT)[s]) for d in range(10) for s in FULL]


def page() -> AppTest:
    return AppTest.from_file(str(ROOT / "pages" / "meta.py"), default_timeout=180)


def frame_with(at: AppTest, *columns: str):
    for df in at.dataframe:
        if all(c in df.value.columns for c in columns):
            return df.value
    raise AssertionError(f"no table with columns {columns}")


def has_button(at: AppTest, key: str) -> bool:
    return any(b.key == key for b in at.button)


def tables_with(at: AppTest, *columns: str) -> list:
    return [df.value for df in at.dataframe if all(c in df.value.columns for c in columns)]


@pytest.fixture(autouse=True)
def db(tmp_path, monkeypatch):
    path = tmp_path / "judgements.sqlite3"
    monkeypatch.setenv("ROUGE_LENS_DB", str(path))
    return path


def imported(corpus, judgements_csv: str, resamples: int = 200) -> AppTest:
    at = page()
    at.session_state["corpus_data"] = corpus
    at.session_state["meta_resamples"] = resamples
    at.run()
    at.file_uploader(key="meta_judgements_file").set_value(("ratings.csv", judgements_csv.encode(), "text/csv")).run()
    assert not at.exception, at.exception
    return at


# --- item 6: the best variant is never crowned on fewer documents ----------------------------------------

def test_a_variant_computed_on_fewer_documents_is_listed_apart_and_never_crowned():
    corpus = corpus_io.build_corpus(corpus_io.read_csv(thin_corpus_csv().encode(), "thin.csv"))
    at = imported(corpus, ratings_csv(thin_ratings()))
    at.multiselect(key="meta_profiles").set_value(["rouge-score", "matlab"]).run()
    at.button(key="meta_score").click().run()
    assert not at.exception, at.exception
    thin = {("rouge2", "none"), ("rouge2", "porter"), ("rougeS4", "none"), ("rougeS4", "porter")}
    ranking = frame_with(at, "summary", "system", "profile")
    crowned = ranking.iloc[0]
    assert not (crowned["profile"] == "matlab" and (crowned["method"], crowned["stemmer"]) in thin), crowned
    # The first table is the ranking: every variant in it is computed on all 10 judged documents.
    assert set(ranking["coverage"]) == {"10 / 10"} and list(ranking["rank"]) == list(range(1, len(ranking) + 1))
    assert list(ranking["summary"]) == sorted(ranking["summary"], reverse=True)
    assert not any(r.profile == "matlab" and (r.method, r.stemmer) in thin for r in ranking.itertuples())
    assert len(ranking) == 7 * 2 * 2 - len(thin)
    # ... and the four MATLAB variants that could not score six documents are listed apart, with why.
    apart = tables_with(at, "why_missing", "missing")[-1]
    assert len(apart) == 4 and set(apart["profile"]) == {"matlab"} and set(apart["method"]) == {"rouge2", "rougeS4"}
    assert set(apart["coverage"]) == {"4 / 10"} and set(apart["missing"]) == {6}
    assert all(w.startswith("6 documents where the variant gives no score to a summary (12 judged summaries")
               for w in apart["why_missing"])
    assert set(apart["summary"]) == {1.0}  # perfect on its 4 documents: above every ranked variant, and still apart
    assert (ranking["summary"] < 1.0).all()
    # In words: the best among the variants on the same documents, and the test that says which are tied with it.
    words = next(plain(m.value) for m in at.markdown if plain(m.value).startswith("Highest summary-level Kendall"))
    best = ranking.iloc[0]
    top = ranking[ranking["summary"] == best["summary"]]  # these variants score the same: an exact tie at the top
    assert len(top) == 6 and words.startswith(f"Highest summary-level Kendall τ-b: {best['summary']:.4f} (95% interval ")
    assert f"shared by 6 variants ({', '.join(top['variant'][:-1])} and {top['variant'].iloc[-1]}), on 10 of 10 " \
           "judged documents." in words
    assert ("by the paired bootstrap of the difference in Kendall τ-b over 200 resamples of the documents, seed 0, "
            "two-sided, Holm-adjusted over 23 comparisons with the best, α = 0.05") in words
    assert "Not ranked: 4 variants computed on other or fewer documents" in words
    tied = ranking[ranking["vs_best"] == meta.TIED]
    assert (tied["adjusted_p"] >= 0.05).all() and (ranking[ranking["vs_best"] == meta.WORSE]["adjusted_p"] < 0.05).all()


def test_the_test_against_the_best_is_the_paired_bootstrap_of_rouge_core_meta():
    corpus = corpus_io.build_corpus(corpus_io.read_csv(thin_corpus_csv().encode(), "thin.csv"))
    at = imported(corpus, ratings_csv(thin_ratings()), resamples=300)
    at.multiselect(key="meta_profiles").set_value(["rouge-score"]).run()
    at.multiselect(key="meta_methods").set_value(["rouge1", "rougeL", "rougeS4"]).run()
    at.button(key="meta_score").click().run()
    at.selectbox(key="meta_rank_level").set_value("system").run()
    assert not at.exception, at.exception
    ranking = frame_with(at, "summary", "system", "vs_best")
    human = {(s, d): float(v) for s, d, _, v in thin_ratings()}
    options = {"none": rouge_core.profile("rouge-score"), "porter": rouge_core.profile("rouge-score", stemmer="porter")}

    def scores(method, stemmer):
        results = {s: rouge_core.score_corpus(list(c), list(corpus.references), [method], options[stemmer],
                                              ids=list(corpus.ids)) for s, c in corpus.systems.items()}
        return meta.metric_scores(results, method)

    best = ranking.iloc[0]
    assert list(ranking["system"]) == sorted(ranking["system"], reverse=True)  # ranked by the system level now
    for row in ranking.iloc[1:].itertuples():
        want = meta.bootstrap_difference(scores(best["method"], best["stemmer"]), scores(row.method, row.stemmer),
                                         human, "system", "kendall", "b", resamples=300, seed=0)
        assert (row.best_minus_this, row.difference_low, row.difference_high) == (want.difference, want.low, want.high)
        assert row.p_value == want.p_value
    c = meta.correlate(scores(best["method"], best["stemmer"]), human, "system", "kendall", "b", bootstrap=300)
    assert (best["system"], best["system_low"], best["system_high"]) == (c.value, c.low, c.high)


# --- item 8: the judgements' system names --------------------------------------------------------------

MANY = corpus_io.build_corpus(corpus_io.read_csv(many_systems_csv(16, 100).encode(), "sixteen.csv"))


def m_ratings(names=None, aspects=("coherence", "relevance")) -> str:
    """Two annotators' ratings of MANY under each aspect, the systems named M0 … M15 (or `names`)."""
    rows = ratings(MANY, annotators=("ann1", "ann2"))
    rename = names or {s: s.removeprefix("candidate_") for s in MANY.system_names}
    return "system,doc_id,annotator,score,aspect\n" + "".join(
        f"{rename[s]},{d},{a},{r},{aspect}\n" for aspect in aspects for s, d, a, r in rows)


def test_judgements_naming_systems_by_their_column_suffix_match_the_corpus():
    assert MANY.system_names[:2] == ["candidate_M0", "candidate_M1"] and len(MANY.system_names) == 16
    at = imported(MANY, m_ratings())
    caption = next(plain(c.value) for c in at.caption if "human scores (ratings.csv)" in plain(c.value))
    assert caption.startswith("1,600 human scores (ratings.csv) for 16 system(s) × 100 document(s) of this corpus")
    assert not at.warning
    matched = frame_with(at, "judgement system", "corpus system")
    assert len(matched) == 16 and set(matched["matched by"]) == {"column suffix"}
    assert dict(zip(matched["judgement system"], matched["corpus system"]))["M7"] == "candidate_M7"
    # the page goes on to score the variants (16 systems × 100 documents)
    assert has_button(at, "meta_score")


def test_unmatched_names_are_said_under_every_aspect_and_can_be_mapped():
    names = {s: f"sys-{i:02d}" for i, s in enumerate(MANY.system_names)}
    at = imported(MANY, m_ratings(names))
    for aspect in ("coherence", "relevance"):
        at.selectbox(key="meta_aspect").set_value(aspect).run()
        warning = next(plain(w.value) for w in at.warning if "system(s) this corpus does not have" in plain(w.value))
        assert warning.startswith("The judgements name 16 system(s) this corpus does not have: sys-00, sys-01, ")
        assert "Their scores are left out (1,600 under this aspect)" in warning
        assert "This corpus's systems are: candidate_M0, candidate_M1, candidate_M2" in warning
        assert "candidate_M15" in warning
    assert not has_button(at, "meta_score")  # nothing to correlate yet
    # Map two of them: the page now has human scores for two systems and goes on.
    at.selectbox(key=f"meta_system_{MANY.fingerprint()}_sys-00").set_value("candidate_M0").run()
    at.selectbox(key=f"meta_system_{MANY.fingerprint()}_sys-05").set_value("candidate_M5").run()
    assert not at.exception, at.exception
    caption = next(plain(c.value) for c in at.caption if "human scores (ratings.csv)" in plain(c.value))
    assert caption.startswith("200 human scores (ratings.csv) for 2 system(s) × 100 document(s)")
    warning = next(plain(w.value) for w in at.warning if "system(s) this corpus does not have" in plain(w.value))
    assert warning.startswith("The judgements name 14 system(s) this corpus does not have: sys-01, sys-02, ")
    matched = frame_with(at, "judgement system", "corpus system")
    assert matched.set_index("judgement system").loc["sys-05", "matched by"] == "chosen"
    assert has_button(at, "meta_score")
    # One corpus system for two judgement systems is refused, with both named.
    at.selectbox(key=f"meta_system_{MANY.fingerprint()}_sys-01").set_value("candidate_M0").run()
    assert any("sys-00 and sys-01 are both matched to the corpus system candidate_M0" in plain(e.value)
               for e in at.error)
