"""Every ROUGE method family in one place.

A family (ROUGE-N, ROUGE-L, ROUGE-Lsum, reval's ROUGE-Lsum-best, ROUGE-W, ROUGE-S, ROUGE-SU)
is one object that says everything about itself: how its methods are named and parsed
(`rouge2`, `rougeW-1.2`, `rougeSU*`), what ROUGE-1.5.5 prints for them, their readable labels,
the range of their parameter (rouge_core.params), which options change their statistics (and
so enter their signature), how they compute statistics and evidence on a pair of Documents,
what that costs (rouge_core.scorer.cost), and what the app shows of it (its sidebar parameters, its
Learn lesson, its Score tab). Scoring, signatures, the cost guard, tables, the command line,
the app and the compatibility front doors ask the registry (`FAMILIES`); nothing else spells
a method name out. A new family is a `Family` subclass and one `register(...)` (see
docs/architecture.md, "A method family is one plug-in").

    rouge<n>          ROUGE-N, clipped n-gram overlap (n >= 1)
    rougeL            sentence-level LCS over the whole token lists (rouge-score rougeL)
    rougeLsum         summary-level union LCS over sentences (ROUGE-1.5.5 ROUGE-L, rouge-score rougeLsum)
    rougeLsum-best    reval's summary-level form: best reference sentence per candidate sentence
    rougeW-<w>        weighted LCS with f(k) = k^w (default w = 1.2)
    rougeS<d>, rougeS*    skip-bigrams with at most d tokens in the gap (* = unlimited)
    rougeSU<d>, rougeSU*  skip-bigrams plus unigrams

Names the tools print or document (`ROUGE-1`, `ROUGE-L`, `ROUGE-W-1.2`, `ROUGE-SU4`,
`ROUGE-S*`: spelled `ROUGE-…`, any case, `_` for `-`) are read as the tool of the options'
profile means them (`parse_method(name, options)`; see PRINTED_L and `printed_meaning`): most
mean the same method in every tool, but ROUGE-1.5.5 prints `ROUGE-L` for its summary-level
union LCS (rougeLsum), MATLAB and reval mean one LCS over the whole texts (rougeL), reval's
`ROUGE-Lsum` is its best-sentence form (rougeLsum-best), and rouge-score has two LCS methods
and no `ROUGE-L`. rouge_core's own names (`rougeL`, `rougeLsum`, …) mean the same under every
profile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .be_method import BE_MODES
from ..errors import excerpt
from . import cost_terms
from ..kernels import native
from .bitparallel_lcs import CandidateLayout
from ..deferred import Later
from ..text.document import Document
from ..kernels.kernel_spec import (KERNEL_LCS, KERNEL_NGRAM, KERNEL_SKIP, KERNEL_UNION_LCS, KERNEL_WLCS_PAPER,
                                   KERNEL_WLCS_ROUGE155, UNIGRAM_FORMS)
from .lcs import (BestSentenceEvidence, SentenceLcsEvidence, UnionLcsEvidence, best_sentence_lcs, sentence_lcs,
                  union_lcs, union_sentences_of)
from .ngram import NgramEvidence, NgramMatch, ngram_counts, ngram_evidence, ngram_stats
from ..text.options import STATISTICS, fields_of, shown
from ..params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT, ParameterRange
from .skipgram import START_TOKEN, SkipBigramEvidence, SkipBigramRow, skip_stats
from ..stats import F_MEASURE, FMeasureRule, Stats
from .wlcs import WlcsEvidence, wlcs_paper, wlcs_rouge155

if TYPE_CHECKING:
    from ..text.options import Options

UNLIMITED = "*"  # how a name spells an unlimited skip distance: rougeS*, ROUGE-SU*

native.register_records(NgramMatch, SkipBigramRow)  # the kernels build these evidence records themselves


@dataclass(frozen=True)
class Method:
    """A method: its family and the family's parameter (n, weight or distance). Make one
    with `parse_method(name)` or `FAMILIES[key].method(value)`."""

    family: str
    n: int = 0
    weight: float = 0.0
    distance: int | None = None

    def __post_init__(self) -> None:
        # Every way of making a Method meets the parameter ranges of rouge_core.params.
        spec = FAMILIES.get(self.family)
        if spec is None:
            raise ValueError(f"unknown method family {excerpt(self.family)}; choose one of {tuple(FAMILIES)}")
        if spec.parameter is not None:
            # kept as the range gives it (w = 2 as 2.0): both paths then compute in the same types
            object.__setattr__(self, spec.field, spec.parameter.check(self.value))

    @property
    def spec(self) -> "Family":
        return FAMILIES[self.family]

    @property
    def value(self):
        """The family's parameter value (n, w or d; None for an unlimited distance)."""
        return self.spec.value_of(self)

    @property
    def name(self) -> str:
        return self.spec.name(self.value)

    @property
    def rouge155_name(self) -> str | None:
        """The name ROUGE-1.5.5 prints for this method (its ROUGE-L is the summary-level
        form, rougeLsum); None for a method it does not compute (rougeL, rougeLsum-best)."""
        return self.spec.rouge155_name(self.value)

    @property
    def label(self) -> str:
        """A readable name with the parameter, e.g. "ROUGE-S (gap ≤ 4)"."""
        return self.spec.label(self.value)

    @property
    def short_label(self) -> str:
        """A compact name for chart axes, e.g. "ROUGE-SU4", "ROUGE-W-1.2", "ROUGE-Lsum"."""
        return self.spec.short_label(self.value)

    @property
    def counts_ngrams(self) -> bool:
        """N, S and SU count grams; ROUGE-1.5.5 rounds their recall before `-f B` compares."""
        return self.spec.counts_grams


