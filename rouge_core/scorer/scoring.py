"""Scoring one candidate against references: statistics per reference, then one small
layer that combines references (pooled, best by recall, best by F, max, mean)."""

from __future__ import annotations

import math
from functools import lru_cache, partial
from operator import attrgetter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..kernels import native
from . import rules155
from .cost import ANY_SIZE, UNBOUNDED, Budget, CostLimit, check_call, native_bound, text_call_bounds
from ..families.methods import Method, parse_method
from ..text.options import LABEL, SCORE, Options, fields_of, profile
from .signature import signature
from ..stats import F_MEASURE, FMeasureRule, Score, Stats, f_measure
from ..text.document import Document
# prepare, check_*: still rouge_core.scorer.scoring's names, as before rouge_core.scorer.inputs held them
from .inputs import TextLike, _compiled_tokenizers, check_tokens, check_unicode, prepare, prepare_pair  # noqa: F401
from ..text.tokenize import tokenize_with
from .. import optional

DEFAULT_METHODS = ("rouge1", "rouge2", "rougeL", "rougeLsum")

class EvidenceNotComputedError(ValueError):
    """Evidence read from a score computed without it (`evidence=False`, the default)."""


class _NoEvidence:
    """`ReferenceScore.evidence` of a score computed without evidence (`NO_EVIDENCE`, one object):
    false, printed as what it is, and any of its attributes read raises EvidenceNotComputedError
    naming `evidence=True`, instead of an AttributeError of None (or of a truthful-looking empty
    evidence). A method whose family has no evidence gives None even with `evidence=True`."""

    __slots__ = ()

    def __getattr__(self, name: str):
        if name.startswith("__"):  # copy, pickle and friends probing for hooks
            raise AttributeError(name)
        raise EvidenceNotComputedError(
            f"this score was computed without evidence, so it has no {name!r}: evidence is built only when asked "
            f"for; score the pair again with evidence=True (rouge_core.score(candidate, references, methods, "
            f"options, evidence=True)). evidence=False is the default, and corpora and batches never build it")

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NO_EVIDENCE"

    def __reduce__(self):  # pickles and copies as the one object
        return "NO_EVIDENCE"


NO_EVIDENCE = _NoEvidence()


# Result records are plain (not frozen) slotted dataclasses: a corpus creates millions of
# them, and a frozen dataclass's __init__ costs about three times as much. Treat them as
# read-only.
@dataclass(slots=True)
class ReferenceScore:
    """One method on one (candidate, reference) pair."""

    index: int
    stats: Stats
    score: Score
    evidence: object = NO_EVIDENCE  # NO_EVIDENCE unless scored with evidence=True (None: the method has none)


@dataclass(slots=True)
class MethodScore:
    """One method's final score, the per-reference scores behind it, and which reference won."""

    method: Method
    score: Score
    per_reference: tuple[ReferenceScore, ...]
    chosen: int | None  # the reference the multi-reference mode picked; None when all count
    reason: str  # why that reference (or how the references were combined)
    stats: Stats | None  # the statistics the score was computed from (None for max / mean)
    signature: str

    # Read for every type of every result in a loop over pairs: attrgetters, not Python functions.
    name = property(attrgetter("method.name"), doc="The method's name (e.g. 'rougeL').")
    precision = property(attrgetter("score.precision"), doc="The final score's precision.")
    recall = property(attrgetter("score.recall"), doc="The final score's recall.")
    fmeasure = property(attrgetter("score.fmeasure"), doc="The final score's F-measure.")


def above_one_note(method: str, score: Score) -> str | None:
    """Why `score` is above 1, or None when it is not. Only a named reference-tool quirk allows
    it (reval's unclipped rougeLsum-best); any other score above 1 would be a defect."""
    highest = max(score.precision, score.recall, score.fmeasure)
    if not highest > 1:
        return None
    return (f"{method}'s score of {highest:.4f} is above 1: with best_sentence_clip off (reval's rougeLsum-best, a "
            "named reval quirk) each candidate sentence adds its best reference sentence's LCS without clipping, "
            "so a reference sentence matched by several candidate sentences counts each time. The other "
            "profiles clip by token counts.")


