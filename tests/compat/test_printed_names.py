"""Names the tools print mean what the tool printed (issue 27, item 2).

Under the rouge-1.5.5 profile every name ROUGE-1.5.5 prints (ROUGE-1 … ROUGE-N, ROUGE-L,
ROUGE-W-<w> as typed, ROUGE-S<d>, ROUGE-SU<d>, ROUGE-S*, ROUGE-SU*) scores the method that
produced that line: checked against the Perl's own output on the official sample data (13
runs, 1000 bootstrap resamples each) and on the 1,492 generated conformance cases. Under
the other profiles a printed name means what that tool means by it, or is refused with a
message saying which name to use. Results are keyed by rouge_core's name of the method
(`rougeLsum` for ROUGE-L under rouge-1.5.5); `result["ROUGE-L"]` finds it under the result's
profile.
"""

from __future__ import annotations

import json
import re
import shlex

import pytest

import rouge_core
from rouge_core.corpora.batch import score_batch
from rouge_core.cli import main as rouge_lens
from rouge_core.compat import matlab, reval
from rouge_core.compat.rouge155 import bootstrap, evaluate
from rouge_core.compat.rouge155.api import config_documents
from rouge_core.compat.rouge155.config import read_list_config, read_xml_config
from rouge_core.compat.rouge155.flags import parse_command_line
from rouge_core.compat.rouge155.scoring import metrics_for
from rouge_core.corpora.corpus import compare_systems, rank_systems
from rouge_core.families.methods import FAMILIES, parse_method
from rouge_core.scorer.rules155 import report_methods
from tests.compat.test_rouge155_sample_output import RUNS as OFFICIAL_RUNS
from tests.conformance import CONFORMANCE_DIR, load_cases

# The issue's example: the Perl reports ROUGE-L F = 1.0 (each reference sentence's words are
# all in order in some candidate sentence); one LCS over the whole texts gives 5/12.
CANDIDATE = "the cat sat on the mat\na dog ran in the park"
REFERENCE = "a dog sat in the park\nthe cat ran on the mat"

OFFICIAL = CONFORMANCE_DIR / "rouge155-official"
# (expected output, flags, config, system id): the official runs of the text metrics
TEXT_RUNS = [run for run in OFFICIAL_RUNS if "-3" not in run[1]]
_LINE = re.compile(r"(\S+) (\S+) Average_([RPF]): (\d\.\d{5}) \(95%-conf\.int\. (\d\.\d{5}) - (\d\.\d{5})\)")


def printed_lines(output: str) -> dict[tuple[str, str], dict[str, tuple[str, str, str]]]:
    """{(peer, printed name): {R/P/F: (average, low, high) as printed}} of a report."""
    out: dict = {}
    for line in output.splitlines():
        m = _LINE.fullmatch(line)
        if m:
            out.setdefault((m[1], m[2]), {})[m[3]] = (m[4], m[5], m[6])
    return out


def as_text(sentences) -> str:
    # the script's sentences, one per line (as the drop-in hands them to the scorer)
    return "\n".join(s.decode("latin-1").replace("\n", " ") for s in sentences)


@pytest.fixture
def sample_test_dir(monkeypatch):
    monkeypatch.chdir(OFFICIAL / "sample-test")  # the configs' paths are relative to it


@pytest.mark.parametrize("expected, flags, config, system_id", TEXT_RUNS, ids=[r[0] for r in TEXT_RUNS])
def test_each_printed_name_scores_its_line_of_the_official_output(sample_test_dir, expected, flags, config,
                                                                   system_id):
    """score_corpus by the printed name, then the script's bootstrap over the per-document
    values, gives the printed averages and intervals of that line, for every name and peer."""
    parsed, _ = parse_command_line(["-e", "../data", *shlex.split(flags)])
    if parsed.list_format:
        cfg, peers = read_list_config(config, parsed.list_format, system_id), [system_id]
    else:
        cfg = read_xml_config(config)
        peers = sorted(cfg.peer_ids) if parsed.all_systems else [system_id]
    documents = config_documents(cfg, peers, warn=lambda message: None)
    expected_lines = printed_lines((OFFICIAL / "sample-output" / expected).read_text())
    names = list(dict.fromkeys(name for _, name in expected_lines))
    assert names[:5] == ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L"]
    checked = 0
    for peer in peers:
        docs = sorted(documents[peer], key=lambda d: d.eval_id)  # the script averages in string order
        candidates = [as_text(d.peer.sentences) for d in docs]
        references = [[as_text(m.sentences) for m in d.models] for d in docs]
        result = rouge_core.score_corpus(candidates, references, names, parsed.options)
        for name in names:
            scores = [pair[result.method_key(name)].score for pair in result.pairs]
            triples = [(s.recall, s.precision, s.fmeasure) for s in scores]
            columns = bootstrap.resample_means(triples, parsed.resamples, False, parsed.options.alpha)
            intervals = {field: bootstrap.summarize(values, parsed.confidence) for field, values in zip("RPF", columns)}
            got = {field: (f"{i.value:.5f}", f"{i.low:.5f}", f"{i.high:.5f}") for field, i in intervals.items()}
            assert got == expected_lines[(peer, name)], (peer, name)
            checked += 1
    assert checked == len(expected_lines)