# --- what every family shares -----------------------------------------------------------------

# Document.memo keys: n for the n-gram counts, names for the rest.
_LAYOUT = "layout"


def _ngram_counts(doc: Document, n: int):
    return doc.memo(n, ngram_counts, doc.term_tuple, n)


def _layout(doc: Document):
    """The candidate's bit masks (rouge_core.families.bitparallel_lcs.CandidateLayout, or its compiled
    form on the native path), built once per Document."""
    compiled = native.layout_of(doc)
    if compiled is not None:
        return compiled
    return doc.memo(_LAYOUT, CandidateLayout, doc.term_tuple, doc.sentence_bounds)


@dataclass(frozen=True)
class UiParameter:
    """A method parameter as the app offers it (lens_app.settings holds it, lens_app.sidebar
    draws it): `setting`, the Settings field that holds it (families that take the same
    parameter declare the same UiParameter and share it: S and SU one skip distance); `label`
    and `help` of its widget; `range` (rouge_core.params), whose `key` names it in share links;
    `step` of its number box; `widget_maximum`: the box's own bound when the range has none
    that a browser can hold, with `beyond`, the advice for a larger value; `unlimited_setting`:
    the Settings field of its "unlimited" tick (a range that allows None), named in links by
    the key and "inf"."""

    setting: str
    label: str
    range: ParameterRange
    help: str = ""
    step: float = 1
    widget_maximum: float | None = None
    beyond: str = ""
    unlimited_setting: str | None = None

    @property
    def query(self) -> str:
        return self.range.key

    @property
    def maximum(self) -> float | None:
        """The largest value the widget holds."""
        return self.range.maximum if self.widget_maximum is None else self.widget_maximum

    def value(self, values) -> object:
        """The parameter's value among the Settings' `values` (a mapping): None when unlimited."""
        if self.unlimited_setting is not None and values[self.unlimited_setting]:
            return None
        return values[self.setting]


@dataclass(frozen=True)
class Section:
    """A family's section of a page: its Learn page lesson or its Score page evidence tab.
    `key` names it (the Learn page's expander is "learn_open_<key>"), `title` heads it.
    Families shown together share one (the lesson of L, Lsum and Lsum-best; the tab of S and
    SU). A page draws its own view of the sections it knows by key and, for any other, the
    families' statistics on the pair, their working and their evidence where
    rouge_core.viz.highlight draws it."""

    key: str
    title: str