@dataclass(slots=True)
class Result:
    candidate: Document
    references: tuple[Document, ...]
    options: Options
    methods: dict[str, MethodScore] = field(default_factory=dict)

    def __getitem__(self, name: str) -> MethodScore:
        try:
            return self.methods[name]
        except KeyError:
            return self.methods[parse_method(name, self.options).name]

    def __iter__(self):
        return iter(self.methods.values())

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {name: m.score.as_dict() for name, m in self.methods.items()}

    def above_one(self) -> dict[str, str]:
        """{method name: why} for every score above 1 (see `above_one_note`)."""
        return {name: note for name, m in self.methods.items() if (note := above_one_note(name, m.score))}

    def to_frame(self, per_reference: bool = False):
        """A pandas DataFrame: one row per method (or per method and reference)."""
        pd = optional.pandas("Result.to_frame()")

        rows = []
        for m in self.methods.values():
            if per_reference:
                for ref in m.per_reference:
                    rows.append(
                        {
                            "method": m.name,
                            "reference": ref.index + 1,
                            "precision": ref.score.precision,
                            "recall": ref.score.recall,
                            "fmeasure": ref.score.fmeasure,
                            "hits": ref.stats.hits,
                            "candidate_total": ref.stats.cand_total,
                            "reference_total": ref.stats.ref_total,
                            "chosen": m.chosen is None or m.chosen == ref.index,
                        }
                    )
            else:
                rows.append(
                    {
                        "method": m.name,
                        "precision": m.score.precision,
                        "recall": m.score.recall,
                        "fmeasure": m.score.fmeasure,
                        "reference": "all" if m.chosen is None else m.chosen + 1,
                        "why": m.reason,
                        "signature": m.signature,
                    }
                )
        return pd.DataFrame(rows)


_CANDIDATE_SLOT, _REFERENCES_SLOT = Result.__dict__["candidate"], Result.__dict__["references"]


class _TextResult(Result):
    """The Result of texts the compiled kernels scored without evidence (`score`'s fast path,
    `text_result`): its candidate and reference Documents are made when first read, by the
    kernels' function that scored the texts (rouge_core.kernels.native.documents_of_texts), so
    a loop over pairs that reads only the scores never makes them. Otherwise a Result: equal to
    the Result with the same fields (either way round), printed, copied and pickled as that
    Result (unpickled, it is one), `dataclasses.replace` and `fields` work as on a Result."""

    __slots__ = ("_texts",)  # (the kernels' scorer, the candidate text, the reference texts)

    def _documents(self) -> tuple:
        scorer, cand, refs = self._texts
        made = native.documents_of_texts(scorer, cand, refs)
        if made is None:  # not expected (the same texts were just taken): the ordinary tokenizers
            made = prepare_pair(cand, list(refs), self.options)
        _CANDIDATE_SLOT.__set__(self, made[0])
        _REFERENCES_SLOT.__set__(self, made[1])
        return made

    @property
    def candidate(self) -> Document:
        try:
            return _CANDIDATE_SLOT.__get__(self, _TextResult)
        except AttributeError:
            return self._documents()[0]

    @candidate.setter
    def candidate(self, doc: Document) -> None:  # Result.__init__ (dataclasses.replace)
        _CANDIDATE_SLOT.__set__(self, doc)

    @property
    def references(self) -> tuple[Document, ...]:
        try:
            return _REFERENCES_SLOT.__get__(self, _TextResult)
        except AttributeError:
            return self._documents()[1]

    @references.setter
    def references(self, docs: tuple[Document, ...]) -> None:
        _REFERENCES_SLOT.__set__(self, docs)

    def _fields(self) -> tuple:
        return (self.candidate, self.references, self.options, self.methods)

    def __eq__(self, other):
        if other.__class__ is not Result and other.__class__ is not _TextResult:
            return NotImplemented
        return self._fields() == (other.candidate, other.references, other.options, other.methods)

    __hash__ = None  # as Result's (a mutable dataclass)

    def __repr__(self) -> str:
        return repr(Result(*self._fields()))

    def __reduce__(self):
        return Result, self._fields()


ONLY_REFERENCE = "the only reference"  # why a single reference is the chosen one
_new_text_result = _TextResult.__new__

native.register_records(Stats, Score, ReferenceScore, MethodScore)  # the kernels build these records themselves
native.configure_scoring(ONLY_REFERENCE, NO_EVIDENCE)


