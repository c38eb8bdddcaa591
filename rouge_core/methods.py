"""Method names and how each method turns two tokenized documents into statistics."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .bitparallel_lcs import CandidateLayout
from .lcs import best_sentence_lcs, sentence_lcs, union_lcs
from .ngram import ngram_counts, ngram_evidence, ngram_stats
from .params import NGRAM_N, SKIP_DISTANCE, WLCS_WEIGHT
from .skipgram import skip_stats
from .stats import Stats
from .document import Document
from .wlcs import wlcs_paper, wlcs_rouge155

FAMILIES = ("N", "L", "Lsum", "Lbest", "W", "S", "SU")
LAYOUT_FAMILIES = ("L", "Lsum")  # the families that build the candidate's bit masks (`_layout`)


@dataclass(frozen=True)
class Method:
    """A parsed method name.

    rouge<n>          ROUGE-N, clipped n-gram overlap (n >= 1)
    rougeL            sentence-level LCS over the whole token lists (rouge-score rougeL)
    rougeLsum         summary-level union LCS over sentences (ROUGE-1.5.5 ROUGE-L, rouge-score rougeLsum)
    rougeLsum-best    reval's summary-level form: best reference sentence per candidate sentence
    rougeW-<w>        weighted LCS with f(k) = k^w (default w = 1.2)
    rougeS<d>, rougeS*    skip-bigrams with at most d tokens in the gap (* = unlimited)
    rougeSU<d>, rougeSU*  skip-bigrams plus unigrams
    """

    family: str
    n: int = 0
    weight: float = 0.0
    distance: int | None = None

    def __post_init__(self) -> None:
        # Every way of making a Method meets the parameter ranges of rouge_core.params.
        if self.family not in FAMILIES:
            raise ValueError(f"unknown method family {self.family!r}; choose one of {FAMILIES}")
        if self.family == "N":
            NGRAM_N.check(self.n)
        elif self.family == "W":
            WLCS_WEIGHT.check(self.weight)
        elif self.family in ("S", "SU"):
            SKIP_DISTANCE.check(self.distance)

    @property
    def name(self) -> str:
        if self.family == "N":
            return f"rouge{self.n}"
        if self.family == "L":
            return "rougeL"
        if self.family == "Lsum":
            return "rougeLsum"
        if self.family == "Lbest":
            return "rougeLsum-best"
        if self.family == "W":
            return f"rougeW-{self.weight:g}"
        d = "*" if self.distance is None else str(self.distance)
        return f"rouge{self.family}{d}"

    @property
    def rouge155_name(self) -> str:
        """The name ROUGE-1.5.5 prints (its ROUGE-L is the summary-level form)."""
        if self.family == "N":
            return f"ROUGE-{self.n}"
        if self.family in ("L", "Lsum", "Lbest"):
            return "ROUGE-L"
        if self.family == "W":
            return f"ROUGE-W-{self.weight:g}"
        d = "*" if self.distance is None else str(self.distance)
        return f"ROUGE-{self.family}{d}"

    @property
    def counts_ngrams(self) -> bool:
        """N, S and SU count grams; ROUGE-1.5.5 rounds their recall before `-f B` compares."""
        return self.family in ("N", "S", "SU")


_PATTERN = re.compile(
    r"^rouge-?(?:(?P<n>\d+)|(?P<lbest>lsum-best)|(?P<lsum>lsum)|(?P<l>l)"
    r"|w(?:-?(?P<w>\d+(?:\.\d+)?))?|(?P<su>su)(?P<sud>\d+|\*)|s(?P<sd>\d+|\*))$"
)


def parse_method(name: str | Method) -> Method:
    """A Method from its name (rouge2, rougeL, rougeW-1.2, rougeSU4, ROUGE-SU*, ...); a
    ValueError naming the problem for an unknown name or a parameter out of its range
    (rouge_core.params)."""
    if isinstance(name, Method):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a method is a name such as 'rouge2' or a Method, not {type(name).__name__}")
    key = name.strip().lower().replace("_", "-")
    m = _PATTERN.match(key)
    if not m:
        raise ValueError(
            f"unknown ROUGE method {name!r}; use rouge1..rougeN, rougeL, rougeLsum, rougeLsum-best, "
            "rougeW-1.2, rougeS4 / rougeS*, rougeSU4 / rougeSU*"
        )
    try:
        if m["n"]:
            return Method("N", n=NGRAM_N.check(_integer(m["n"])))
        if m["lbest"]:
            return Method("Lbest")
        if m["lsum"]:
            return Method("Lsum")
        if m["l"]:
            return Method("L")
        if m["su"]:
            return Method("SU", distance=None if m["sud"] == "*" else SKIP_DISTANCE.check(_integer(m["sud"])))
        if m["sd"]:
            return Method("S", distance=None if m["sd"] == "*" else SKIP_DISTANCE.check(_integer(m["sd"])))
        return Method("W", weight=WLCS_WEIGHT.check(float(m["w"])) if m["w"] else WLCS_WEIGHT.default)
    except ValueError as exc:
        raise ValueError(f"{name!r}: {exc}") from None


def _integer(digits: str) -> int:
    if len(digits) > 1000:  # beyond any range (and Python's int() refuses 4,300 digits)
        raise ValueError(f"a number of {len(digits):,} digits is out of range")
    return int(digits)


def compute(method: Method, cand: Document, ref: Document, *, wlcs_form: str, su_form: str, evidence: bool,
            best_sentence_clip: bool = True) -> tuple[Stats, object | None]:
    """Statistics (and evidence, when asked) of one method on one candidate/reference pair."""
    c_terms, r_terms = cand.term_tuple, ref.term_tuple
    family = method.family
    if family == "N":
        n = method.n
        if n == 1 and not evidence:
            layout = cand.memoized(_LAYOUT)
            if layout is not None:  # the candidate's masks are built: they hold its token counts
                return Stats(layout.unigram_hits(r_terms), len(c_terms), len(r_terms)), None
        stats = ngram_stats(c_terms, r_terms, n, _ngram_counts(cand, n), _ngram_counts(ref, n))
        return stats, (ngram_evidence(c_terms, r_terms, n) if evidence else None)
    if family == "L":
        return sentence_lcs(c_terms, r_terms, evidence, layout=_layout(cand))
    if family in ("Lsum", "W") and (cand.lcs_view is not None or ref.lcs_view is not None):
        return _perl_byte_limited_lcs(method, cand, ref, evidence)
    if family == "Lsum":
        counts = (_ngram_counts(cand, 1), _ngram_counts(ref, 1)) if evidence else None
        return union_lcs(c_terms, cand.sentence_bounds, r_terms, ref.sentence_bounds, evidence,
                         layout=_layout(cand), unigram_counts=counts)
    if family == "Lbest":
        return best_sentence_lcs(c_terms, cand.sentence_bounds, r_terms, ref.sentence_bounds, evidence,
                                 best_sentence_clip)
    if family == "W":
        if wlcs_form == "paper":
            return wlcs_paper(c_terms, r_terms, method.weight, evidence)
        return wlcs_rouge155(c_terms, cand.sentence_bounds, r_terms, ref.sentence_bounds, method.weight, evidence)
    unigram_form = su_form if family == "SU" else None
    return skip_stats(c_terms, r_terms, method.distance, unigram_form, evidence)


# Document.memo keys: n for the n-gram counts, names for the rest.
_LAYOUT = "layout"


def _ngram_counts(doc: Document, n: int):
    return doc.memo(n, ngram_counts, doc.term_tuple, n)


def _layout(doc: Document) -> CandidateLayout:
    return doc.memo(_LAYOUT, CandidateLayout, doc.term_tuple, doc.sentence_bounds)


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
