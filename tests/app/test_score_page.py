"""The Score page in Streamlit's AppTest: renders, shows rouge_core's numbers, reacts to
settings and reports bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import rouge_core as rc
from tests.app.sidebar_widgets import widget
from lens_app import examples, sidebar, state
from lens_app.markup import plain
from rouge_core.viz import highlight

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def app_test() -> AppTest:
    """An AppTest of the whole app: every run goes through app.py (the router and the shared
    sidebar), as a browser rerun does.

    This needs no top-level `pages/` beside app.py: with one, Streamlit (and AppTest, which
    decides afresh on every run) ran the finished page's script alone on reruns, skipping
    app.py; see lens_app/navigation.py.
    """
    return AppTest.from_file(APP, default_timeout=90)


def fresh_app() -> AppTest:
    at = app_test()
    at.run()
    assert not at.exception, at.exception
    return at


def scores(at: AppTest):
    frame = at.dataframe[0].value  # the scores table comes first on the page
    assert list(frame.columns[:4]) == ["method", "P", "R", "F"]
    return frame


def settings_of(at: AppTest):
    """The Settings the sidebar stored on the last run."""
    return at.session_state[state.SETTINGS_KEY]


def tables_with(at: AppTest, column: str) -> list:
    """The dataframes on the page that have `column`."""
    return [df.value for df in at.dataframe if column in df.value.columns]


def expected_scores(candidate: str, references: list[str], at: AppTest) -> rc.Result:
    options = settings_of(at).options()
    methods = settings_of(at).methods()
    return rc.score(candidate, references, methods, options, cost_limit=rc.UNBOUNDED)


def assert_table_matches(at: AppTest, candidate: str, references: list[str]) -> None:
    result = expected_scores(candidate, references, at)
    frame = scores(at)
    assert len(frame) == len(result.methods)
    for (_, row), method in zip(frame.iterrows(), result):
        assert row["P"] == pytest.approx(method.precision)
        assert row["R"] == pytest.approx(method.recall)
        assert row["F"] == pytest.approx(method.fmeasure)
        assert row["signature"] == method.signature


def set_texts(at: AppTest, candidate: str, references: list[str]) -> AppTest:
    at.text_area(key=state.candidate_input_key(at.session_state)).input(candidate)
    for i, ref in enumerate(references):
        at.text_area(key=state.reference_input_key(i, at.session_state)).input(ref)
    return at.run()


def test_first_visit_shows_an_example_and_its_scores():
    at = fresh_app()
    example = examples.DEFAULT_EXAMPLE
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == example.candidate
    assert_table_matches(at, example.candidate, list(example.references))
    assert "ROUGE Lens" in at.title[0].value
    assert len(at.get("vega_lite_chart")) == 1  # P/R/F bars; sweeps and profiles wait until opened
    headline = [m.label for m in at.metric]
    assert headline == ["ROUGE-1 F", "ROUGE-2 F", "ROUGE-L F", "ROUGE-Lsum F"]


def test_the_headline_keeps_rouge_l_and_lsum_whatever_n_is():
    at = fresh_app()
    widget(at, "max_n").set_value(4).run()
    assert [m.label for m in at.metric] == ["ROUGE-1 F", "ROUGE-2 F", "ROUGE-L F", "ROUGE-Lsum F"]
    example = examples.DEFAULT_EXAMPLE
    expected = rc.score(example.candidate, list(example.references), ["rougeLsum"], settings_of(at).options())
    assert at.metric[3].value == f"{expected['rougeLsum'].fmeasure:.4f}"


def test_only_the_open_evidence_tab_is_computed():
    at = fresh_app()
    assert not tables_with(at, "gram") and not tables_with(at, "length k")  # skip-bigram and W-run tables
    at.session_state["evidence_tab"] = "Skip-bigrams (ROUGE-S, SU)"
    at.run()
    assert not at.exception
    [table] = tables_with(at, "gram")
    example = examples.DEFAULT_EXAMPLE
    options = settings_of(at).options()
    shown = at.selectbox(key="evidence_reference_of_2").value  # the winning reference by default
    want = rc.score(example.candidate, [example.references[shown]], ["rougeS4"], options)["rougeS4"].per_reference[0]
    assert table["matched"].sum() == want.stats.hits
    assert not tables_with(at, "length k")


def test_sweeps_and_profiles_are_computed_when_opened():
    at = fresh_app()
    at.session_state["sweeps_open"] = True
    at.session_state["profiles_open"] = True
    at.run()
    assert not at.exception
    assert len(at.get("vega_lite_chart")) == 3
    [profiles] = tables_with(at, "profile")
    example = examples.DEFAULT_EXAMPLE
    want = rc.score(example.candidate, list(example.references), ["rouge1"], "rouge-1.5.5")["rouge1"].fmeasure
    got = profiles[(profiles["profile"] == "rouge-1.5.5") & (profiles["method"] == "rouge1")]["fmeasure"].item()
    assert got == want


@pytest.mark.parametrize("example", examples.EXAMPLES, ids=lambda e: e.key)
def test_each_example_loads_with_one_click(example):
    at = fresh_app()
    at.button(key=f"example_{example.key}").click().run()
    assert not at.exception, at.exception
    assert at.session_state[state.CANDIDATE_KEY] == example.candidate
    assert at.session_state[state.REFERENCES_KEY] == list(example.references)
    assert at.text_area(key=state.reference_input_key(len(example.references) - 1, at.session_state)).value == example.references[-1]
    assert_table_matches(at, example.candidate, list(example.references))


def test_user_input_is_scored():
    at = fresh_app()
    at.button(key="example_reval-cat").click().run()
    set_texts(at, "police killed the gunman", ["police kill the gunman"])
    assert not at.exception
    assert_table_matches(at, "police killed the gunman", ["police kill the gunman"])
    rouge1 = scores(at).iloc[0]
    assert rouge1["F"] == pytest.approx(0.75)


def test_changing_a_setting_updates_scores_and_keeps_texts():
    at = fresh_app()
    at.button(key="example_reval-cat").click().run()
    set_texts(at, "Police killed the gunman.", ["the police kill a gunman"])
    before = scores(at)["F"].tolist()
    widget(at, "stemmer").select("porter").run()
    assert not at.exception
    assert settings_of(at).options().stemmer == "porter"
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == "Police killed the gunman."
    assert_table_matches(at, "Police killed the gunman.", ["the police kill a gunman"])
    assert scores(at)["F"].tolist() != before


def test_choosing_a_profile_loads_its_settings():
    at = fresh_app()
    widget(at, "profile").select("rouge-1.5.5").run()
    options = settings_of(at).options()
    assert options == rc.profile("rouge-1.5.5")
    assert widget(at, "tokenizer").value == "rouge155"
    example = examples.DEFAULT_EXAMPLE
    assert_table_matches(at, example.candidate, list(example.references))
    assert scores(at).iloc[0]["F"] == pytest.approx(0.83333)  # -f A pools the references: 15/18


def test_method_parameters_change_the_methods():
    at = fresh_app()
    widget(at, "max_n").set_value(3)
    widget(at, "skip_distance").set_value(2)
    widget(at, "weight").set_value(1.5).run()
    assert not at.exception
    assert settings_of(at).methods() == ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW-1.5", "rougeS2", "rougeSU2"]
    widget(at, "skip_unlimited").check().run()
    assert "rougeS*" in settings_of(at).methods()
    example = examples.DEFAULT_EXAMPLE
    assert_table_matches(at, example.candidate, list(example.references))


def test_beta_changes_the_f_measure():
    at = fresh_app()
    widget(at, "beta").set_value(2.0).run()
    assert settings_of(at).options().alpha == pytest.approx(0.2)
    example = examples.DEFAULT_EXAMPLE
    assert_table_matches(at, example.candidate, list(example.references))


def test_empty_candidate_shows_a_message_and_keeps_the_references():
    at = fresh_app()
    set_texts(at, "", ["the cat"])
    assert not at.exception
    assert any("There is no candidate text yet" in w.value for w in at.warning)
    assert at.text_area(key=state.reference_input_key(0, at.session_state)).value == "the cat"
    assert not any(df.value.columns[:4].tolist() == ["method", "P", "R", "F"] for df in at.dataframe)


def test_empty_reference_shows_a_message():
    at = fresh_app()
    set_texts(at, "the cat", ["", "  "])
    assert any("There is no reference text yet" in w.value for w in at.warning)
    set_texts(at, "the cat", ["the cat", ""])
    assert any("Reference 2 has no text yet" in w.value for w in at.warning)
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == "the cat"


def test_add_and_remove_references():
    at = fresh_app()
    at.button(key="example_reval-cat").click().run()
    at.button(key="add_reference").click().run()
    assert len(at.session_state[state.REFERENCES_KEY]) == 2
    at.text_area(key=state.reference_input_key(1, at.session_state)).input("a cat sat").run()
    assert_table_matches(at, "the cat is sitting on the mat", ["the cat sat on the mat", "a cat sat"])
    at.button(key="remove_reference_0").click().run()
    assert at.session_state[state.REFERENCES_KEY] == ["a cat sat"]
    assert_table_matches(at, "the cat is sitting on the mat", ["a cat sat"])


def test_per_reference_scores_one_click_away():
    at = fresh_app()
    at.toggle(key="show_per_reference").set_value(True).run()
    per_ref = at.dataframe[1].value
    assert {"reference", "hits", "chosen"} <= set(per_ref.columns)
    assert len(per_ref) == 2 * len(settings_of(at).methods())


def test_a_shared_link_opens_the_same_view():
    at = app_test()
    at.query_params["c"] = "the cat sat"
    at.query_params["r"] = ["the cat is", "a cat sat"]
    at.query_params["profile"] = "rouge-1.5.5"
    at.query_params["tok"] = "rouge155"
    at.query_params["multi"] = "pooled"
    at.query_params["n"] = "3"
    at.run()
    assert not at.exception, at.exception
    assert at.session_state[state.REFERENCES_KEY] == ["the cat is", "a cat sat"]
    assert settings_of(at).options().tokenizer == "rouge155"
    assert "rouge3" in settings_of(at).methods()
    assert_table_matches(at, "the cat sat", ["the cat is", "a cat sat"])


def test_too_long_for_a_link_offers_json():
    at = fresh_app()
    long_text = "word " * 2000
    set_texts(at, long_text, ["the cat"])
    assert not at.exception
    assert not any("too long for a link" in w.value for w in at.warning)  # nothing until a link is asked for
    at.button(key="create_share_link").click().run()
    assert any("too long for a link" in w.value for w in at.warning)
    assert "c" not in at.query_params and at.query_params["profile"] == "rouge-score"


def test_texts_reach_the_url_only_when_a_link_is_asked_for():
    at = fresh_app()
    set_texts(at, "the cat sat", ["the cat is"])
    assert not at.exception and "c" not in at.query_params and "r" not in at.query_params
    at.button(key="create_share_link").click().run()
    refs = at.session_state[state.REFERENCES_KEY]
    assert at.query_params["c"] == "the cat sat" and at.query_params["r"] == refs
    assert any("c=the+cat+sat" in c.value for c in at.code)  # the link itself, to copy
    set_texts(at, "the dog sat", ["the cat is"])  # the view changed: the old link goes
    assert "c" not in at.query_params and "r" not in at.query_params and "profile" not in at.query_params


def test_script_in_the_text_is_not_rendered_as_html():
    at = fresh_app()
    set_texts(at, "the <script>alert(1)</script> cat", ["the cat"])
    assert not at.exception
    html_blocks = [el.value for el in at.html]
    assert html_blocks and all("<script>" not in body for body in html_blocks)
    assert any("&lt;script&gt;" in body for body in html_blocks)


def _uploader(at: AppTest, name: str):
    """The uploader `name` (inputs.UPLOADERS) as drawn now: its key changes once its files are loaded."""
    return next(u for u in at.get("file_uploader") if u.key.rsplit("_", 1)[0] == name)


def _upload(at: AppTest, key: str, name: str, data: bytes, mime: str = "text/plain") -> AppTest:
    _uploader(at, key).set_value((name, data, mime))
    return at.run()


def test_uploaded_references_replace_the_ones_on_screen_or_join_them():
    at = fresh_app()
    at.button(key="example_reval-cat").click().run()
    _uploader(at, "upload_references").set_value([("r1.txt", b"a cat sat", "text/plain"), ("r2.txt", b"the mat", "text/plain")])
    at.run()
    assert not at.exception
    assert at.session_state[state.REFERENCES_KEY] == ["a cat sat", "the mat"]  # the example's reference is gone
    assert_table_matches(at, "the cat is sitting on the mat", ["a cat sat", "the mat"])
    at.radio(key="reference_upload_mode").set_value("add to the references").run()
    _upload(at, "upload_references", "r3.txt", b"on the mat")
    assert at.session_state[state.REFERENCES_KEY] == ["a cat sat", "the mat", "on the mat"]


def test_an_upload_error_goes_once_the_input_changes():
    at = fresh_app()
    _upload(at, "upload_candidate", "empty.txt", b"")
    assert any("empty" in plain(e.value) for e in at.error)
    at.text_area(key=state.candidate_input_key(at.session_state)).input("a new candidate").run()
    assert not at.error
    assert at.session_state[state.CANDIDATE_KEY] == "a new candidate"


def test_uploaded_texts_replace_the_candidate_and_add_references():
    at = fresh_app()
    at.button(key="example_reval-cat").click().run()
    _upload(at, "upload_candidate", "cand.txt", "the cat sat\non the mat".encode())
    assert not at.exception, at.exception
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == "the cat sat\non the mat"
    assert_table_matches(at, "the cat sat\non the mat", ["the cat sat on the mat"])


def test_json_upload_loads_the_pair():
    at = fresh_app()
    _upload(at, "upload_pairs", "pair.json", b'{"candidate": "a b c", "references": ["c b a", "a b"]}', "application/json")
    assert not at.exception, at.exception
    assert at.session_state[state.REFERENCES_KEY] == ["c b a", "a b"]
    assert_table_matches(at, "a b c", ["c b a", "a b"])


def test_a_loaded_upload_empties_its_uploader_and_says_what_it_loaded():
    """A loaded file leaves its uploader (a new, empty one is drawn: picking the next file then
    costs one run, not two) and a note names it; the next file loads the same way, and the
    note goes once the texts are edited."""
    at = fresh_app()
    _upload(at, "upload_pairs", "first.json", b'{"candidate": "a b c", "references": ["c b a", "a b"]}', "application/json")
    assert _uploader(at, "upload_pairs").value is None
    assert [plain(c.value) for c in at.caption if "Loaded" in c.value] == ["Loaded first.json: the candidate and 2 references."]
    assert _upload_section(at).proto.expanded  # the note is in sight
    _upload(at, "upload_pairs", "second.json", b'{"candidate": "x y", "references": ["y x"]}', "application/json")
    assert at.session_state[state.CANDIDATE_KEY] == "x y" and at.session_state[state.REFERENCES_KEY] == ["y x"]
    assert [plain(c.value) for c in at.caption if "Loaded" in c.value] == ["Loaded second.json: the candidate and 1 reference."]
    assert_table_matches(at, "x y", ["y x"])
    at.text_area(key=state.candidate_input_key(at.session_state)).input("x y z").run()
    assert not [c for c in at.caption if "Loaded" in c.value]
    assert not _upload_section(at).proto.expanded


def _upload_section(at: AppTest):
    return next(e for e in at.expander if e.label == "Upload files instead of typing")


def test_a_rejected_upload_stays_in_its_uploader_beside_its_message():
    at = fresh_app()
    _upload(at, "upload_candidate", "empty.txt", b"")
    assert _uploader(at, "upload_candidate").value is not None
    assert any("empty" in plain(e.value) for e in at.error)
    _upload(at, "upload_candidate", "good.txt", b"the cat sat")  # the next pick replaces it and loads
    assert not at.error and at.session_state[state.CANDIDATE_KEY] == "the cat sat"
    assert _uploader(at, "upload_candidate").value is None


@pytest.mark.parametrize(
    "key, name, data, message",
    [
        ("upload_candidate", "image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        ("upload_candidate", "latin.txt", "café".encode("latin-1"), "not UTF-8"),
        ("upload_candidate", "big.txt", b"word " * 250_000, "limit"),
        ("upload_candidate", "empty.txt", b"  \n", "empty"),
        ("upload_references", "empty.txt", b"", "empty"),
        ("upload_pairs", "broken.jsonl", b'{"candidate": "a", "references": ["b"]}\n{oops', "line 2 is not valid JSON"),
    ],
)
def test_bad_uploads_show_a_message_and_keep_the_texts(key, name, data, message):
    at = fresh_app()
    before = at.session_state[state.CANDIDATE_KEY]
    _upload(at, key, name, data)
    assert not at.exception, at.exception
    assert any(message in plain(e.value) for e in at.error), [e.value for e in at.error]
    assert at.text_area(key=state.candidate_input_key(at.session_state)).value == before


def test_link_values_are_kept_when_valid_and_named_when_not():
    at = app_test()
    at.query_params["n"] = "12"
    at.query_params["d"] = "999999"
    at.query_params["w"] = "1000"
    at.query_params["c"] = "the cat sat on the mat"
    at.query_params["r"] = "the cat is on the mat"
    at.run()
    assert not at.exception, at.exception
    assert widget(at, "max_n").value == 12 and "rouge12" in settings_of(at).methods()
    assert widget(at, "skip_distance").value == 999999 and "rougeS999999" in settings_of(at).methods()
    assert widget(at, "weight").value == rc.WLCS_WEIGHT.default
    warnings = [plain(w.value) for w in at.sidebar.warning]
    assert any("w='1000'" in w and "from 1 to 5" in w for w in warnings), warnings
    assert_table_matches(at, "the cat sat on the mat", ["the cat is on the mat"])


def _long_text(tokens: int, seed: int) -> str:
    import random

    rng = random.Random(seed)
    words = [f"w{i}" for i in range(3000)]
    lines = [" ".join(rng.choice(words) for _ in range(25)) for _ in range(tokens // 25)]
    return "\n".join(lines)


def test_a_long_text_scores_with_default_settings_and_unlimited_asks_first():
    at = fresh_app()
    # 9,000 tokens a side: over the 3,160 that broke the sweeps, and rougeS* above the bound
    # (6,000 tokens now measure 1.6 s and 333 MB without evidence, inside it: computed; 9,000
    # about 2.25 times that)
    candidate, reference = _long_text(9000, 1), _long_text(9000, 2)
    set_texts(at, candidate, [reference])
    at.button(key="remove_reference_1").click().run()
    assert not at.exception, at.exception
    assert_table_matches(at, candidate, [reference])
    at.session_state["sweeps_open"] = True
    at.session_state["sweep_parameter"] = "skip"
    at.run()
    assert not at.exception, at.exception

    widget(at, "skip_unlimited").check().run()
    assert not at.exception, at.exception
    asked = [plain(w.value) for w in at.warning if "is not computed" in plain(w.value)]
    assert any(a.startswith("**rougeS*** is not computed: it would take about") for a in asked), asked
    assert "rougeS*" not in list(scores(at)["method"].map(str)) and len(scores(at)) == len(settings_of(at).methods()) - 2
    assert any(plain(c.value).startswith("Not computed for skip distance (S, SU) ∞: rougeS")
               for c in at.caption)  # the sweep's unaffordable point
    at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("bounded_"))).click().run()
    assert not at.exception
    assert settings_of(at).distance == 4 and "rougeS4" in settings_of(at).methods()
    assert_table_matches(at, candidate, [reference])


@pytest.mark.parametrize("tab, view", [("Matched n-grams (ROUGE-N)", "matched 1-grams"),
                                       ("LCS alignment (ROUGE-L, Lsum)", "LCS alignment"),
                                       ("Weighted runs (ROUGE-W)", "weighted runs")])
def test_long_texts_draw_their_first_part_and_offer_the_whole_view(tab, view):
    """Two 2,000-token texts drawn whole made 5,000-11,000 marked elements: 1-2 s in the browser."""
    at = fresh_app()
    candidate, reference = _long_text(2000, 5), _long_text(2000, 6)
    set_texts(at, candidate, [reference])
    at.button(key="remove_reference_1").click().run()
    at.session_state["evidence_tab"] = tab
    at.run()
    assert not at.exception, at.exception
    drawn = highlight.drawn_tokens(rc.tokenize(candidate))
    assert drawn == 1000  # 40 lines of 25 tokens
    notes = [h.proto.body for h in at.get("html") if "rl-left-out" in h.proto.body]
    assert len(notes) == 2  # the candidate and the reference
    assert f"the first 1,000 of {len(rc.tokenize(candidate)):,} tokens are drawn" in notes[0]
    [button] = [d.proto for d in at.get("download_button") if d.proto.label.startswith("Download the whole")]
    assert button.label == f"Download the whole {view} view (HTML)"
    assert "The candidate and the reference are drawn here up to about 1,000 tokens" in button.help
    assert_table_matches(at, candidate, [reference])


def _just_over_the_bound(method: str, options: rc.Options) -> tuple[str, str]:
    """Two texts whose `method` is just over the cost bound of the path that runs (the
    compiled kernels' bound admits longer texts than the pure path's)."""
    for tokens in range(1000, 20_001, 100):
        candidate, reference = _long_text(tokens, 3), _long_text(tokens, 4)
        estimate = rc.scorer.cost.estimate(method, rc.tokenize(candidate), [rc.tokenize(reference)], options,
                                           evidence=False)
        if not rc.DEFAULT_COST_LIMIT.allows(estimate):
            return candidate, reference
    raise AssertionError(f"{method} stays within the bound up to 20,000 tokens")


def test_compute_anyway_computes_the_unlimited_distance_for_these_texts_only():
    at = fresh_app()
    candidate, reference = _just_over_the_bound("rougeS*", settings_of(at).options())
    set_texts(at, candidate, [reference])
    at.button(key="remove_reference_1").click().run()
    widget(at, "skip_unlimited").check().run()

    def asked() -> list[str]:
        return [plain(w.value).split(" is not")[0][2:-2] for w in at.warning if "is not computed" in plain(w.value)]

    waiting = asked()
    assert waiting and set(waiting) <= {"rougeS*", "rougeSU*"}
    at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("anyway_"))).click().run()
    assert not at.exception, at.exception
    approved = waiting[0]
    row = scores(at).set_index("signature").filter(like=f"{approved}|", axis=0).iloc[0]
    want = rc.score(candidate, [reference], [approved], settings_of(at).options(), cost_limit=rc.UNBOUNDED)[approved]
    assert (row["P"], row["R"], row["F"]) == (want.precision, want.recall, want.fmeasure)
    assert asked() == waiting[1:]
    at.text_area(key=state.candidate_input_key(at.session_state)).input(candidate + " more").run()  # other texts: ask again
    assert asked() == waiting