def resolve_options(options: Options | str | None, overrides: dict) -> Options:
    if options is None:
        options = "rouge-score"
    if isinstance(options, str):
        return profile(options, **overrides)
    return options.replace(**overrides) if overrides else options


# A word in each script that needs a segmenter or tokenizer of an optional extra.
_EXTRA_PROBE = "a ก ລ ក မ 中 あ"


def missing_extra(options: Options) -> str | None:
    """Why `options` cannot tokenize on this machine (a package of an optional extra is not
    installed, e.g. the multilingual profile without pyonmttok), or None when it can."""
    from ..text.segment import MissingExtraError

    try:
        tokenize_with(_EXTRA_PROBE, *options.tokenize_key())
    except MissingExtraError as exc:
        return str(exc)
    return None


def score_from_stats(stats: Stats, options: Options, rule: FMeasureRule = F_MEASURE) -> Score:
    """The Score of `stats` under `options`, F by `rule` (the method family's `f_rule`)."""
    p, r = stats.precision(), stats.recall()
    if options.empty == "nan":  # MATLAB: a ratio over an empty side is undefined
        if stats.cand_total <= 0:
            p = math.nan
        if stats.ref_total <= 0:
            r = math.nan
    digits = options.round_pr
    if rule is F_MEASURE:  # every built-in family: F at the options' α
        if digits is None:
            return Score(p, r, f_measure(p, r, options.alpha))
        return rules155.printed_score(p, r, options.alpha, digits)  # ROUGE-1.5.5: F from the printed P and R
    if digits is None:
        return Score(p, r, rule.fmeasure(p, r, options))
    p, r = rules155.printed(p, digits), rules155.printed(r, digits)
    return Score(p, r, rules155.printed(rule.fmeasure(p, r, options), digits))


def combine_references(method: Method, refs: Sequence[ReferenceScore], options: Options, sig: str) -> MethodScore:
    mode = options.multi_ref
    if not refs:
        empty = Score(math.nan, math.nan, math.nan) if options.empty == "nan" else Score(0.0, 0.0, 0.0)
        return MethodScore(method, empty, (), None, "no reference", None, sig)
    if len(refs) == 1:
        ref = refs[0]
        return MethodScore(method, ref.score, tuple(refs), 0, ONLY_REFERENCE, ref.stats, sig)
    if mode == "pooled":
        total = refs[0].stats
        for ref in refs[1:]:
            total = total + ref.stats
        return MethodScore(method, score_from_stats(total, options, method.spec.f_rule), tuple(refs), None,
                           f"hits and totals summed over {len(refs)} references", total, sig)
    if mode in ("best-recall", "best-f"):
        if mode == "best-f":
            values = [ref.score.fmeasure for ref in refs]
        elif options.round_pr is not None:  # ROUGE-1.5.5 `-f B`
            values = [rules155.selection_value(method, ref.stats, options.round_pr) for ref in refs]
        else:
            values = [ref.score.recall for ref in refs]
        total = sum(values)
        best = values.index(max(values)) if total == total else _first_max(values)  # no NaN: the first maximum
        ref = refs[best]
        others = ", ".join(map(_FOUR_PLACES, values[:best] + values[best + 1:]))
        label = "F" if mode == "best-f" else "recall"
        reason = f"highest {label} {values[best]:.4f} (others: {others}); ties go to the first"
        return MethodScore(method, ref.score, tuple(refs), best, reason, ref.stats, sig)
    scores = [ref.score for ref in refs]
    if mode == "max":
        combined = Score(*(max(_values(scores, k)) for k in ("precision", "recall", "fmeasure")))
        reason = "maximum of P, R and F taken separately over references"
        best = _first_max([s.fmeasure for s in scores])
        return MethodScore(method, combined, tuple(refs), best, reason, None, sig)
    combined = Score(*(sum(_values(scores, k)) / len(scores) for k in ("precision", "recall", "fmeasure")))
    return MethodScore(method, combined, tuple(refs), None, f"mean over {len(refs)} references", None, sig)


_FOUR_PLACES = "{:.4f}".format


def _values(scores: Sequence[Score], key: str) -> list[float]:
    return [getattr(s, key) for s in scores]


def _first_max(values: Sequence[float]) -> int:
    best = 0
    for i, v in enumerate(values):
        if v > values[best] or (math.isnan(values[best]) and not math.isnan(v)):
            best = i
    return best


