"""The native layer's seams: what Python and C share is defined once (rouge_core.kernels.kernel_spec and
the generated rouge_core/kernels/spec.h) and a build made from anything else is not used; the
kernels are plain C and run the one F-measure rule, translated from Python; documents shared by
threads that run without the GIL give the sequential numbers; the stub lists the extension; the
binding is built for the stable ABI; and the package still installs without a compiler.
The numbers themselves are compared with the pure path in tests/core/test_native.py."""

from __future__ import annotations

import ast
import math
import re
import subprocess
import sys
import sysconfig
import threading
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rouge_core
from rouge_core.kernels import kernel_spec, native
from rouge_core.scorer import rules155
from rouge_core import stats
from rouge_core.families.methods import FAMILIES, UNIGRAM_FORMS, parse_method
from rouge_core.scorer.scoring import prepare, score_documents, score_from_stats

ROOT = Path(__file__).resolve().parents[2]
KERNELS_DIR = ROOT / "rouge_core" / "kernels"
needs_kernels = pytest.mark.skipif(not native.active(), reason=f"compiled kernels not in use: {native.describe()}")


# --- one definition of what both sides share ----------------------------------------------------

def test_the_generated_header_is_current():
    assert kernel_spec.HEADER.read_text() == kernel_spec.header(), "run: python -m rouge_core.kernels.kernel_spec"


def test_the_header_has_every_constant_once_with_its_python_value():
    text = kernel_spec.HEADER.read_text()
    assert f"#define SPEC_W_ROUNDING {stats.W_ROUNDING!r}" in text
    assert '#define SPEC_START_TOKEN "<s>"' in text
    for name, code in kernel_spec.KERNELS.items():
        assert len(re.findall(rf"^\s*K_{name} = {code},$", text, re.M)) == 1
    assert "STATS_REF_BASE = 4," in text and "METHOD_SCORE_SIGNATURE = 6," in text


@needs_kernels
def test_the_build_was_compiled_from_the_spec():
    assert native.KERNELS.SPEC == kernel_spec.constants()
    assert native.KERNELS.RECORD_FIELDS == tuple(kernel_spec.record_fields(kind) for kind in kernel_spec.RECORD_KINDS)


@needs_kernels
def test_a_build_of_another_spec_is_not_used(monkeypatch):
    changed = dict(kernel_spec.constants(), W_ROUNDING=1e-12)
    monkeypatch.setattr(kernel_spec, "constants", lambda: changed)
    kernels, why = native._load()
    assert kernels is None and "W_ROUNDING" in why and "rebuild" in why


@needs_kernels
def test_a_record_class_with_other_fields_turns_the_kernels_off(monkeypatch):
    monkeypatch.setattr(native, "KERNELS", native.KERNELS)
    monkeypatch.setattr(native, "WHY_PURE", native.WHY_PURE)
    kind = kernel_spec.record_kind(stats.Score)
    with pytest.raises(ValueError, match="rebuild"):
        native.KERNELS.configure_record(kind, stats.Score, ("precision", "recall"))
    monkeypatch.setattr(kernel_spec, "record_fields", lambda kind: ("precision", "recall", "f"))
    native.register_records(stats.Score)
    assert not native.active() and "record classes" in native.describe()
    assert rouge_core.score("a b", ["a"], ["rouge1"])["rouge1"].fmeasure == 2 / 3  # the pure path computes


def test_the_methods_plan_the_specs_kernel_codes():
    options = rouge_core.profile("rouge-1.5.5")
    codes = {FAMILIES[parse_method(name).family].native_plan(parse_method(name), options)[0]
             for name in ["rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"]}
    assert codes == set(kernel_spec.KERNELS.values()) - {kernel_spec.KERNEL_WLCS_PAPER}
    assert UNIGRAM_FORMS is kernel_spec.UNIGRAM_FORMS


def test_the_kernels_are_plain_c():
    sources = sorted(KERNELS_DIR.glob("*.[ch]"))
    assert {p.name for p in sources} >= {"common.h", "spec.h", "tokens.c", "lcs.c", "grams.c", "wlcs.c", "pair.c",
                                         "batch.c"}
    for path in sources:
        text = path.read_text()
        assert not re.search(r"#\s*include\s*[<\"]Python\.h", text) and "PyObject" not in text, path.name


# --- one F-measure rule -------------------------------------------------------------------------