@dataclass(frozen=True)
class Family:
    """One method family (see the module docstring). Subclasses give the computation.

    key: "N", "L", "Lsum", "Lbest", "W", "S" or "SU"; title: "ROUGE-N", ...;
    summary: what it measures, in one sentence; parameter: its ParameterRange (None: none);
    field: the Method field holding the parameter; statistics_options: the Options fields of
    the STATISTICS job (rouge_core.text.options) that change its statistics (each enters its
    signature as the option declares); counts_grams: ROUGE-1.5.5 rounds its recall before
    `-f B` compares;
    builds_layout: it builds the candidate's bit masks (which ROUGE-1 can then read);
    reads_lcs_view: it compares ROUGE-1.5.5's `-b` L/W view of the texts when they have one;
    unit: what its cost counts; evidence: the type of its evidence (rouge_core.viz.highlight
    draws the types it has a view for); f_rule: how its P and R become F (rouge_core.stats.FMeasureRule;
    F_MEASURE, the options' α, unless the family fixes its own), which every scoring path reads.

    What the app shows of it: ui, its parameters as the sidebar offers them (UiParameter);
    in_app, whether the app scores it beside the others (`app_methods`); lesson, its Section
    of the Learn page; evidence_tab, its Section of the Score page's evidence (None: none).

    `compute` is what scoring calls: on the native path (rouge_core.kernels.native) a family with a
    compiled kernel (`native_plan`) gets its statistics from it, and its evidence from its
    `native_evidence` (whose big collections are filled in on first read: rouge_core.deferred)
    or else from the same functions as the pure path, whose heavy parts run compiled too;
    `compute_pure` is the reference implementation."""

    key: str
    title: str
    summary: str
    parameter: ParameterRange | None = None
    field: str | None = None
    statistics_options: tuple[str, ...] = ()
    counts_grams: bool = False
    builds_layout: bool = False
    reads_lcs_view: bool = False
    unit: str = ""
    evidence: type | None = None
    ui: tuple[UiParameter, ...] = ()
    in_app: bool = True
    lesson: Section | None = None
    evidence_tab: Section | None = None
    f_rule: FMeasureRule = F_MEASURE

    # names ----------------------------------------------------------------------------------
    def value_of(self, method: Method):
        return None if self.field is None else getattr(method, self.field)

    def method(self, value=None) -> Method:
        """The family's method with this parameter value (checked against its range)."""
        if self.parameter is None:
            return Method(self.key)
        return Method(self.key, **{self.field: self.parameter.check(value)})

    def code(self, value, typed: str | None = None) -> str:
        """The parameter as names write it: 2, 1.2 (shortest form), 4 or * (unlimited); or as
        `typed` on ROUGE-1.5.5's command line, which the script prints unchanged (`-w 1.20`)."""
        if value is None:
            return UNLIMITED
        if typed is not None:
            return typed
        return f"{value:g}" if isinstance(value, float) else str(value)

    def name(self, value=None) -> str:
        raise NotImplementedError

    def rouge155_name(self, value=None, typed: str | None = None) -> str | None:
        """The name ROUGE-1.5.5 prints (None: it does not compute this family); `typed`: the
        parameter as typed on its command line."""
        return f"ROUGE-{self.key}{self.code(value, typed)}"

    def label(self, value=None) -> str:
        return self.title

    def short_label(self, value=None) -> str:
        return self.rouge155_name(value)  # the families without a printed name have their own

    def parse(self, key: str) -> Method | None:
        """The method a lower-cased name stands for, None when it is not this family's."""
        raise NotImplementedError

    def spelling(self) -> str:
        """How help texts and messages write the family's names: its usual method."""
        return self.name(None if self.parameter is None else self.parameter.default)

    def app_methods(self, values) -> list[Method]:
        """The methods the app scores under the Settings' `values` (a mapping holding every
        `ui` setting): the family's method with its parameter as set."""
        if self.parameter is None:
            return [self.method()]
        return [self.method(self.ui[0].value(values))]

    def kernel_key(self, method: Method, options: "Options") -> str:
        """The kernel that computes `method`, as rouge_core.scorer.cost_model's measurements name it."""
        return self.key

    def shares_layout(self, compiled: bool, evidence: bool) -> bool:
        """Whether computing it builds the candidate's bit masks (shared with the call's other
        methods), on the compiled path or not, with evidence or not."""
        return self.builds_layout

    def signature_parts(self, options: "Options") -> list[str]:
        """The signature fields this family adds (its statistics options that are set)."""
        return [f"{shown(name).key}:{shown(name).text(getattr(options, name))}" for name in self.statistics_options]

    def statistics_key(self, options: "Options") -> tuple:
        """The options its statistics depend on beyond tokenization."""
        return tuple(getattr(options, name) for name in self.statistics_options)

    # computing ------------------------------------------------------------------------------
    def compute(self, method: Method, cand: Document, ref: Document, options: "Options", evidence: bool
                ) -> tuple[Stats, object | None]:
        """Statistics (and evidence, when asked) of `method` on one candidate/reference pair."""
        if native.active() and self.native_ready(cand, ref):
            plan = self.native_plan(method, options)
            if plan is not None:
                sides = native.pair(cand, ref)
                if sides is not None:
                    if not evidence:
                        return native.stats(plan, *sides), None
                    found = self.native_evidence(plan, method, cand, ref, sides, options)
                    if found is not None:
                        return found
        return self.compute_pure(method, cand, ref, options, evidence)

    def native_evidence(self, plan: tuple, method: Method, cand: Document, ref: Document, sides: tuple,
                        options: "Options") -> tuple[Stats, object] | None:
        """Statistics and evidence from the compiled kernels (the same records as
        `compute_pure`'s; a big collection may be given as a rouge_core.deferred.Later, built
        when first read); None: the family's evidence is assembled by `compute_pure`, whose
        heavy parts run compiled."""
        return None

    def compute_pure(self, method: Method, cand: Document, ref: Document, options: "Options", evidence: bool
                     ) -> tuple[Stats, object | None]:
        """`compute` in pure Python (the reference implementation)."""
        raise NotImplementedError

    def native_plan(self, method: Method, options: "Options") -> tuple | None:
        """The compiled kernel of `method` without evidence: (kernel, a, b, w) as
        rouge_core.kernels.native's `stats` and `score_pair` read it (codes: rouge_core.kernels.kernel_spec); None: no kernel."""
        return None

    def native_ready(self, cand: Document, ref: Document) -> bool:
        """Whether the kernel applies to these Documents (not to ROUGE-1.5.5's `-b` view)."""
        return not self.reads_lcs_view or (cand.lcs_view is None and ref.lcs_view is None)

    def cost(self, method: Method, cand: "cost_terms.Shape", ref: "cost_terms.Shape", evidence: bool,
             options: "Options"):
        """(seconds, bytes, unit, count) of `method` on one pair of this shape (rouge_core.scorer.cost)."""
        raise NotImplementedError

    def alternative(self, method: Method) -> str | None:
        """A bounded method near `method` to offer when it costs too much (None: none)."""
        return None