def score(
    candidate: TextLike,
    references: TextLike | Sequence[TextLike],
    methods: Iterable[str | Method] = DEFAULT_METHODS,
    options: Options | str | None = None,
    *,
    evidence: bool = False,
    cost_limit: CostLimit | None = None,
    **overrides,
) -> Result:
    """Score one candidate against one or more references.

    >>> r = score("the cat sat on the mat", ["the cat is on the mat"], ["rouge1", "rougeL"])
    >>> round(r["rouge1"].fmeasure, 4)
    0.8333

    `options` is an Options object or a profile name ("rouge-1.5.5", "rouge-score",
    "matlab", "reval"); keyword overrides change single fields (e.g. stemmer="porter").

    `evidence=True` adds to each per-reference score the evidence behind it (the matched
    n-grams, the LCS alignment, the skip-bigram rows: `ReferenceScore.evidence`); it costs
    about 4-7 times a call without it on summary pairs. Without it (the default) the call costs
    little more than the compiled kernels, the scores and signatures are the same to the bit,
    and `ReferenceScore.evidence` is `NO_EVIDENCE`: false, and reading any of its attributes
    raises `EvidenceNotComputedError` (a ValueError) saying to pass `evidence=True`.

    `cost_limit` bounds the call's estimated cost (rouge_core.scorer.cost): None for the default
    bound (about 2 s and 500 MB), a `CostLimit`, or `rouge_core.scorer.cost.UNBOUNDED`. Above it,
    `CostLimitError` (a ValueError) is raised before any expensive work.

    Errors: TypeError for an argument of the wrong type, ValueError for a bad value (an
    unknown method or option, a parameter out of its range, text that is not valid
    Unicode), CostLimitError above the cost bound; each message names the argument.
    """
    if not evidence and type(candidate) is str:
        if overrides:
            options = resolve_options(options, overrides)
            overrides = {}
        # Texts without evidence: tokenized and scored in one call to the compiled kernels
        # (text_result: each reference is only looked up in the candidate's vocabulary, and
        # the Documents are made when read), unless the ordinary path must score them
        # (other inputs or settings, a method without a kernel, a side beyond the size the
        # kernels may score without estimating its cost first).
        kind = type(references)
        refs = (references,) if kind is str else tuple(references) if kind is list else references if kind is tuple \
            else None
        result = None if refs is None else text_result(candidate, refs, methods, options, cost_limit)
        if result is not None:
            return result
    opts = resolve_options(options, overrides)
    methods = (methods,) if isinstance(methods, (str, Method)) else tuple(methods)
    budget = None if cost_limit is UNBOUNDED else Budget(cost_limit)
    cand_doc, ref_docs = prepare_pair(candidate, references, opts, budget)
    return score_documents(cand_doc, ref_docs, methods, opts, evidence=evidence, cost_limit=cost_limit, budget=budget)


# The multi-reference modes the kernels combine themselves (codes of _native.score_texts), when
# no score_fn rounds the scores: combine_references's choice and reason, made in C.
_COMBINED_BY_THE_KERNELS = {"best-f": 1, "best-recall": 2}
_last_texts: tuple = ((), None, None, None, -1, None)  # the last _texts_plan's key and plan (one tuple: thread-safe)