def test_one_f_measure_rule_serves_every_tool():
    """ROUGE-1.5.5's P·R / ((1−α)·P + α·R) is rouge-score's 2·P·R / (P + R) to the bit at α = 0.5,
    so one rule serves both (rules155 uses it; the kernels are handed it)."""
    import random

    assert rules155.f_measure is stats.f_measure is rouge_core.f_measure
    rng = random.Random(5)
    for _ in range(20000):
        p, r = rng.randrange(0, 5000) / rng.randrange(1, 5000), rng.randrange(0, 5000) / rng.randrange(1, 5000)
        assert stats.f_measure(p, r, 0.5) == (2 * p * r / (p + r) if p + r > 0 else 0.0)
    assert math.isnan(stats.f_measure(math.nan, 0.5)) and stats.f_measure(0.0, 0.0, 0.2) == 0.0


@needs_kernels
@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(st.floats(0, 1), st.just(math.nan), st.floats(allow_nan=True)),
       st.one_of(st.floats(0, 1), st.just(math.nan), st.floats(allow_nan=True)),
       st.one_of(st.sampled_from([0.0, 0.2, 0.5, 1 / 3, 1.0]), st.floats(0, 1)))
def test_the_kernels_run_the_python_f_measure(p, r, alpha):
    """The kernels' F is rouge_core.stats.f_measure translated into C (kernel_spec.RULES): the
    same bits for every input, NaN included."""
    assert repr(native.KERNELS.f_measure(p, r, alpha)) == repr(stats.f_measure(p, r, alpha))


def test_the_f_measure_is_written_once():
    """Only the generated header holds F in C; it is stats.f_measure's own operations."""
    c = kernel_spec.c_function(stats.f_measure, "spec_f_measure")
    assert c in kernel_spec.HEADER.read_text()
    assert "(((1.0 - alpha) * precision) + (alpha * recall))" in c and "return NAN;" in c
    sources = [ROOT / "rouge_core" / "_native.c", *KERNELS_DIR.glob("*.[ch]")]
    assert [p.name for p in sources if "denominator" in p.read_text() or "2 * p" in p.read_text()] == ["spec.h"]


def test_a_rule_the_kernels_cannot_run_as_written_is_refused():
    def with_a_call(precision, recall, alpha=0.5):
        return max(precision, recall)

    def with_a_loop(precision, recall, alpha=0.5):
        for _ in range(2):
            precision = precision * recall
        return precision

    for rule in (with_a_call, with_a_loop):
        with pytest.raises(ValueError, match="float arithmetic only"):
            kernel_spec.c_function(rule, "spec_rule")


@needs_kernels
def test_a_build_with_another_f_measure_is_not_used(monkeypatch):
    def another_rule(precision, recall, alpha=0.5):
        return precision * recall

    monkeypatch.setattr(stats, "f_measure", another_rule)
    kernels, why = native._load()
    assert kernels is None and "RULES" in why


# --- threads without the GIL -------------------------------------------------------------------

def long_text(seed: int, words: int) -> str:
    import random

    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(60)]
    lines = []
    while words > 0:
        size = min(words, rng.randint(8, 30))
        lines.append(" ".join(rng.choice(vocabulary) for _ in range(size)))
        words -= size
    return "\n".join(lines)


@needs_kernels
def test_threads_scoring_shared_documents_without_the_gil_give_the_sequential_numbers():
    """Calls this long release the GIL: several threads build the shared candidate's bit masks
    (and their mirrored and per-column forms, for evidence) at once; each gets the numbers of a
    call made alone."""
    opts = rouge_core.profile("rouge-score")
    methods = ["rougeL", "rougeLsum", "rougeW-1.2", "rouge2", "rougeSU4"]
    cand_text, refs_text = long_text(1, 3000), [long_text(k, 2500) for k in (2, 3, 4)]

    def run(cand, refs, evidence):
        result = score_documents(cand, refs, methods, opts, evidence=evidence, cost_limit=rouge_core.UNBOUNDED)
        return {n: (repr(m.score), [repr(r.stats) for r in m.per_reference],
                    [r.evidence for r in m.per_reference]) for n, m in result.methods.items()}

    def docs():
        return prepare(cand_text, opts), tuple(prepare(r, opts) for r in refs_text)

    alone = {evidence: run(*docs(), evidence) for evidence in (False, True)}
    shared = docs()
    got, errors = [], []

    def worker(evidence):
        try:
            got.append((evidence, run(*shared, evidence)))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k % 2 == 1,)) for k in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(got) == 6
    for evidence, result in got:
        assert result == alone[evidence]