def test_the_official_outputs_print_these_names():
    assert len(TEXT_RUNS) == 13
    names = set()
    for expected, *_ in TEXT_RUNS:
        names |= {name for _, name in printed_lines((OFFICIAL / "sample-output" / expected).read_text())}
    assert names == {"ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*"}


def test_each_printed_name_of_the_generated_cases_scores_the_perls_numbers():
    """The 1,492 ROUGE-1.5.5 conformance cases (run with -r 1: the printed average is the
    document's value), scored by the printed names alone."""
    cases = [c for c in load_cases("generated.jsonl") if c["tool"] == "rouge155"]
    assert len(cases) == 1492
    problems = []
    for case in cases:
        options, _ = parse_command_line(shlex.split(case["args"]))
        names = list(case["expected"])
        result = rouge_core.score(case["candidate"], case["references"], names, options.options, evidence=False)
        for name, expected in case["expected"].items():
            s = result[name].score
            if (s.precision, s.recall, s.fmeasure) != (expected["p"], expected["r"], expected["f"]):
                problems.append(f"{case['id']} {name}: {expected} != {s}")
    assert not problems, f"{len(problems)} mismatches: {problems[:3]}"


def test_the_issue_example():
    result = rouge_core.score(CANDIDATE, [REFERENCE], ["ROUGE-L"], "rouge-1.5.5")
    assert list(result.methods) == ["rougeLsum"]  # keyed by rouge_core's name of the method
    assert result["ROUGE-L"] is result["rougeLsum"]
    assert (result["ROUGE-L"].score.precision, result["ROUGE-L"].score.recall, result["ROUGE-L"].score.fmeasure) == (
        1.0, 1.0, 1.0)
    assert result["ROUGE-L"].signature.startswith("rougeLsum|profile:rouge-1.5.5|")
    # rouge_core's own rougeL is still one LCS over the whole texts, under every profile
    assert rouge_core.score(CANDIDATE, [REFERENCE], ["rougeL"], "rouge-1.5.5")["rougeL"].score.fmeasure == 0.41667
    # and the Perl's own report (the drop-in) says the same
    report = evaluate(CANDIDATE, [REFERENCE], "-n 1")
    assert report.get("ROUGE-L").f.value == 1.0


@pytest.mark.parametrize("argv", [
    ["-n", "4", "-w", "1.2", "-2", "4", "-u"], ["-n", "2", "-w", "1.20", "-2", "04", "-U"],
    ["-n", "1", "-w", "2", "-2", "-1", "-U"], ["-x", "-w", "1.", "-2", "+3"], ["-w", "15e-1", "-2", "0", "-u"],
    ["-n", "12"],
])
def test_every_name_the_script_prints_parses_to_the_method_behind_it(argv):
    flags, _ = parse_command_line(argv)
    metrics = metrics_for(flags)
    assert metrics
    for metric in metrics:
        assert parse_method(metric.name, flags.options) == metric.method, metric.name
        assert parse_method(metric.name, "rouge-1.5.5") == metric.method
        if metric.method.rouge155_name is not None:
            assert parse_method(metric.method.rouge155_name, "rouge-1.5.5") == metric.method


def test_names_printed_as_typed():
    flags, _ = parse_command_line(["-w", "1.20", "-2", "04", "-U"])
    assert [m.name for m in metrics_for(flags)] == ["ROUGE-L", "ROUGE-W-1.20", "ROUGE-S04", "ROUGE-SU04"]
    assert [parse_method(m.name, "rouge-1.5.5").name for m in metrics_for(flags)] == [
        "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"]