@dataclass(frozen=True)
class NGramFamily(Family):
    def name(self, value=None) -> str:
        return f"rouge{value}"

    def rouge155_name(self, value=None, typed=None) -> str:
        return f"ROUGE-{value}"

    def label(self, value=None) -> str:
        return f"ROUGE-{value}"

    def parse(self, key: str) -> Method | None:
        m = re.fullmatch(r"rouge-?(\d+)", key)
        return None if m is None else self.method(_integer(m[1]))

    def spelling(self) -> str:
        return "rouge1..rougeN"

    def app_methods(self, values) -> list[Method]:
        return [self.method(n) for n in range(1, self.ui[0].value(values) + 1)]  # ROUGE-1 … ROUGE-n

    def kernel_key(self, method, options) -> str:
        return "N1" if method.n == 1 else "N2" if method.n == 2 else "Nn"

    def native_plan(self, method, options):
        return (KERNEL_NGRAM, method.n, 0, 0.0)

    def native_evidence(self, plan, method, cand, ref, sides, options):
        stats = native.stats(plan, *sides)
        matches = Later(native.ngram_evidence, *sides, method.n)
        return stats, NgramEvidence(method.n, matches, stats.cand_total, stats.ref_total)

    def compute_pure(self, method, cand, ref, options, evidence):
        c_terms, r_terms = cand.term_tuple, ref.term_tuple
        n = method.n
        if n == 1 and not evidence:
            layout = cand.memoized(_LAYOUT)
            if layout is not None:  # the candidate's masks are built: they hold its token counts
                return Stats(layout.unigram_hits(r_terms), len(c_terms), len(r_terms)), None
        stats = ngram_stats(c_terms, r_terms, n, _ngram_counts(cand, n), _ngram_counts(ref, n))
        return stats, (ngram_evidence(c_terms, r_terms, n) if evidence else None)

    def cost(self, method, cand, ref, evidence, options):
        return cost_terms.ngram_cost(method.n, cand, ref, evidence)


@dataclass(frozen=True)
class SentenceLcsFamily(Family):
    def name(self, value=None) -> str:
        return "rougeL"

    def rouge155_name(self, value=None, typed=None) -> None:
        return None  # the script's ROUGE-L is the summary-level union LCS (UnionLcsFamily)

    def label(self, value=None) -> str:
        return "ROUGE-L (sentence-level LCS)"

    def short_label(self, value=None) -> str:
        return "ROUGE-L"

    def parse(self, key: str) -> Method | None:
        return Method(self.key) if key in ("rougel", "rouge-l") else None

    def shares_layout(self, compiled: bool, evidence: bool) -> bool:
        return not compiled or evidence  # its compiled kernel without evidence reads the token lists

    def native_plan(self, method, options):
        return (KERNEL_LCS, 0, 0, 0.0)

    def native_evidence(self, plan, method, cand, ref, sides, options):
        pairs, lcs = native.lcs_evidence(*sides)
        return Stats(len(pairs), *map(len, sides)), SentenceLcsEvidence(pairs, lcs)

    def compute_pure(self, method, cand, ref, options, evidence):
        return sentence_lcs(cand.term_tuple, ref.term_tuple, evidence, layout=_layout(cand))

    def cost(self, method, cand, ref, evidence, options):
        return cost_terms.lcs_cost(cand, ref, evidence)


def _perl_byte_limited_lcs(method: Method, cand: Document, ref: Document, evidence: bool):
    """ROUGE-1.5.5 under `-b`: L and W compare the sentences its L/W reader kept, while
    the unigram counts that clip hits (and the candidate total) come from the cut text."""
    cand_seq = cand.lcs_view or cand
    ref_seq = ref.lcs_view or ref
    args = (cand_seq.terms, cand_seq.sentence_bounds, ref_seq.terms, ref_seq.sentence_bounds)
    clip = dict(evidence=evidence, clip_cand=cand.terms, clip_ref=ref.terms)
    if method.family == "Lsum":
        return union_lcs(*args, **clip)
    return wlcs_rouge155(*args, method.weight, **clip)