def _texts_plan(methods, options, n_refs: int, cost_limit) -> tuple | None:
    """What `text_result` works out before its kernel call, for `score`'s arguments as given
    (`methods`, `options` a profile name, None or Options), kept for the next call with the same
    ones (a loop over pairs asks the same every time): (options, scorer, plans, max_side,
    max_chars, alpha, empty_nan, score_fn, the scorer that makes no Documents, how the kernels
    combine several references: 0 not, else their code), or None when the kernels cannot score
    these texts."""
    global _last_texts
    kernels = native.KERNELS
    kind = type(methods)
    specs = (methods if kind is tuple else tuple(methods) if kind is list
             else (methods,) if isinstance(methods, (str, Method)) else tuple(methods))
    last_specs, last_options, last_limit, last_kernels, last_n, plan = _last_texts
    # Kept for method names only (last_specs is None otherwise): Method objects compare equal
    # across weight types (2 and 2.0), which the pure path's statistics keep apart, and a Method
    # never equals a str. Options are immutable: the same object, the same plan.
    if (n_refs == last_n and cost_limit is last_limit and kernels is last_kernels and specs == last_specs
            and (options is last_options or (type(options) is str and options == last_options))):
        return plan
    plan = None
    opts = resolve_options(options, {})
    scorer = _compiled_tokenizers(opts)[1] if kernels is not None else None
    if scorer is not None:
        _, _, planned, compiled = _plans_of(specs, opts, n_refs)
        if compiled is not None:
            max_side, max_chars = text_call_bounds(planned, opts, n_refs, cost_limit)
            score_fn = None if opts.round_pr is None else partial(score_from_stats, options=opts)
            combine = _COMBINED_BY_THE_KERNELS.get(opts.multi_ref, 0) if n_refs > 1 and score_fn is None else 0
            plan = (opts, scorer, compiled, max_side, max_chars, opts.alpha, opts.empty == "nan", score_fn,
                    native.records_only(scorer), combine)
    str_only = _STR_ONLY.issuperset(map(type, specs))
    _last_texts = (specs if str_only else None, options, cost_limit, kernels, n_refs, plan)
    return plan


_STR_ONLY = frozenset((str,))
_NOT_KEPT = object()  # equal to no kept method names (text_result)


def text_result(candidate: str, references: tuple, methods, options, cost_limit) -> Result | None:
    """The Result of texts scored by the compiled kernels without evidence (rouge-score's and
    ROUGE-1.5.5's tokenizers, any str), what comes before the kernel call kept from the last
    call (`_texts_plan`) and the Documents made when read (`_TextResult`), so that a loop over
    pairs costs little more than the kernels; the records by name as `native.score_pair` gives
    them (one reference, or several combined by the kernels when the options' mode allows:
    best F or best recall, no rounding; else combined here). None when the ordinary path must
    score these texts (another kind of text or setting, a method without a kernel, texts long
    enough that their cost is estimated first)."""
    if not references or type(candidate) is not str:
        return None
    chars = len(candidate)
    for reference in references:
        if type(reference) is not str:
            return None
        chars += len(reference)
    # _texts_plan's check of its kept plan, inline (a loop over pairs asks the same every time)
    last_specs, last_options, last_limit, last_kernels, last_n, plan = _last_texts
    kind = type(methods)
    if not (len(references) == last_n and cost_limit is last_limit and native.KERNELS is last_kernels
            and (options is last_options or (type(options) is str and options == last_options))
            and (methods if kind is tuple else tuple(methods) if kind is list else (methods,) if kind is str
                 else _NOT_KEPT) == last_specs):
        plan = _texts_plan(methods, options, len(references), cost_limit)
    if plan is None or chars > plan[4]:
        return None
    opts, scorer, compiled, max_side, _, alpha, empty_nan, score_fn, bare, combine = plan
    scored = bare(compiled, candidate, references, alpha, empty_nan, score_fn, max_side, combine)
    if scored is None or scored is NotImplemented:
        return None
    records = scored[2]
    if type(records) is not dict:
        records = _combined(compiled, records, opts)
    result = _new_text_result(_TextResult)  # without the dataclass's Python-level __init__
    result.options = opts
    result.methods = records
    result._texts = (scorer, candidate, references)
    return result


@lru_cache(maxsize=4096)
def _method_plans(specs: tuple, options: Options, n_refs: int
                  ) -> tuple[tuple[tuple[Method, str, str], ...], tuple[str, ...], tuple[Method, ...], tuple | None]:
    """Per method: the parsed method, its name and its signature (the same for every pair of
    a corpus, so one cache lookup serves a whole call), in the order to compute them: the LCS
    family first, so the candidate's bit masks exist when ROUGE-1 can read its counts there.
    Also the names in the order asked for, the methods (for the cost check), and the plan of
    the compiled kernels (`native_plans`)."""
    plans = []
    for spec in specs:
        method = parse_method(spec, options)
        plans.append((method, method.name, signature(method, options, n_refs)))
    names = tuple(dict.fromkeys(name for _, name, _ in plans))
    ordered = tuple(sorted(plans, key=lambda plan: not plan[0].spec.builds_layout))
    return ordered, names, tuple(method for method, _, _ in ordered), native_plans(plans, names, options)