def test_rouge155_name_is_the_scripts_own():
    assert parse_method("rougeLsum").rouge155_name == "ROUGE-L"
    assert parse_method("rougeL").rouge155_name is None  # the script has no whole-text LCS
    assert parse_method("rougeLsum-best").rouge155_name is None
    assert [m.rouge155_name for m in report_methods(2, weight=1.2, skip_distance=-1, skip_unigrams_and_plain=True)] == [
        "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S*", "ROUGE-SU*"]


@pytest.mark.parametrize("spelling", ["ROUGE-L", "rouge-l", "Rouge-L", "ROUGE_L", " ROUGE-L "])
def test_spellings_of_the_printed_rouge_l(spelling):
    assert parse_method(spelling, "rouge-1.5.5").name == "rougeLsum"
    assert parse_method(spelling, rouge_core.profile("rouge-1.5.5", stemmer="rouge155")).name == "rougeLsum"


PROFILE_NAMES = ["rouge-1.5.5", "rouge-score", "matlab", "reval", "multilingual"]


def test_rouge_cores_own_names_mean_the_same_under_every_profile():
    names = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeLsum-best", "rougeW-1.2", "rougeS4", "rougeS*",
             "rougeSU4", "rougeSU*"]
    names += [family.method(family.parameter.default if family.parameter else None).name
              for family in FAMILIES.values()]
    for name in names:
        expected = parse_method(name)
        for profile in [*PROFILE_NAMES, rouge_core.Options()]:
            assert parse_method(name, profile) == expected, (name, profile)


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_names_every_tool_reads_alike(profile):
    for printed, name in [("ROUGE-1", "rouge1"), ("ROUGE-4", "rouge4"), ("ROUGE-W-1.2", "rougeW-1.2"),
                          ("ROUGE-S4", "rougeS4"), ("ROUGE-SU4", "rougeSU4"), ("ROUGE-S*", "rougeS*"),
                          ("ROUGE-SU*", "rougeSU*"), ("ROUGE-Lsum-best", "rougeLsum-best")]:
        assert parse_method(printed, profile).name == name


def test_matlab_means_one_lcs_of_the_documents():
    cand, refs = "the cat sat on the mat\na dog ran", ["a dog sat in the park\nthe cat ran on the mat"]
    result = rouge_core.score(cand, refs, ["ROUGE-L"], "matlab")
    assert list(result.methods) == ["rougeL"]
    assert result["ROUGE-L"].score.recall == matlab.rouge_evaluation_score(
        cand, refs, rouge_method="longest-common-subsequences") == 5 / 12


def test_reval_means_its_rougel_and_its_rougelsum():
    cand = [["the", "cat", "is", "on", "the", "mat"], ["it", "is", "cute"]]
    ref = [["the", "dog", "is", "on", "the", "mat"], ["the", "animal", "is", "cute"], ["the", "pet", "sleeps", "well"]]
    cand_doc, ref_doc = rouge_core.pretokenized(cand), rouge_core.pretokenized(ref)
    result = rouge_core.score(cand_doc, [ref_doc], ["ROUGE-L", "ROUGE-Lsum"], "reval")
    assert list(result.methods) == ["rougeL", "rougeLsum-best"]
    lsum = result["ROUGE-Lsum"].score
    assert (lsum.precision, lsum.recall, lsum.fmeasure) == tuple(reval.rougelsum(cand, ref))
    assert (round(lsum.precision, 4), round(lsum.recall, 4), round(lsum.fmeasure, 4)) == (0.7778, 0.5, 0.6087)
    flat_c, flat_r = [t for s in cand for t in s], [t for s in ref for t in s]
    lcs = result["ROUGE-L"].score
    assert (lcs.precision, lcs.recall, lcs.fmeasure) == tuple(reval.rougel(flat_c, flat_r)) == (7 / 9, 7 / 14, 0.6086956521739131)


@pytest.mark.parametrize("profile", ["rouge-score", "multilingual"])
def test_rouge_score_has_no_rouge_l(profile):
    with pytest.raises(ValueError) as err:
        parse_method("ROUGE-L", profile)
    message = str(err.value)
    assert "'ROUGE-L' is not a name" in message and "rougeL (" in message and "rougeLsum (" in message
    with pytest.raises(ValueError, match="ask for rougeL"):  # (the multilingual profile may lack its extra here)
        rouge_core.score(CANDIDATE, [REFERENCE], ["rouge1", "ROUGE-L"], "rouge-score")
    assert parse_method("ROUGE-Lsum", profile).name == "rougeLsum"