@dataclass(frozen=True)
class UnionLcsFamily(Family):
    def name(self, value=None) -> str:
        return "rougeLsum"

    def rouge155_name(self, value=None, typed=None) -> str:
        return "ROUGE-L"

    def label(self, value=None) -> str:
        return "ROUGE-Lsum (summary-level LCS)"

    def short_label(self, value=None) -> str:
        return "ROUGE-Lsum"

    def parse(self, key: str) -> Method | None:
        return Method(self.key) if key in ("rougelsum", "rouge-lsum") else None

    def native_plan(self, method, options):
        return (KERNEL_UNION_LCS, 0, 0, 0.0)

    def native_evidence(self, plan, method, cand, ref, sides, options):
        return native.stats(plan, *sides), UnionLcsEvidence(Later(union_sentences_of, native.union_evidence, *sides))

    def compute_pure(self, method, cand, ref, options, evidence):
        if cand.lcs_view is not None or ref.lcs_view is not None:
            return _perl_byte_limited_lcs(method, cand, ref, evidence)
        counts = (_ngram_counts(cand, 1), _ngram_counts(ref, 1)) if evidence else None
        return union_lcs(cand.term_tuple, cand.sentence_bounds, ref.term_tuple, ref.sentence_bounds, evidence,
                         layout=_layout(cand), unigram_counts=counts)

    def cost(self, method, cand, ref, evidence, options):
        return cost_terms.union_lcs_cost(cand, ref, evidence)


@dataclass(frozen=True)
class BestSentenceLcsFamily(Family):
    def name(self, value=None) -> str:
        return "rougeLsum-best"

    def rouge155_name(self, value=None, typed=None) -> None:
        return None  # reval's form; the script has none

    def label(self, value=None) -> str:
        return "ROUGE-Lsum-best (best sentence)"

    def short_label(self, value=None) -> str:
        return "ROUGE-Lsum-best"

    def parse(self, key: str) -> Method | None:
        return Method(self.key) if key in ("rougelsum-best", "rouge-lsum-best") else None

    def signature_parts(self, options) -> list[str]:
        # reval's unclipped sum is the exception, so only it is named
        return [] if options.best_sentence_clip else ["bestclip:no"]

    def compute_pure(self, method, cand, ref, options, evidence):
        return best_sentence_lcs(cand.term_tuple, cand.sentence_bounds, ref.term_tuple, ref.sentence_bounds, evidence,
                                 options.best_sentence_clip)

    def cost(self, method, cand, ref, evidence, options):
        return cost_terms.best_sentence_cost(cand, ref, evidence, options.best_sentence_clip)


@dataclass(frozen=True)
class WeightedLcsFamily(Family):
    def name(self, value=None) -> str:
        return f"rougeW-{self.code(value)}"

    def rouge155_name(self, value=None, typed: str | None = None) -> str:
        return f"ROUGE-W-{self.code(value, typed)}"

    def label(self, value=None) -> str:
        return f"ROUGE-W (w = {self.code(value)})"

    def parse(self, key: str) -> Method | None:
        # the weight as ROUGE-1.5.5 prints it: as typed after -w (1.2, 1.20, 2, 1., +1.5, 15e-1)
        m = re.fullmatch(r"rouge-?w(?:-?(\+?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?))?", key)
        if m is None:
            return None
        return self.method(float(m[1]) if m[1] else WLCS_WEIGHT.default)

    def native_plan(self, method, options):
        return (KERNEL_WLCS_PAPER if options.wlcs_form == "paper" else KERNEL_WLCS_ROUGE155, 0, 0, method.weight)

    def kernel_key(self, method, options) -> str:
        return "Wp" if options.wlcs_form == "paper" else "W155"

    def compute_pure(self, method, cand, ref, options, evidence):
        if cand.lcs_view is not None or ref.lcs_view is not None:
            return _perl_byte_limited_lcs(method, cand, ref, evidence)
        if options.wlcs_form == "paper":
            return wlcs_paper(cand.term_tuple, ref.term_tuple, method.weight, evidence)
        return wlcs_rouge155(cand.term_tuple, cand.sentence_bounds, ref.term_tuple, ref.sentence_bounds,
                             method.weight, evidence)

    def cost(self, method, cand, ref, evidence, options):
        return cost_terms.wlcs_cost(cand, ref, evidence, options.wlcs_form)