_last_plans: tuple = ((), None, -1, None, None)  # the last call's key and plans (one tuple: thread-safe reads)


def _plans_of(specs: tuple, options: Options, n_refs: int):
    """`_method_plans`, with the kernels' plans read once (rouge_core._native.Plans) and the
    last call's kept (a corpus asks the same for every pair)."""
    global _last_plans
    kernels = native.KERNELS  # kept with them: a switch of paths (native.pure()) makes them again
    last_specs, last_options, last_n, last_kernels, plans = _last_plans
    if options is last_options and n_refs == last_n and kernels is last_kernels and specs == last_specs:
        return plans
    ordered, names, planned, compiled = _method_plans(specs, options, n_refs)
    if kernels is not None and compiled is not None:
        compiled = native.plans(compiled)
    plans = (ordered, names, planned, compiled)
    _last_plans = (specs, options, n_refs, kernels, plans)
    return plans


def native_plans(plans, names: tuple[str, ...], options: Options) -> tuple | None:
    """rouge_core._native.score_pair's plans: per method name in order, its kernel (the
    family's `native_plan`), method, name and signature, and for a family with its own F rule
    (`Family.f_rule`) that rule as the kernels take it (`kernel_f_rule`); None when a method has
    no kernel."""
    by_name = {name: (method, sig) for method, name, sig in plans}
    out = []
    for name in names:
        method, sig = by_name[name]
        kernel = method.spec.native_plan(method, options)
        if kernel is None:
            return None
        rule = method.spec.f_rule
        out.append((*kernel, method, name, sig) if rule is F_MEASURE else
                   (*kernel, method, name, sig, kernel_f_rule(rule, options)))
    return tuple(out)


def kernel_f_rule(rule: FMeasureRule, options: Options):
    """A family's own F rule as a kernel plan carries it: the α the kernels' f_measure takes
    when the rule is f_measure at some α and P and R are not rounded; else the function that
    makes the whole Score from the kernel's statistics in Python (`score_from_stats`, the pure
    path's own, so both paths give the same bits)."""
    alpha = rule.alpha(options)
    if alpha is not None and options.round_pr is None:
        return float(alpha)
    return partial(score_from_stats, options=options, rule=rule)


_NOT_COMPILED = object()  # _score_compiled: these Documents need the pure path


def _score_compiled(plans, cand: Document, refs: Sequence[Document], options: Options, max_side: int):
    """Every method on the compiled kernels in one call (no evidence): the records by method
    name; None when a side has more than `max_side` tokens or sentences (its cost must be
    estimated first); _NOT_COMPILED when a Document needs the pure path (ROUGE-1.5.5's `-b`
    view, terms that are not strings)."""
    score_fn = None if options.round_pr is None else partial(score_from_stats, options=options)
    tokens_of = native.tokens_of
    c = tokens_of(cand)
    if c is None or cand.lcs_view is not None:
        return _NOT_COMPILED
    if len(refs) == 1:  # the common case, without the loop
        ref = refs[0]
        r = tokens_of(ref)
        if r is None or ref.lcs_view is not None:
            return _NOT_COMPILED
        return native.score_pair(plans, c, (r,), options.alpha, options.empty == "nan", score_fn, max_side)
    rs = tuple(tokens_of(r) for r in refs)
    if None in rs or any(r.lcs_view is not None for r in refs):
        return _NOT_COMPILED
    combine = _COMBINED_BY_THE_KERNELS.get(options.multi_ref, 0) if score_fn is None else 0
    scored = native.score_pair(plans, c, rs, options.alpha, options.empty == "nan", score_fn, max_side, combine)
    return scored if scored is None or type(scored) is dict else _combined(plans, scored, options)


def _combined(plans, scored: list, options: Options) -> dict:
    """The kernels' ReferenceScore records of several references, per plan, combined."""
    return {plan[5]: combine_references(plan[4], per_ref, options, plan[6]) for plan, per_ref in zip(plans, scored)}