@pytest.mark.parametrize("options", [None, rouge_core.Options(), rouge_core.profile("rouge-1.5.5", tokenizer="unicode")])
def test_without_a_tools_profile_rouge_l_is_refused(options):
    with pytest.raises(ValueError) as err:
        parse_method("ROUGE-L", options)
    message = str(err.value)
    assert "means a different method in each tool" in message and "ask for rougeL" in message
    assert "ROUGE-1.5.5: rougeLsum" in message


@pytest.mark.parametrize("name, mode", [("ROUGE-BE-HM", "HM"), ("ROUGE-BE-HMR1", "HMR1"), ("rougeBE-H", "H"),
                                        ("ROUGE-BE", "HM")])
def test_basic_element_names_point_to_the_be_scorer(name, mode):
    with pytest.raises(ValueError) as err:
        rouge_core.score("a b", ["a b"], [name], "rouge-1.5.5")
    message = str(err.value)
    assert "score_basic_elements" in message and f"rouge155 -3 {mode}" in message and "not text" in message


def test_corpus_front_doors_read_printed_names():
    cands = [CANDIDATE, "the cat sat\na dog ran"]
    refs = [[REFERENCE], ["a dog ran\nthe cat sat down"]]
    options = rouge_core.profile("rouge-1.5.5")
    corpus = rouge_core.score_corpus(cands, refs, ["ROUGE-1", "ROUGE-L"], options)
    assert corpus.methods == ("rouge1", "rougeLsum")
    # pair 2: "a dog ran" whole in a candidate sentence, "the cat sat" of "the cat sat down": R 6/7, P 6/6
    assert corpus.values("ROUGE-L") == corpus.values("rougeLsum") == [1.0, 0.92308]
    assert corpus.to_frame(texts=False).columns.tolist()[:4] == ["id", "rouge1_precision", "rouge1_recall",
                                                                 "rouge1_fmeasure"]
    batch = score_batch(cands, refs, ["ROUGE-L"], options)
    assert [pair["rougeLsum"].score.fmeasure for pair in batch] == [1.0, 0.92308]
    other = rouge_core.score_corpus(["the cat", "a dog"], refs, ["ROUGE-L"], options)
    comparison = compare_systems(corpus, other, "ROUGE-L", resamples=50)
    assert comparison.method == "rougeLsum"
    ranking = rank_systems({"a": corpus, "b": other}, "ROUGE-L", resamples=50)
    assert ranking.order[0] == "a"
    assert rouge_core.scorer.cost.estimate("ROUGE-L", 10, [10], options).method == "rougeLsum"
    with pytest.raises(ValueError, match="ask for rougeL"):
        rouge_core.score_corpus(cands, refs, ["ROUGE-L"], "rouge-score")


def test_command_line_reads_printed_names(tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"candidate": CANDIDATE, "references": [REFERENCE]}) + "\n", encoding="utf-8")
    assert rouge_lens(["--jsonl", str(pairs), "-p", "rouge-1.5.5", "-m", "ROUGE-L", "ROUGE-W-1.2", "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pairs"][0]["scores"]["rougeLsum"]["fmeasure"] == 1.0
    assert set(out["pairs"][0]["scores"]) == {"rougeLsum", "rougeW-1.2"}
    assert rouge_lens(["--jsonl", str(pairs), "-m", "ROUGE-L"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rouge-lens: error: --methods: 'ROUGE-L' is not a name rouge-score knows") and "rougeLsum" in err


def test_the_drop_in_report_finds_a_metric_by_any_of_its_names():
    report = evaluate(CANDIDATE, [REFERENCE], "-n 1 -w 1.20 -2 4 -u")
    assert [r.metric for r in report.results] == ["ROUGE-1", "ROUGE-L", "ROUGE-W-1.20", "ROUGE-SU4"]
    assert report.get("ROUGE-W-1.2") is report.get("ROUGE-W-1.20") is report.get("rougeW-1.2")
    assert report.get("rougeLsum") is report.get("ROUGE-L")
    with pytest.raises(KeyError, match="this run printed ROUGE-1, ROUGE-L, ROUGE-W-1.20, ROUGE-SU4"):
        report.get("rougeL")  # the script computes no whole-text LCS