@dataclass(frozen=True)
class SkipBigramFamily(Family):
    unigrams: bool = False  # SU: skip-bigrams plus unigrams (in the form options.su_form says)

    def name(self, value=None) -> str:
        return f"rouge{self.key}{self.code(value)}"

    def label(self, value=None) -> str:
        gap = "unlimited gap" if value is None else f"gap ≤ {value}"
        return f"ROUGE-{self.key} ({gap})"

    def parse(self, key: str) -> Method | None:
        m = re.fullmatch(rf"rouge-?{self.key.lower()}(\+?\d+|\*)", key)  # -2 as typed: 4, 04, +4
        if m is None:
            return None
        return self.method(None if m[1] == UNLIMITED else _integer(m[1]))

    def spelling(self) -> str:
        return f"{self.name(self.parameter.default)} / {self.name(None)}"

    def _unigram_form(self, options) -> str | None:
        return options.su_form if self.unigrams else None

    def native_plan(self, method, options):
        form = UNIGRAM_FORMS[self._unigram_form(options)]
        return (KERNEL_SKIP, _kernel_distance(method.distance), form, 0.0)

    def native_evidence(self, plan, method, cand, ref, sides, options):
        stats = native.stats(plan, *sides)
        rows = Later(native.skip_evidence, *sides, plan[1], plan[2], START_TOKEN)
        return stats, SkipBigramEvidence(method.distance, self._unigram_form(options), rows, stats.cand_total,
                                         stats.ref_total)

    def compute_pure(self, method, cand, ref, options, evidence):
        return skip_stats(cand.term_tuple, ref.term_tuple, method.distance, self._unigram_form(options), evidence)

    def cost(self, method, cand, ref, evidence, options):
        return cost_terms.skip_cost(method.distance, self._unigram_form(options), cand, ref, evidence)

    def alternative(self, method: Method) -> str | None:
        bounded = cost_terms.BOUNDED_DISTANCE
        if method.distance is None or method.distance > bounded:
            return self.name(bounded)
        return None


# The compiled kernels hold at most 2**31 tokens a text (32-bit ids), and a distance of at least
# a text's length counts the same pairs as no limit; a larger one is given to them as this, so
# that no value in the distance's range (any non-negative integer) overflows their arithmetic:
# both paths count the same pairs for every distance.
KERNEL_MAX_DISTANCE = 2**31


def _kernel_distance(distance: int | None) -> int:
    """The skip distance as the kernels take it: -1 unlimited, else at most KERNEL_MAX_DISTANCE."""
    return -1 if distance is None else min(distance, KERNEL_MAX_DISTANCE)


def _integer(digits: str) -> int:
    if len(digits) > 1000:  # beyond any range (and Python's int() refuses 4,300 digits)
        raise ValueError(f"a number of {len(digits):,} digits is out of range")
    return int(digits)


# The method parameters as the app offers them, and the pages' sections (see UiParameter, Section).
MAX_N_SETTING = UiParameter("max_n", "n: ROUGE-1 … ROUGE-n", NGRAM_N)
# The largest finite skip distance the sidebar holds (its number box, in the browser, holds
# integers up to 2^53 only). Any distance of at least a text's length counts the same pairs as
# an unlimited one (dinf=1); a link with a larger d is refused with that advice.
MAX_SIDEBAR_DISTANCE = 10**9
SKIP_SETTING = UiParameter("skip_distance", "Skip distance (S, SU)", SKIP_DISTANCE,
                           "At most this many tokens between the two words of a skip-bigram.",
                           widget_maximum=MAX_SIDEBAR_DISTANCE,
                           beyond="a distance of at least the texts' length counts the same skip-bigrams as an unlimited "
                                  "one: use dinf=1", unlimited_setting="skip_unlimited")
WEIGHT_SETTING = UiParameter("weight", "W weight", WLCS_WEIGHT,
                             f"ROUGE-W weighs a run of k consecutive matches as k^w; w = 1 is plain LCS. "
                             f"w is {WLCS_WEIGHT.describe()}.", step=0.1)
LCS_LESSON = Section("l", "ROUGE-L: the longest common subsequence")
SKIP_LESSON = Section("s", "ROUGE-S and ROUGE-SU: skip-bigrams")
LCS_TAB = Section("lcs", "LCS alignment (ROUGE-L, Lsum)")
SKIP_TAB = Section("skip", "Skip-bigrams (ROUGE-S, SU)")