@needs_kernels
def test_a_kernel_call_made_from_a_score_callback_gets_working_memory_of_its_own():
    opts = rouge_core.profile("rouge-score")
    cand, ref = prepare("the cat sat on the mat", opts), prepare("the cat is on the mat", opts)
    plans = native.plans(((kernel_spec.KERNEL_UNION_LCS, 0, 0, 0.0, parse_method("rougeLsum"), "rougeLsum", "sig"),))
    c, r = native.pair(cand, ref)
    inner = []

    def score_fn(s):
        inner.append(native.score_pair(plans, r, (c,), 0.5, False, None, 2**62))
        return score_from_stats(s, opts)

    outer = native.score_pair(plans, c, (r,), 0.5, False, score_fn, 2**62)
    plain = native.score_pair(plans, c, (r,), 0.5, False, None, 2**62)
    assert outer["rougeLsum"] == plain["rougeLsum"] and outer["rougeLsum"].stats.hits == 5
    assert inner[0]["rougeLsum"].stats.hits == 5


# --- the extension's interface and build -------------------------------------------------------

@needs_kernels
def test_the_stub_lists_what_the_extension_has():
    tree = ast.parse((ROOT / "rouge_core" / "_native.pyi").read_text())
    stubbed = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stubbed[node.name] = node
        elif isinstance(node, ast.AnnAssign):
            stubbed[node.target.id] = node
    module = native.KERNELS
    public = {name for name in dir(module) if not name.startswith("_")}
    assert public == set(stubbed) - {"Plan", "MethodPlan", "ScoreFn"}
    for name, node in stubbed.items():
        if isinstance(node, ast.ClassDef):
            members = {item.name if isinstance(item, ast.FunctionDef) else item.target.id
                       for item in node.body if isinstance(item, (ast.FunctionDef, ast.AnnAssign))}
            real = {m for m in dir(getattr(module, name)) if not m.startswith("_")}
            assert real == {m for m in members if not m.startswith("_")}, name


@needs_kernels
def test_the_binding_is_built_for_the_stable_abi():
    suffix = Path(native.KERNELS.__file__).name
    if sysconfig.get_config_var("Py_GIL_DISABLED"):  # a free-threaded CPython has no stable ABI
        pytest.skip("free-threaded CPython: a build for this version")
    assert ".abi3." in suffix, suffix


def test_the_package_installs_without_a_compiler(tmp_path):
    """CC=false: the extension fails to build and the wheel carries the pure package."""
    import shutil

    source = tmp_path / "source"
    shutil.copytree(ROOT / "rouge_core", source / "rouge_core", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "NOTICE"):
        shutil.copy(ROOT / name, source / name)
    env = {"PATH": "/usr/bin:/bin", "CC": "false", "HOME": str(tmp_path), "PIP_NO_CACHE_DIR": "1"}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                           "-w", str(tmp_path), str(source)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = next(tmp_path.glob("rouge_lens-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "rouge_core/kernels/native.py" in names and "rouge_core/_native.pyi" in names
    assert not [n for n in names if "_native" in n and n.endswith((".so", ".pyd"))]


@needs_kernels
def test_compiled_evidence_read_on_the_pure_path_is_built_by_the_kernels_that_deferred_it():
    result = rouge_core.score("the cat sat on the mat", ["the cat is on the mat"], ["rouge2", "rougeLsum", "rougeSU4"],
                              "rouge-score", evidence=True)
    with native.pure():
        pure = rouge_core.score("the cat sat on the mat", ["the cat is on the mat"], ["rouge2", "rougeLsum", "rougeSU4"],
                                "rouge-score", evidence=True)
        read = [m.per_reference[0].evidence for m in result.methods.values()]  # first read here
        assert read == [m.per_reference[0].evidence for m in pure.methods.values()]


@pytest.mark.skipif(not native.active(), reason="the compiled tokenizer")
@pytest.mark.parametrize("text,most_tokens,most_types,expected", [
    ("a b c d", 2, 100, (1, 4)),  # the third token starts at byte 4
    ("a a b c", 100, 2, (2, 6)),  # the third word type, "c", at byte 6
    ("Ab\n\u00e9 cd ef", 2, 100, (1, 9)),  # UTF-8 bytes: "é" takes two
    ("a b c d", 4, 4, None), ("", 0, 0, None),
])
def test_the_compiled_tokenizer_stops_past_its_room(text, most_tokens, most_types, expected):
    # what a call's cost bound leaves a long text (rouge_core.scorer.cost.read_compiled):
    # past it the tokenizer stops and says where, so finding out costs no more than the room
    from rouge_core.scorer.inputs import _compiled_tokenizers

    for profile in ("rouge-score", "rouge-1.5.5"):
        make = _compiled_tokenizers(rouge_core.profile(profile))[0]
        got = make(text, most_tokens, most_types)
        if expected is None:
            assert got.term_tuple == make(text).term_tuple
        else:
            assert got == expected