def score_documents(cand: Document, refs: Sequence[Document], methods: Iterable[str | Method], options: Options, *,
                    evidence: bool = False, cost_limit: CostLimit | None = None,
                    budget: Budget | None = None) -> Result:
    """Every method on tokenized Documents (`score` without the tokenizing; evidence only with
    `evidence=True`, as there); the cost of the
    whole call is checked against `cost_limit` (as in `score`) before anything is computed,
    together with what `budget` (the call's tokenizing, when `score` tokenized) holds."""
    if isinstance(methods, (str, Method)):
        methods = (methods,)
    plans, names, planned, compiled = _plans_of(tuple(methods), options, len(refs))
    checked = cost_limit is UNBOUNDED
    if native.active() and compiled is not None and not evidence:
        # Sides within native_bound fit the cost bound whatever their shape: the kernels check
        # their sizes against it, and only larger texts are estimated.
        max_side = ANY_SIZE if checked else native_bound(planned, options, len(refs), cost_limit)
        if budget is not None and not budget.within_share():
            max_side = -1  # the tokenizing took more than its share: every size is estimated
        fast = _score_compiled(compiled, cand, refs, options, max_side)
        if fast is None:
            check_call(planned, cand, refs, options, evidence, cost_limit, budget)
            checked = True
            fast = _score_compiled(compiled, cand, refs, options, ANY_SIZE)
        if fast is not _NOT_COMPILED:
            return Result(cand, tuple(refs), options, fast)
    if not checked:
        check_call(planned, cand, refs, options, evidence, cost_limit, budget)
    scored: dict[str, MethodScore] = {}
    for method, name, sig in plans:
        compute, rule = method.spec.compute, method.spec.f_rule
        per_ref = []
        for index, ref in enumerate(refs):
            stats, ev = compute(method, cand, ref, options, evidence)
            per_ref.append(ReferenceScore(index, stats, score_from_stats(stats, options, rule),
                                          ev if evidence else NO_EVIDENCE))
        scored[name] = combine_references(method, per_ref, options, sig)
    return Result(cand, tuple(refs), options, {name: scored[name] for name in names})


# The Options fields applied to statistics once they exist: changing only these (or the
# profile label) rescores a result without computing anything again (their job: rouge_core.text.options).
SCORE_FIELDS = frozenset((*fields_of(SCORE), *fields_of(LABEL)))


def statistics_key(options: Options) -> tuple:
    """What decides the statistics (everything but SCORE_FIELDS): equal keys, equal statistics."""
    return options.statistics_key()


def rescore(result: Result, options: Options) -> Result:
    """`result`'s statistics turned into scores under `options` (another α, multi-reference
    mode, rounding or empty-input rule): statistics first, scores second, nothing recomputed.
    `options` must agree with the result's own on everything else (`statistics_key`)."""
    if statistics_key(options) != statistics_key(result.options):
        changed = [name for (name, a), (_, b) in zip(statistics_key(result.options), statistics_key(options)) if a != b]
        raise ValueError(f"rescore needs the same statistics; these options differ: {', '.join(changed)}")
    plans, names, _, _ = _method_plans(tuple(result.methods), options, len(result.references))
    scored: dict[str, MethodScore] = {}
    for method, name, sig in plans:
        per_ref = [ReferenceScore(r.index, r.stats, score_from_stats(r.stats, options, method.spec.f_rule), r.evidence)
                   for r in result.methods[name].per_reference]
        scored[name] = combine_references(method, per_ref, options, sig)
    return Result(result.candidate, result.references, options, {name: scored[name] for name in names})


def merge_references(results: Sequence[Result]) -> Result:
    """One candidate scored against each reference in its own call (e.g. to report progress
    between long computations), merged into the result of scoring against all of them at
    once: the same per-reference statistics, combined by the options' multi-reference mode."""
    if not results:
        raise ValueError("merge_references needs at least one result")
    first = results[0]
    if any(len(r.references) != 1 or r.options != first.options or list(r.methods) != list(first.methods)
           or r.candidate.term_tuple != first.candidate.term_tuple for r in results):
        raise ValueError("merge_references needs results of one candidate, one reference each, same methods and options")
    options = first.options
    plans, names, _, _ = _method_plans(tuple(first.methods), options, len(results))
    scored: dict[str, MethodScore] = {}
    for method, name, sig in plans:
        per_ref = [ReferenceScore(index, ref.stats, ref.score, ref.evidence)
                   for index, result in enumerate(results) for ref in result.methods[name].per_reference]
        scored[name] = combine_references(method, per_ref, options, sig)
    return Result(first.candidate, tuple(r.references[0] for r in results), options, {n: scored[n] for n in names})