_FAMILY_LIST = (
    NGramFamily("N", "ROUGE-N", "clipped n-gram overlap", NGRAM_N, "n", counts_grams=True, unit="n-grams",
                evidence=NgramEvidence, ui=(MAX_N_SETTING,), lesson=Section("n", "ROUGE-N: counting shared n-grams"),
                evidence_tab=Section("n", "Matched n-grams (ROUGE-N)")),
    SentenceLcsFamily("L", "ROUGE-L", "the longest common subsequence of the whole token lists", builds_layout=True,
                      unit="LCS cells", evidence=SentenceLcsEvidence, lesson=LCS_LESSON, evidence_tab=LCS_TAB),
    UnionLcsFamily("Lsum", "ROUGE-Lsum", "the union of each reference sentence's LCS with every candidate sentence",
                   builds_layout=True, reads_lcs_view=True, unit="LCS cells", evidence=UnionLcsEvidence,
                   lesson=LCS_LESSON, evidence_tab=LCS_TAB),
    BestSentenceLcsFamily("Lbest", "ROUGE-Lsum-best", "each candidate sentence's LCS with its best reference sentence",
                          statistics_options=("best_sentence_clip",), unit="LCS cells",
                          evidence=BestSentenceEvidence, in_app=False, lesson=LCS_LESSON),
    WeightedLcsFamily("W", "ROUGE-W", "the weighted LCS: runs of k consecutive matches weigh k^w", WLCS_WEIGHT, "weight",
                      statistics_options=("wlcs_form",), reads_lcs_view=True, unit="DP cells",
                      evidence=WlcsEvidence, ui=(WEIGHT_SETTING,),
                      lesson=Section("w", "ROUGE-W: rewarding consecutive matches"),
                      evidence_tab=Section("w", "Weighted runs (ROUGE-W)")),
    SkipBigramFamily("S", "ROUGE-S", "ordered word pairs with at most d words between them", SKIP_DISTANCE, "distance",
                     counts_grams=True, unit="skip-bigrams", evidence=SkipBigramEvidence, ui=(SKIP_SETTING,),
                     lesson=SKIP_LESSON, evidence_tab=SKIP_TAB),
    SkipBigramFamily("SU", "ROUGE-SU", "skip-bigrams plus unigrams", SKIP_DISTANCE, "distance",
                     statistics_options=("su_form",), counts_grams=True, unit="skip-bigrams",
                     evidence=SkipBigramEvidence, ui=(SKIP_SETTING,), lesson=SKIP_LESSON, evidence_tab=SKIP_TAB,
                     unigrams=True),
)
FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add a method family to the registry (parse_method, signatures, the cost guard, the app
    and the command line read it). Its key and names must be new; the Options it reads must be
    STATISTICS options (rouge_core.text.options); its UI parameters must agree with any family
    already sharing their setting."""
    if family.key in FAMILIES:
        raise ValueError(f"a method family {family.key!r} is registered already")
    wrong = [name for name in family.statistics_options if name not in fields_of(STATISTICS)]
    if wrong:
        raise ValueError(f"{family.title} reads {wrong}, which are not STATISTICS options ({fields_of(STATISTICS)})")
    for ui in family.ui:
        other = next((p for f in FAMILIES.values() for p in f.ui if p.setting == ui.setting), ui)
        if other != ui:
            raise ValueError(f"{family.title}'s setting {ui.setting!r} differs from the one registered under that name")
    FAMILIES[family.key] = family
    return family


def unregister(key: str) -> Family:
    """Remove a family added with `register` (a test's own family, for instance)."""
    return FAMILIES.pop(key)


def ui_parameters() -> tuple[UiParameter, ...]:
    """Every method parameter the app offers, once each, in the registry's order."""
    return tuple({p.setting: p for family in FAMILIES.values() for p in family.ui}.values())


def _sections(section_of) -> tuple[tuple[Section, tuple[Family, ...]], ...]:
    found: dict[Section, list[Family]] = {}
    for family in FAMILIES.values():
        section = section_of(family)
        if section is not None:
            found.setdefault(section, []).append(family)
    return tuple((section, tuple(families)) for section, families in found.items())


def lessons() -> tuple[tuple[Section, tuple[Family, ...]], ...]:
    """The Learn page's lessons in the registry's order, each with the families it teaches."""
    return _sections(lambda family: family.lesson)


def evidence_tabs() -> tuple[tuple[Section, tuple[Family, ...]], ...]:
    """The Score page's evidence tabs in the registry's order, each with the families it shows
    (of those the app scores)."""
    return _sections(lambda family: family.evidence_tab if family.in_app else None)


def spellings() -> str:
    """Every family's names, as help texts and messages list them."""
    return ", ".join(family.spelling() for family in FAMILIES.values())


for _family in _FAMILY_LIST:
    register(_family)


# --- names the tools print ------------------------------------------------------------------

# A name spelled "ROUGE-…" (after lower-casing and "_" -> "-"), as the tools print or document
# them; rouge_core's own names (rougeL, rougeLsum, rougeW-1.2, …) never start so.
PRINTED_PREFIX = "rouge-"

# What each tool means by the printed names that are not the same method in every tool (ROUGE-N,
# ROUGE-W-<w>, ROUGE-S<d> and ROUGE-SU<d> are: the options then give the tool's form of W and SU).
PRINTED_L = {
    # ROUGE-1.5.5 prints ROUGE-L for its summary-level LCS: the union LCS of each reference
    # sentence with the candidate's sentences.
    "rouge-1.5.5": {"rouge-l": "rougeLsum"},
    # rougeEvaluationScore's "longest-common-subsequences": one LCS of the two token lists.
    "matlab": {"rouge-l": "rougeL"},
    # reval's ROUGEL ("the ROUGE-L score") takes one LCS of the token lists; its ROUGELsum
    # ("the ROUGE-Lsum score for multiple sentences") the best reference sentence per
    # candidate sentence.
    "reval": {"rouge-l": "rougeL", "rouge-lsum": "rougeLsum-best"},
}
_TOOLS = {"rouge-1.5.5": "ROUGE-1.5.5", "matlab": "MATLAB", "reval": "reval", "rouge-score": "rouge-score",
          "multilingual": "XL-Sum's multilingual rouge-score"}


def _profile_name(options) -> str | None:
    """The profile whose tool reads printed names: of an Options or a profile name; None
    for none given."""
    if options is None:
        return None
    if isinstance(options, str):
        from ..text.options import profile

        return profile(options).profile
    return getattr(options, "profile", None)


def printed_meaning(key: str, name: str, options=None) -> str | None:
    """rouge_core's name of the method the tool of `options` (an Options or a profile name)
    means by a printed name (`key`: `name` lower-cased, "_" read as "-"); None when the name
    is not a printed name whose meaning depends on the tool (parse it as it is). A ValueError
    saying which name to use when that tool has no such name, or none is given."""
    if not key.startswith(PRINTED_PREFIX):
        return None
    if key not in ("rouge-l", "rouge-lsum"):
        return None
    profile = _profile_name(options)
    meaning = PRINTED_L.get(profile, {}).get(key)
    if meaning is not None or key == "rouge-lsum":  # ROUGE-Lsum: else rouge_core's own label of rougeLsum
        return meaning
    both = ("rougeL (one LCS over the whole texts, sentence breaks ignored) or rougeLsum (the summary-level "
            "union LCS over the sentences, which ROUGE-1.5.5 prints as ROUGE-L)")
    if profile in ("rouge-score", "multilingual"):
        raise ValueError(f"{name!r} is not a name {_TOOLS[profile]} knows: it has two LCS methods; "
                         f"ask for {both}")
    where = "no profile is given" if profile is None else f"the options follow no tool's profile ({profile!r})"
    raise ValueError(f"{name!r} means a different method in each tool (ROUGE-1.5.5: rougeLsum; MATLAB and "
                     f"reval: rougeL; rouge-score has no ROUGE-L) and {where}: ask for {both}, or score "
                     "under the tool's profile")


def _basic_elements_message(name: str, mode: str | None) -> str:
    mode = (mode or "").upper()
    if mode not in BE_MODES:
        mode = "HM"
    return (f"{name!r} is ROUGE-BE, which scores Basic Elements (head|modifier|relation triples extracted from "
            f"parse trees), not text: score BE files with rouge_core.scorer.basic_elements.score_basic_elements(candidate, "
            f"references, {mode!r}) or `rouge155 -3 {mode}` (modes {', '.join(BE_MODES)})")


def parse_method(name: str | Method, options=None) -> Method:
    """A Method from its name: rouge_core's (rouge2, rougeL, rougeLsum, rougeW-1.2, rougeSU4,
    rougeS*, ...) or one a tool prints (ROUGE-2, ROUGE-L, ROUGE-W-1.2, ROUGE-SU4, ROUGE-S*),
    read as the tool of `options` (an Options or a profile name) means it: under
    "rouge-1.5.5", ROUGE-L is rougeLsum (see PRINTED_L). A ValueError naming the problem for
    an unknown name, a printed name the tool does not have (ROUGE-L under rouge-score, or
    without a tool's profile), or a parameter out of its range (rouge_core.params)."""
    if isinstance(name, Method):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a method is a name such as 'rouge2' or a Method, not {type(name).__name__}")
    key = name.strip().lower().replace("_", "-")
    meaning = printed_meaning(key, name, options)
    if meaning is not None:
        key = meaning.lower()
    try:
        for family in tuple(FAMILIES.values()):
            method = family.parse(key)
            if method is not None:
                return method
    except ValueError as exc:
        raise ValueError(f"{excerpt(name)}: {exc}") from None
    basic_elements = re.fullmatch(r"rouge-?be(?:-(.*))?", key)  # ROUGE-BE-HM, as printed under -3; rougeBE-HM
    if basic_elements is not None:
        raise ValueError(_basic_elements_message(name, basic_elements[1]))
    raise ValueError(
        f"unknown ROUGE method {excerpt(name)}; use {spellings()}, or a name a tool prints (ROUGE-2, ROUGE-L, "
        "ROUGE-W-1.2, ROUGE-SU4, ROUGE-S*) under that tool's profile"
    )


def method_name(family: str, value=None) -> str:
    """The name of a family's method with this parameter (checked): method_name("S", None)
    is "rougeS*", method_name("W", 1.5) "rougeW-1.5"."""
    return FAMILIES[family].method(value).name


def compute(method: Method, cand: Document, ref: Document, options: "Options", evidence: bool
            ) -> tuple[Stats, object | None]:
    """Statistics (and evidence, when asked) of one method on one candidate/reference pair."""
    return method.spec.compute(method, cand, ref, options, evidence)
