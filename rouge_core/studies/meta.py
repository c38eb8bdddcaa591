"""Meta-evaluation: how well a metric's scores agree with human scores.

Both inputs are maps ``{(system, doc_id): score}``: the metric's score and the human score of
system ``s``'s output for document ``d``. Only the cells present, and finite, in both maps are
used (the *items*); systems and documents are taken in sorted order (by ``str``), so the
result does not depend on the order of the maps.

Levels. Write x[s,d] for the metric's score and z[s,d] for the human score.

* Summary level: per document, the correlation across the systems that have an item on it;
  then the mean over documents::

      r_summary = (1 / |D'|) * sum over d in D' of corr( (x[s,d])_s , (z[s,d])_s )

  D' holds the documents whose correlation is defined. A document with fewer than two items,
  or whose metric or human scores are all equal, has none: it is left out and counted
  (``Correlation.left_out``), never averaged in as 0.

* System level: per system, the mean over its documents; then the correlation of those means
  across systems::

      r_system = corr( (mean_d x[s,d])_s , (mean_d z[s,d])_s )

Coefficients, as scipy.stats computes them (values agree with pearsonr, spearmanr and
kendalltau to 1e-12; the tests check it, ties included):

* Pearson  r = sum (x - mean x)(z - mean z) / sqrt( sum (x - mean x)^2 * sum (z - mean z)^2 )
* Spearman rho = Pearson r of the ranks, tied values sharing the mean of their positions
* Kendall  with S = sum over i < j of sign(x_i - x_j) * sign(z_i - z_j) (concordant minus
  discordant pairs), n0 = n(n-1)/2, n1 = sum t(t-1)/2 over the groups of tied x, n2 the same
  for z, and m = min(number of distinct x, number of distinct z)::

      tau_b = S / sqrt( (n0 - n1) * (n0 - n2) )
      tau_c = 2 S / ( n^2 * (m - 1) / m )

A coefficient is undefined (NaN) for fewer than two items or a constant side, as in scipy.

Bootstrap intervals (Deutsch, Dror & Roth 2021, "A statistical analysis of summarization
evaluation metrics using resampling methods"): resample the documents, the systems or both,
with replacement, from ``numpy.random.default_rng(seed)``, recompute the coefficient at the
same level, and take the percentile interval. A resample whose coefficient is undefined (e.g.
every drawn system the same one) is left out and counted.

The difference between two metrics' correlations with the same human scores, on the items
all three share, ``delta = r(x, z) - r(y, z)``:

* paired bootstrap: the same resamples for both metrics; two-sided,
  p = (1 + #{|delta* - delta| >= |delta|}) / (1 + R) (centred on the observed difference, as
  rouge_core.corpora.significance.paired_bootstrap), with the percentile interval of delta;
* permutation test (Deutsch et al. 2021, Perm-Inputs / Perm-Systems / Perm-Both): both
  metrics standardised (z-scores over all their items, which changes no coefficient), then
  their scores swapped with probability 1/2 per document, per system or per item;
  p = (1 + #{|delta*| >= |delta|}) / (1 + R);
* Williams' test (Williams 1959; Graham & Baldwin 2014) for two dependent Pearson
  correlations over the same n units (the systems, at the system level)::

      t = (r12 - r13) * sqrt( (n - 1)(1 + r23) / ( 2 (n - 1)/(n - 3) * K + ((r12 + r13)/2)^2 (1 - r23)^3 ) )
      K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23

  with r12 = r(x, z), r13 = r(y, z), r23 = r(x, y) and n - 3 degrees of freedom (Student's t,
  computed here, so rouge_core needs no scipy). The correlations are taken signed: a metric
  that correlates negatively with the humans is worse, not as good.

Ranking many metrics (``rank_metrics``): a metric's correlation uses the documents where it is
defined (``coverage``: a document is left out when the metric gives no score to its summaries,
gives every system the same score, or the humans do). Only metrics computed on the same items
are ranked, the group covering the most documents; the others are kept apart, never crowned.
Each ranked metric is compared with the best by the paired bootstrap above (the same resamples
for all of them), the p-values Holm-adjusted over the comparisons and read at
alpha = 1 - confidence / 100: a metric whose adjusted p is not below alpha is statistically
indistinguishable from the best.

Human judgements come from a CSV / TSV / JSON lines / JSON file (``read_judgements``: columns
system, doc_id, annotator, score and optionally aspect), from the released files of SummEval,
sacrerouge and REALSumm (``read_judgements`` recognises them, rouge_core.corpora.formats) or from the
app's Review page; the
human score of a cell is the mean over its annotators (``HumanJudgements.scores``). Their system
names are matched to a corpus's by ``match_systems``: the same name, else the corpus system whose
candidate column is named after it (``column_suffix``: "M0" is column "candidate_M0").
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field, replace
from typing import Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from ..errors import excerpt
from .. import optional
from ..corpora.corpus_io import (AUTO, CANDIDATE_PATTERN, DEFAULT_MAX_BYTES, MAX_PROBLEMS, CorpusError, detect_format,
                                 read_table)
from ..scorer.cost import UNBOUNDED as _UNBOUNDED
from ..text.textio import InputError
from ..corpora.significance import holm

Key = tuple[Hashable, Hashable]  # (system, doc_id)
Scores = Mapping[Key, float]
Progress = Callable[[int, int], None]

LEVELS = ("summary", "system")
METHODS = ("pearson", "spearman", "kendall")
VARIANTS = ("b", "c")
RESAMPLE = ("documents", "systems", "both")
# (method, variant) pairs: every coefficient this module computes, in a fixed order
COEFFICIENTS = (("pearson", None), ("spearman", None), ("kendall", "b"), ("kendall", "c"))

# Elements of the largest temporary array (a block of pairwise comparisons or of resamples):
# about 32 MB of float64, whatever the number of systems, documents or resamples.
_CELLS = 1 << 22


def coefficient_name(method: str, variant: str | None = None) -> str:
    """A coefficient's name for tables: "Pearson r", "Spearman ρ", "Kendall τ-b", "Kendall τ-c"."""
    if method == "pearson":
        return "Pearson r"
    if method == "spearman":
        return "Spearman ρ"
    return f"Kendall τ-{variant or 'b'}"


def _check_choice(value: str, choices: Sequence[str], what: str) -> str:
    if value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(repr(c) for c in choices)}, not {excerpt(value)}")
    return value


def _check_coefficient(level: str, method: str, variant: str | None) -> str | None:
    _check_choice(level, LEVELS, "level")
    _check_choice(method, METHODS, "method")
    if method != "kendall":
        return None
    return _check_choice(variant or "b", VARIANTS, "variant")


# --- coefficients, one per row of two (k, n) arrays; NaN marks a missing item ----------------

def _pearson_rows(x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Pearson r of each row, over the items present in both (scipy.stats.pearsonr's steps:
    centre, scale by the largest deviation, normalise, dot product, clip to [-1, 1])."""
    present = ~(np.isnan(x) | np.isnan(z))
    count = present.sum(axis=1)
    out = np.full(x.shape[0], np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        deviations = []
        for values in (x, z):
            mean = np.where(present, values, 0.0).sum(axis=1) / count
            centred = np.where(present, values - mean[:, None], 0.0)
            largest = np.abs(centred).max(axis=1, initial=0.0)
            scaled = centred / largest[:, None]
            norm = largest * np.sqrt((scaled * scaled).sum(axis=1))
            deviations.append((centred, norm, _constant_rows(values, present)))
        (xc, xn, x_const), (zc, zn, z_const) = deviations
        r = ((xc / xn[:, None]) * (zc / zn[:, None])).sum(axis=1)
    defined = (count >= 2) & ~x_const & ~z_const
    out[defined] = np.clip(r[defined], -1.0, 1.0)
    return out


def _constant_rows(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Rows whose present values are all equal (scipy's test for a constant input)."""
    low = np.where(present, values, np.inf).min(axis=1, initial=np.inf)
    high = np.where(present, values, -np.inf).max(axis=1, initial=-np.inf)
    return ~(low < high)


def _blocks(total: int, per_unit: int) -> Iterable[slice]:
    """Slices of range(total) whose blocks hold at most about _CELLS elements of `per_unit` each."""
    size = max(1, _CELLS // max(per_unit, 1))
    for start in range(0, total, size):
        yield slice(start, min(total, start + size))


def _ranks_rows(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Average ranks (1-based) of each row's present values; NaN elsewhere. A value's rank
    is the number of smaller values plus the mean position among its ties."""
    k, n = values.shape
    ranks = np.full((k, n), np.nan)
    filled = np.where(present, values, 0.0)
    for rows in _blocks(k, n * n):
        v, p = filled[rows], present[rows]
        for cols in _blocks(n, (rows.stop - rows.start) * n):
            vi = v[:, cols, None]
            smaller = ((v[:, None, :] < vi) & p[:, None, :]).sum(axis=2)
            equal = ((v[:, None, :] == vi) & p[:, None, :]).sum(axis=2)
            ranks[rows, cols] = np.where(p[:, cols], smaller + (equal + 1) / 2.0, np.nan)
    return ranks


def _spearman_rows(x: np.ndarray, z: np.ndarray) -> np.ndarray:
    present = ~(np.isnan(x) | np.isnan(z))
    return _pearson_rows(_ranks_rows(x, present), _kept_ranks(z, present))


_RANKS: OrderedDict = OrderedDict()
_RANKS_LOCK = threading.Lock()


def _kept_ranks(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """`_ranks_rows`, kept for the last few inputs: the human scores' ranks are the same for every
    metric correlated with them."""
    key = (hashlib.blake2b(values.tobytes() + present.tobytes(), digest_size=16).digest(), values.shape,
           values.strides)
    with _RANKS_LOCK:
        found = _RANKS.get(key)
        if found is not None:
            _RANKS.move_to_end(key)
            return found
    ranks = _ranks_rows(values, present)
    ranks.setflags(write=False)
    with _RANKS_LOCK:
        _RANKS[key] = ranks
        while len(_RANKS) > 16:
            _RANKS.popitem(last=False)
    return ranks


def _kendall_rows(x: np.ndarray, z: np.ndarray, variant: str) -> np.ndarray:
    """Kendall τ-b or τ-c of each row over the items present in both, by counting every pair
    (exact integers in float64 up to 2^53 pairs)."""
    present = ~(np.isnan(x) | np.isnan(z))
    k, n = x.shape
    count = present.sum(axis=1).astype(float)
    x0, z0 = np.where(present, x, 0.0), np.where(present, z, 0.0)
    # every unordered pair once (i < j); the counts are whole numbers, exact in float64
    first, second = np.triu_indices(n, 1)
    concordance = np.zeros(k)  # S: concordant minus discordant pairs
    x_ties = np.zeros(k)  # pairs tied in x
    z_ties = np.zeros(k)
    for rows in _blocks(k, max(len(first), 1)):
        xr, zr, pr = x0[rows], z0[rows], present[rows]
        both = pr[:, first] & pr[:, second]
        dx = np.sign(xr[:, first] - xr[:, second])
        dz = np.sign(zr[:, first] - zr[:, second])
        concordance[rows] = np.where(both, dx * dz, 0.0).sum(axis=1)
        x_ties[rows] = (both & (dx == 0)).sum(axis=1)
        z_ties[rows] = (both & (dz == 0)).sum(axis=1)
    # an infinite value differs from itself by NaN: no count of concordance is defined then
    infinite = (present & ~(np.isfinite(x0) & np.isfinite(z0))).any(axis=1)
    concordance[infinite] = np.nan
    s, xtie, ztie = concordance, x_ties, z_ties
    total = count * (count - 1) / 2
    defined = (count >= 2) & (xtie < total) & (ztie < total)
    out = np.full(k, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            tau = s / np.sqrt(total - xtie) / np.sqrt(total - ztie)
        else:
            classes = np.minimum(_distinct(x, present), _distinct(z, present))
            tau = 2 * s / (count ** 2 * (classes - 1) / classes)
    out[defined] = np.minimum(1.0, np.maximum(-1.0, tau[defined]))
    return out


def _distinct(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """How many distinct values each row holds among its present items."""
    ordered = np.sort(np.where(present, values, np.nan), axis=1)  # NaN (missing) last
    valid = ~np.isnan(ordered)
    # two infinite values differ by NaN, so they never count as tied (as in the pairs above)
    repeats = (valid[:, 1:] & (ordered[:, 1:] == ordered[:, :-1]) & np.isfinite(ordered[:, 1:])).sum(axis=1)
    return (valid.sum(axis=1) - repeats).astype(float)


def _rows(x: np.ndarray, z: np.ndarray, method: str, variant: str | None) -> np.ndarray:
    if method == "pearson":
        return _pearson_rows(x, z)
    if method == "spearman":
        return _spearman_rows(x, z)
    return _kendall_rows(x, z, variant or "b")


class _KeptArrays:
    """The last `kept` read-only arrays by key, shared by threads (least recently used goes first)."""

    def __init__(self, kept: int):
        self.kept, self.lock, self.arrays = kept, threading.Lock(), OrderedDict()

    def get(self, key):
        with self.lock:
            found = self.arrays.get(key)
            if found is not None:
                self.arrays.move_to_end(key)
            return found

    def put(self, key, values: np.ndarray) -> np.ndarray:
        values.setflags(write=False)
        with self.lock:
            self.arrays[key] = values
            while len(self.arrays) > self.kept:
                self.arrays.popitem(last=False)
        return values


_BY_DOCUMENT = _KeptArrays(512)  # (arrays' digest, shapes, strides, coefficient) -> per-row values


def _document_rows(x: np.ndarray, z: np.ndarray, method: str, variant: str | None) -> np.ndarray:
    """`_rows(x, z, ...)` kept for the last few inputs: a document's coefficient across systems is
    read by the coverage, the correlation and its resamples alike (the layout is part of the key:
    numpy's sums, and so the last bits, depend on it)."""
    key = (hashlib.blake2b(x.tobytes() + z.tobytes(), digest_size=16).digest(), x.shape, x.strides, z.strides,
           method, variant)
    found = _BY_DOCUMENT.get(key)
    if found is not None:
        return found
    return _BY_DOCUMENT.put(key, _rows(x, z, method, variant))


def coefficient(x: Sequence[float], z: Sequence[float], method: str = "pearson", variant: str | None = "b") -> float:
    """One coefficient of two equally long sequences (NaN marks a missing item, left out
    with its partner); NaN when undefined. Equals scipy.stats' pearsonr / spearmanr /
    kendalltau(variant=...) statistic."""
    _check_coefficient("summary", method, variant)
    xs, zs = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    if xs.shape != zs.shape or xs.ndim != 1:
        raise ValueError(f"the two sequences must be equally long: {xs.size} against {zs.size}")
    return float(_rows(xs[None, :], zs[None, :], method, variant)[0])


# --- score matrices --------------------------------------------------------------------------

def _sorted(values: Iterable[Hashable]) -> list:
    return sorted(set(values), key=lambda v: (str(v), type(v).__name__))


@dataclass(frozen=True)
class _Matrices:
    """Aligned (systems x documents) arrays of several score maps; NaN where any map lacks
    the cell or holds a non-finite value there."""

    systems: tuple
    documents: tuple
    arrays: tuple[np.ndarray, ...]

    @property
    def items(self) -> int:
        return int((~np.isnan(self.arrays[0])).sum())


@dataclass(frozen=True, eq=False)
class _Index:
    """The systems and documents of a few score maps, each in `_sorted` order, with positions."""

    systems: tuple
    documents: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "row", {s: i for i, s in enumerate(self.systems)})
        object.__setattr__(self, "col", {d: j for j, d in enumerate(self.documents)})


class ScoreTable(Mapping):
    """A score map {(system, doc_id): score} together with its scores as one array over an index
    of systems and documents shared with other tables (NaN where the map has no finite score),
    so that every computation here reads the array instead of converting the map again. Make
    them with `score_tables`; read-only (the map is copied)."""

    __slots__ = ("_scores", "index", "array")

    def __init__(self, scores: Mapping, index: _Index, array: np.ndarray) -> None:
        self._scores = scores
        self.index = index
        self.array = array
        array.setflags(write=False)

    def __getitem__(self, key):
        return self._scores[key]

    def __iter__(self):
        return iter(self._scores)

    def __len__(self) -> int:
        return len(self._scores)


def score_tables(*maps: Scores) -> list:
    """The maps as ScoreTables over one index (the same numbers from every function here,
    without each call converting the maps again); a map whose keys are not all (system,
    doc_id) pairs is returned as it is."""
    keys = set()
    for m in maps:
        keys.update(m)
    if not all(isinstance(k, tuple) and len(k) == 2 for k in keys):
        return list(maps)
    index = _Index(tuple(_sorted(s for s, _ in keys)), tuple(_sorted(d for _, d in keys)))
    out = []
    for m in maps:
        if isinstance(m, ScoreTable) and m.index is index:
            out.append(m)
            continue
        array = np.full((len(index.systems), len(index.documents)), np.nan)
        for (system, doc), value in m.items():
            if _finite(value):
                array[index.row[system], index.col[doc]] = float(value)
        out.append(ScoreTable(dict(m), index, array))
    return out


def _table_matrices(maps: Sequence[ScoreTable]) -> _Matrices:
    """`_matrices` of tables over one index: the cells every table scores, the systems and
    documents that have one (their order is the index's, which is `_sorted`'s)."""
    index = maps[0].index
    present = np.ones(maps[0].array.shape, dtype=bool)
    for m in maps:
        present &= ~np.isnan(m.array)
    rows, cols = present.any(axis=1), present.any(axis=0)
    cut = present[rows][:, cols]
    # C order, as _matrices fills them: numpy's sums depend on the memory layout, the numbers must not
    arrays = tuple(np.ascontiguousarray(np.where(cut, m.array[rows][:, cols], np.nan)) for m in maps)
    systems = tuple(s for s, keep in zip(index.systems, rows) if keep)
    documents = tuple(d for d, keep in zip(index.documents, cols) if keep)
    return _Matrices(systems, documents, arrays)


def _matrices(*maps: Scores) -> _Matrices:
    if isinstance(maps[0], ScoreTable) and all(isinstance(m, ScoreTable) and m.index is maps[0].index for m in maps):
        return _table_matrices(maps)
    shared = set(maps[0])
    for other in maps[1:]:
        shared &= set(other)
    for key in shared:
        if not (isinstance(key, tuple) and len(key) == 2):
            raise ValueError(f"scores must be keyed by (system, doc_id) pairs, not {excerpt(key)}")
    cells = [key for key in shared if all(_finite(m[key]) for m in maps)]
    systems = _sorted(s for s, _ in cells)
    documents = _sorted(d for _, d in cells)
    row = {s: i for i, s in enumerate(systems)}
    col = {d: j for j, d in enumerate(documents)}
    arrays = []
    for m in maps:
        a = np.full((len(systems), len(documents)), np.nan)
        for s, d in cells:
            a[row[s], col[d]] = float(m[(s, d)])
        arrays.append(a)
    return _Matrices(tuple(systems), tuple(documents), tuple(arrays))


def _finite(value) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def _level_values(x: np.ndarray, z: np.ndarray, level: str, method: str, variant: str | None) -> np.ndarray:
    """The coefficient at `level` of each of c stacked (systems x documents) matrices: x and z
    of shape (c, S, D), NaN where an item is missing. Returns shape (c,)."""
    c, systems, documents = x.shape
    if not systems or not documents:
        return np.full(c, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"), _quiet():
        if level == "summary":
            per_document = _rows(x.transpose(0, 2, 1).reshape(-1, systems), z.transpose(0, 2, 1).reshape(-1, systems),
                                 method, variant).reshape(c, documents)
            return _nanmean(per_document, axis=1)
        return _rows(_nanmean(x, axis=2), _nanmean(z, axis=2), method, variant)


def _nanmean(values: np.ndarray, axis: int) -> np.ndarray:
    """np.nanmean; without a NaN, the plain mean (the same sums and division, without the copy)."""
    if np.isnan(values).any():
        return np.nanmean(values, axis=axis)
    return values.mean(axis=axis)


class _quiet:
    """Silences numpy's "mean of empty slice" warnings (an undefined mean is a NaN here)."""

    def __enter__(self):
        import warnings

        self._catcher = warnings.catch_warnings()
        self._catcher.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(self, *exc):
        return self._catcher.__exit__(*exc)


# --- resampling --------------------------------------------------------------------------------

def _check_resampling(resamples: int, confidence: float, resample: str) -> None:
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"the bootstrap needs a whole number of resamples, at least 1, not {excerpt(resamples)}")
    if not 0 < confidence < 100:
        raise ValueError("confidence must be a percentage between 0 and 100")
    _check_choice(resample, RESAMPLE, "resample")


def _check_cost(systems: int, documents: int, metrics: int, resamples: int, method: str, level: str, resample: str,
                cost_limit) -> None:
    """CostLimitError (naming `cost_limit` and fewer resamples) when these correlations' estimate
    (rouge_core.scorer.cost.correlation_estimate) is above `cost_limit` (None: the default bound)."""
    from ..scorer.cost import check_resampling, correlation_estimate

    check_resampling(correlation_estimate(systems, documents, metrics, resamples, method, level, resample), cost_limit)


def _draws(rng: np.random.Generator, resamples: int, systems: int, documents: int, resample: str):
    """Resampled system and document indices, one row per resample (None: kept as they are).
    Systems are drawn before documents."""
    rows = rng.integers(0, systems, size=(resamples, systems)) if resample in ("systems", "both") else None
    cols = rng.integers(0, documents, size=(resamples, documents)) if resample in ("documents", "both") else None
    return rows, cols


def _gather(matrix: np.ndarray, rows, cols, block: slice) -> np.ndarray:
    """The resampled matrices of the resamples in `block`, shape (c, S, D)."""
    c = block.stop - block.start
    s, d = matrix.shape
    if rows is None and cols is not None:  # documents only: whole columns taken (the same values, faster)
        return np.take(matrix, cols[block], axis=1).transpose(1, 0, 2)
    r = rows[block] if rows is not None else np.broadcast_to(np.arange(s), (c, s))
    k = cols[block] if cols is not None else np.broadcast_to(np.arange(d), (c, d))
    return matrix[r[:, :, None], k[:, None, :]]


def _resampled_values(arrays: Sequence[np.ndarray], human: np.ndarray, level: str, method: str, variant: str | None,
                      resamples: int, seed: int, resample: str, progress: Progress | None) -> list[np.ndarray]:
    """Each metric's coefficient on the same `resamples` bootstrap resamples."""
    rng = np.random.default_rng(seed)
    s, d = human.shape
    rows, cols = _draws(rng, resamples, s, d, resample)
    out = [np.empty(resamples) for _ in arrays]
    if level == "summary" and rows is None:
        # Resampling documents only: each document's coefficient stays what it is, so a
        # resample is the mean of the drawn documents' coefficients (the same numbers the
        # general path computes, without recomputing them R times).
        with _quiet():
            per_document = [_document_rows(matrix.T, human.T, method, variant) for matrix in arrays]
            for block in _blocks(resamples, d):
                for values, terms in zip(out, per_document):
                    values[block] = _nanmean(terms[cols[block]], axis=1)
                if progress is not None:
                    progress(block.stop, resamples)
        return out
    if level == "system" and s and d:
        # Each resample's system means depend on a matrix and the draws alone (not on the human
        # scores of an aspect, nor on the coefficient): kept, so that switching either
        # recomputes only the coefficients. The humans' means once for every metric.
        draws = (seed, resamples, resample, s, d)
        with np.errstate(invalid="ignore", divide="ignore"), _quiet():
            z_means = _resampled_means(human, rows, cols, draws)
            for done, (values, matrix) in enumerate(zip(out, arrays), 1):
                values[:] = _rows(_resampled_means(matrix, rows, cols, draws), z_means, method, variant)
                if progress is not None:
                    progress(resamples * done // len(arrays), resamples)
        return out
    for block in _blocks(resamples, s * d * max(s, 1)):
        z = _gather(human, rows, cols, block)
        for values, matrix in zip(out, arrays):
            values[block] = _level_values(_gather(matrix, rows, cols, block), z, level, method, variant)
        if progress is not None:
            progress(block.stop, resamples)
    return out


_MEANS = _KeptArrays(256)  # (matrix digest, shape, draws) -> resamples x systems means; 1,000 x 16: 128 KB each


def _resampled_means(matrix: np.ndarray, rows, cols, draws: tuple) -> np.ndarray:
    """Per resample (the draws `rows`, `cols`), every system's mean over the drawn documents
    (`_nanmean` of the gathered matrix, block by block, as the general path computes it); kept
    for the last few matrices and draws."""
    key = (hashlib.blake2b(matrix.tobytes(), digest_size=16).digest(), matrix.shape, draws)
    found = _MEANS.get(key)
    if found is not None:
        return found
    s, d = matrix.shape
    resamples = draws[1]
    means = np.empty((resamples, s))
    for block in _blocks(resamples, s * d * max(s, 1)):
        means[block] = _nanmean(_gather(matrix, rows, cols, block), axis=2)
    return _MEANS.put(key, means)


def _extent(metrics: Mapping[str, Scores], human_scores: Scores) -> tuple[int, int]:
    """The most systems and documents any metric shares with the human scores (what its
    resamples are drawn over), without building the matrices."""
    tables = list(metrics.values())
    if tables and isinstance(human_scores, ScoreTable) and all(
            isinstance(t, ScoreTable) and t.index is human_scores.index for t in tables):
        judged = ~np.isnan(human_scores.array)
        present = np.zeros(judged.shape, dtype=bool)
        for t in tables:
            present |= judged & ~np.isnan(t.array)
        return int(present.any(axis=1).sum()), int(present.any(axis=0).sum())
    systems: set = set()
    documents: set = set()
    judged = set(human_scores)
    for scores in metrics.values():
        for s, d in judged.intersection(scores):
            systems.add(s)
            documents.add(d)
    return len(systems), len(documents)


def _percentiles(values: np.ndarray, confidence: float) -> tuple[float, float, int]:
    """The percentile interval of the defined values, and how many were undefined."""
    defined = values[~np.isnan(values)]
    if defined.size == 0:
        return math.nan, math.nan, int(values.size)
    tail = (100 - confidence) / 2
    low, high = np.percentile(defined, [tail, 100 - tail])
    return float(low), float(high), int(values.size - defined.size)


# --- correlation -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Correlation:
    """A metric's correlation with human scores at one level, with its bootstrap interval
    when one was asked for."""

    level: str
    method: str
    variant: str | None  # "b" or "c" for Kendall, else None
    value: float  # the coefficient (NaN when undefined)
    items: int  # (system, document) cells with both scores
    systems: int
    documents: int
    averaged: int  # summary level: documents averaged over; system level: systems correlated
    left_out: tuple = ()  # summary level: documents whose correlation is undefined
    low: float | None = None
    high: float | None = None
    confidence: float | None = None
    resamples: int = 0
    seed: int | None = None
    resample: str | None = None
    undefined_resamples: int = 0  # resamples whose coefficient was undefined (left out of the interval)

    @property
    def coefficient(self) -> float:
        return self.value

    @property
    def name(self) -> str:
        return coefficient_name(self.method, self.variant)

    def as_dict(self) -> dict:
        out = {"level": self.level, "coefficient": self.name, "value": self.value, "items": self.items,
               "systems": self.systems, "documents": self.documents, "averaged": self.averaged,
               "left_out": len(self.left_out)}
        if self.resamples:
            out.update(low=self.low, high=self.high, confidence=self.confidence, resamples=self.resamples,
                       seed=self.seed, resample=self.resample, undefined_resamples=self.undefined_resamples)
        return out


def correlate(metric_scores: Scores, human_scores: Scores, level: str = "summary", method: str = "pearson",
              variant: str | None = "b", *, bootstrap: int = 0, seed: int = 0, confidence: float = 95.0,
              resample: str = "documents", progress: Progress | None = None, cost_limit=None) -> Correlation:
    """The correlation of `metric_scores` with `human_scores` (both ``{(system, doc_id): float}``)
    at the summary or system level (see the module docstring for the definitions).

    method: "pearson", "spearman" or "kendall" (variant "b" or "c"). With `bootstrap` = R > 0,
    the percentile interval at `confidence` % from R resamples of the documents, the systems
    or both (`resample`), drawn from numpy's default_rng(seed); its cost is estimated first and
    checked against `cost_limit` (None: the default bound, rouge_core.UNBOUNDED: none)."""
    variant = _check_coefficient(level, method, variant)
    if bootstrap:
        _check_resampling(bootstrap, confidence, resample)
    m = _matrices(metric_scores, human_scores)
    x, z = m.arrays
    if bootstrap:
        _check_cost(len(m.systems), len(m.documents), 1, bootstrap, method, level, resample, cost_limit)
    value = float(_level_values(x[None], z[None], level, method, variant)[0])
    left_out: tuple = ()
    if level == "summary":
        with _quiet():
            per_document = _document_rows(x.T, z.T, method, variant)
        left_out = tuple(d for d, r in zip(m.documents, per_document) if math.isnan(r))
        averaged = len(m.documents) - len(left_out)
    else:
        averaged = len(m.systems)
    result = Correlation(level, method, variant, value, m.items, len(m.systems), len(m.documents), averaged, left_out)
    if not bootstrap or not m.items:
        return result
    (values,) = _resampled_values([x], z, level, method, variant, bootstrap, seed, resample, progress)
    low, high, undefined = _percentiles(values, confidence)
    return Correlation(level, method, variant, value, m.items, len(m.systems), len(m.documents), averaged, left_out,
                       low, high, confidence, bootstrap, seed, resample, undefined)


def correlate_many(metrics: Mapping[str, Scores], human_scores: Scores, level: str = "summary",
                   method: str = "pearson", variant: str | None = "b", *, bootstrap: int = 0, seed: int = 0,
                   confidence: float = 95.0, resample: str = "documents", cost_limit=None) -> dict[str, Correlation]:
    """`correlate` of every metric with the same human scores, each equal to its own call: the
    metrics whose items are the same systems and documents share one run of the resamples (the
    same draws a call of each would make, computed once for all of them). The cost of all
    of them together is checked against `cost_limit` first."""
    variant = _check_coefficient(level, method, variant)
    if bootstrap:
        _check_resampling(bootstrap, confidence, resample)
        systems, documents = _extent(metrics, human_scores)
        _check_cost(systems, documents, len(metrics), bootstrap, method, level, resample, cost_limit)
    out: dict[str, Correlation] = {}
    groups: dict[tuple, list] = defaultdict(list)
    for name, scores in metrics.items():  # one group: the same cells (so the same human matrix)
        m = _matrices(scores, human_scores)
        groups[(m.systems, m.documents, np.isnan(m.arrays[1]).tobytes())].append((name, m))
    for (systems, documents, _), members in groups.items():
        plain = {}
        for name, m in members:
            x, z = m.arrays
            value = float(_level_values(x[None], z[None], level, method, variant)[0])
            left_out: tuple = ()
            if level == "summary":
                with _quiet():
                    per_document = _document_rows(x.T, z.T, method, variant)
                left_out = tuple(d for d, r in zip(documents, per_document) if math.isnan(r))
                averaged = len(documents) - len(left_out)
            else:
                averaged = len(systems)
            plain[name] = Correlation(level, method, variant, value, m.items, len(systems), len(documents), averaged,
                                      left_out)
        resampled = [(name, m) for name, m in members if m.items]
        if bootstrap and resampled:
            drawn = _resampled_values([m.arrays[0] for _, m in resampled], resampled[0][1].arrays[1], level, method,
                                      variant, bootstrap, seed, resample, None)
            for (name, _), values in zip(resampled, drawn):
                low, high, undefined = _percentiles(values, confidence)
                plain[name] = replace(plain[name], low=low, high=high, confidence=confidence, resamples=bootstrap,
                                      seed=seed, resample=resample, undefined_resamples=undefined)
        out.update(plain)
    return {name: out[name] for name in metrics}


def document_correlations(metric_scores: Scores, human_scores: Scores, method: str = "pearson",
                          variant: str | None = "b") -> list[tuple[Hashable, float, int]]:
    """Each document's correlation across systems (the summary level's terms): (doc_id,
    coefficient, items), lowest coefficient first, undefined ones last. The documents where
    the metric and the humans disagree most come first."""
    variant = _check_coefficient("summary", method, variant)
    m = _matrices(metric_scores, human_scores)
    x, z = m.arrays
    with _quiet():
        values = _document_rows(x.T, z.T, method, variant)
    counts = (~np.isnan(x)).sum(axis=0)
    out = [(d, float(r), int(n)) for d, r, n in zip(m.documents, values, counts)]
    return sorted(out, key=lambda t: (math.isnan(t[1]), t[1] if not math.isnan(t[1]) else 0.0))


# --- two metrics against the same human scores ----------------------------------------------------

@dataclass(frozen=True)
class CorrelationDifference:
    """A test of r(metric a, humans) − r(metric b, humans) on the items all three share."""

    test: str  # "paired bootstrap", "permutation" or "Williams"
    level: str
    method: str
    variant: str | None
    value_a: float
    value_b: float
    p_value: float
    units: int  # systems (system level) or documents (summary level) the coefficients run over
    items: int
    resamples: int = 0
    seed: int | None = None
    resample: str | None = None  # bootstrap: what was resampled; permutation: what was swapped
    low: float | None = None  # the paired bootstrap's percentile interval of the difference
    high: float | None = None
    confidence: float | None = None
    statistic: float | None = None  # Williams' t
    df: int | None = None

    @property
    def difference(self) -> float:
        return self.value_a - self.value_b

    def as_dict(self) -> dict:
        out = {"test": self.test, "level": self.level, "coefficient": coefficient_name(self.method, self.variant),
               "value_a": self.value_a, "value_b": self.value_b, "difference": self.difference,
               "p_value": self.p_value, "units": self.units, "items": self.items}
        if self.resamples:
            out.update(resamples=self.resamples, seed=self.seed, resample=self.resample)
        if self.low is not None:
            out.update(low=self.low, high=self.high, confidence=self.confidence)
        if self.statistic is not None:
            out.update(t=self.statistic, df=self.df)
        return out


# Tolerance for "at least as extreme": the same coefficients summed in another order differ in
# the last bits, and an exact tie must count (as in rouge_core.corpora.significance).
_EPS = 1e-12


def _three(metric_a: Scores, metric_b: Scores, human: Scores, level: str, method: str, variant: str | None):
    variant = _check_coefficient(level, method, variant)
    m = _matrices(metric_a, metric_b, human)
    x, y, z = m.arrays
    a = float(_level_values(x[None], z[None], level, method, variant)[0])
    b = float(_level_values(y[None], z[None], level, method, variant)[0])
    if math.isnan(a) or math.isnan(b):
        raise ValueError(f"the {level}-level {coefficient_name(method, variant)} is undefined for "
                         f"{'both metrics' if math.isnan(a) and math.isnan(b) else 'one metric'} on these "
                         f"{m.items} shared items; nothing to compare")
    units = len(m.systems) if level == "system" else len(m.documents)
    return m, variant, a, b, units


def bootstrap_difference(metric_a: Scores, metric_b: Scores, human_scores: Scores, level: str = "summary",
                         method: str = "pearson", variant: str | None = "b", *, resamples: int = 1000, seed: int = 0,
                         confidence: float = 95.0, resample: str = "documents",
                         progress: Progress | None = None, cost_limit=None) -> CorrelationDifference:
    """Paired bootstrap of r(a, humans) − r(b, humans): both metrics see the same resamples
    (its cost checked against `cost_limit` first, as `correlate` does)."""
    _check_resampling(resamples, confidence, resample)
    m, variant, a, b, units = _three(metric_a, metric_b, human_scores, level, method, variant)
    x, y, z = m.arrays
    _check_cost(len(m.systems), len(m.documents), 2, resamples, method, level, resample, cost_limit)
    va, vb = _resampled_values([x, y], z, level, method, variant, resamples, seed, resample, progress)
    p_value, low, high = _bootstrap_test(va - vb, a - b, confidence)
    return CorrelationDifference("paired bootstrap", level, method, variant, a, b, p_value, units, m.items, resamples,
                                 seed, resample, low, high, confidence)


def _bootstrap_test(deltas: np.ndarray, observed: float, confidence: float) -> tuple[float, float, float]:
    """The paired bootstrap's two-sided p-value (centred on the observed difference) and the
    percentile interval of the difference, from the resampled differences (undefined ones left out)."""
    defined = deltas[~np.isnan(deltas)]
    extreme = int((np.abs(defined - observed) >= abs(observed) - _EPS).sum())
    low, high, _ = _percentiles(deltas, confidence)
    return (extreme + 1) / (defined.size + 1), low, high


def _standardised(matrix: np.ndarray) -> np.ndarray:
    spread = np.nanstd(matrix)
    return (matrix - np.nanmean(matrix)) / (spread if spread > 0 else 1.0)


def permutation_difference(metric_a: Scores, metric_b: Scores, human_scores: Scores, level: str = "summary",
                           method: str = "pearson", variant: str | None = "b", *, resamples: int = 1000, seed: int = 0,
                           permute: str = "both", progress: Progress | None = None,
                           cost_limit=None) -> CorrelationDifference:
    """Permutation test of r(a, humans) − r(b, humans): the two metrics' (standardised) scores
    swapped with probability 1/2 per document, per system or per item (`permute`); its cost
    checked against `cost_limit` first, as `correlate` does."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"the permutation test needs a whole number of resamples, at least 1, not {excerpt(resamples)}")
    _check_choice(permute, RESAMPLE, "permute")
    m, variant, a, b, units = _three(metric_a, metric_b, human_scores, level, method, variant)
    # every permutation recomputes both coefficients, as a resample of systems and documents does
    _check_cost(len(m.systems), len(m.documents), 2, resamples, method, level, "both", cost_limit)
    x, y, z = (_standardised(v) for v in m.arrays)
    s, d = z.shape
    rng = np.random.default_rng(seed)
    observed = a - b
    extreme = undefined = 0
    for block in _blocks(resamples, 2 * s * d * max(s, 1)):
        c = block.stop - block.start
        if permute == "documents":
            swap = np.broadcast_to(rng.random((c, 1, d)) < 0.5, (c, s, d))
        elif permute == "systems":
            swap = np.broadcast_to(rng.random((c, s, 1)) < 0.5, (c, s, d))
        else:
            swap = rng.random((c, s, d)) < 0.5
        xp, yp = np.where(swap, y, x), np.where(swap, x, y)
        zs = np.broadcast_to(z, (c, s, d))
        deltas = _level_values(xp, zs, level, method, variant) - _level_values(yp, zs, level, method, variant)
        defined = deltas[~np.isnan(deltas)]
        undefined += c - defined.size
        extreme += int((np.abs(defined) >= abs(observed) - _EPS).sum())
        if progress is not None:
            progress(block.stop, resamples)
    p_value = (extreme + 1) / (resamples - undefined + 1)
    return CorrelationDifference("permutation", level, method, variant, a, b, p_value, units, m.items, resamples, seed,
                                 permute)


def williams(r12: float, r13: float, r23: float, n: int, alternative: str = "two-sided") -> tuple[float, float]:
    """Williams' t and its p-value for r12 = r(x, z) against r13 = r(y, z), with r23 = r(x, y),
    over n units; n − 3 degrees of freedom. alternative: "two-sided", "greater" (r12 > r13)
    or "less"."""
    _check_choice(alternative, ("two-sided", "greater", "less"), "alternative")
    if n < 4:
        raise ValueError(f"Williams' test needs at least 4 units (n - 3 degrees of freedom), not {n}")
    determinant = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    denominator = 2 * (n - 1) / (n - 3) * determinant + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
    if denominator <= 0:
        raise ValueError("Williams' test is undefined here: the two metrics' scores are perfectly correlated")
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23) / denominator)
    df = n - 3
    if alternative == "greater":
        p = student_t_sf(t, df)
    elif alternative == "less":
        p = student_t_sf(-t, df)
    else:
        p = min(1.0, 2 * student_t_sf(abs(t), df))
    return t, p


def williams_difference(metric_a: Scores, metric_b: Scores, human_scores: Scores, level: str = "system",
                        alternative: str = "two-sided") -> CorrelationDifference:
    """Williams' test for the two metrics' system-level Pearson correlations (the n units are
    the systems; at the summary level a coefficient is a mean of per-document ones, which
    Williams' test does not cover)."""
    if level != "system":
        raise ValueError("Williams' test compares two Pearson correlations over the same units: use level='system' "
                         "(the summary level averages per-document correlations; use the bootstrap or permutation test)")
    m, _, a, b, units = _three(metric_a, metric_b, human_scores, "system", "pearson", None)
    x, y, _ = m.arrays
    with _quiet():
        r23 = float(_pearson_rows(np.nanmean(x, axis=1)[None], np.nanmean(y, axis=1)[None])[0])
    if math.isnan(r23):
        raise ValueError("Williams' test is undefined here: one metric gives every system the same mean score")
    t, p = williams(a, b, r23, units, alternative)
    return CorrelationDifference("Williams", "system", "pearson", None, a, b, p, units, m.items, statistic=t,
                                 df=units - 3)


def compare_correlations(metric_a: Scores, metric_b: Scores, human_scores: Scores, level: str = "summary",
                         method: str = "pearson", variant: str | None = "b", *, resamples: int = 1000, seed: int = 0,
                         confidence: float = 95.0, resample: str = "documents", permute: str = "both",
                         progress: Progress | None = None, cost_limit=None) -> list[CorrelationDifference]:
    """Every test that applies: the paired bootstrap and the permutation test, and Williams'
    test for system-level Pearson correlations over at least 4 systems (both tests' cost
    checked against `cost_limit` first)."""
    from ..scorer.cost import check_resampling, correlation_estimate, total

    def part(offset: int):
        return None if progress is None else (lambda done, total: progress(offset + done, 2 * resamples))

    m = _matrices(metric_a, metric_b, human_scores)
    both = total([correlation_estimate(len(m.systems), len(m.documents), 2, resamples, method, level, resample),
                  correlation_estimate(len(m.systems), len(m.documents), 2, resamples, method, level, "both")],
                 "the two tests")
    check_resampling(both, cost_limit)
    out = [bootstrap_difference(metric_a, metric_b, human_scores, level, method, variant, resamples=resamples, seed=seed,
                                confidence=confidence, resample=resample, progress=part(0), cost_limit=_UNBOUNDED),
           permutation_difference(metric_a, metric_b, human_scores, level, method, variant, resamples=resamples,
                                  seed=seed, permute=permute, progress=part(resamples), cost_limit=_UNBOUNDED)]
    if level == "system" and method == "pearson" and out[0].units >= 4:
        try:
            out.append(williams_difference(metric_a, metric_b, human_scores))
        except ValueError:
            pass  # a degenerate case (e.g. identical metrics): the other two tests still stand
    return out


# --- Student's t, for Williams' test -------------------------------------------------------------

def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularised incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom."""
    if math.isnan(t) or df <= 0:
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2, 0.5)
    return tail if t >= 0 else 1.0 - tail


# --- many metrics at once --------------------------------------------------------------------------

def correlation_rows(metrics: Mapping[str, Scores], human_scores: Scores, *, levels: Sequence[str] = LEVELS,
                     coefficients: Sequence[tuple[str, str | None]] = (("pearson", None),), bootstrap: int = 0,
                     seed: int = 0, confidence: float = 95.0, resample: str = "documents",
                     progress: Progress | None = None) -> list[dict]:
    """One row per metric, level and coefficient (``Correlation.as_dict()`` plus "metric"),
    every metric on the same resamples (the same seed)."""
    jobs = [(name, level, method, variant) for name in metrics for level in levels for method, variant in coefficients]
    rows = []
    for done, (name, level, method, variant) in enumerate(jobs, 1):
        result = correlate(metrics[name], human_scores, level, method, variant, bootstrap=bootstrap, seed=seed,
                           confidence=confidence, resample=resample)
        rows.append({"metric": name, **result.as_dict()})
        if progress is not None:
            progress(done, len(jobs))
    return rows


# --- many metrics ranked on the same documents -----------------------------------------------------

@dataclass(frozen=True)
class Coverage:
    """What one metric's correlation at one level is computed on, against what the humans judged.

    A judged document is used at the summary level when the metric's correlation across systems
    is defined on it; at the system level when the metric scores at least one of its judged
    summaries (and the system-level coefficient is defined at all)."""

    level: str
    documents_judged: tuple  # documents with a human score, sorted
    documents_used: tuple
    summaries_judged: int  # (system, document) cells with a human score
    summaries_used: int  # of those, the ones the coefficient uses
    unscored: int  # judged summaries the metric gives no (finite) score
    unscored_documents: tuple  # documents left out where the metric has no score for a summary
    tied_documents: tuple  # summary level: left out, the metric giving every system the same score
    human_tied_documents: tuple  # summary level: left out for every metric (humans tie, or judged < 2 systems)
    undefined: str = ""  # system level: why the coefficient is undefined ("" when it is defined)

    @property
    def missing(self) -> int:
        return len(self.documents_judged) - len(self.documents_used)

    @property
    def fraction(self) -> str:
        return f"{len(self.documents_used):,} / {len(self.documents_judged):,}"

    def why(self) -> str:
        """Why documents are missing, in words ("" when none is)."""
        reasons = []
        if self.undefined:
            reasons.append(self.undefined)
        if self.unscored_documents:
            reasons.append(f"{_count(len(self.unscored_documents), 'document')} where the variant gives no score to "
                           f"a summary ({_count(self.unscored, 'judged summary', 'judged summaries')} in all have "
                           "nothing to count under it, e.g. a summary too short for its units)")
        if self.tied_documents:
            reasons.append(f"{_count(len(self.tied_documents), 'document')} where it gives every system the same "
                           "score (the correlation there is undefined)")
        if self.human_tied_documents:
            reasons.append(f"{_count(len(self.human_tied_documents), 'document')} where the humans gave every system "
                           "the same score or judged fewer than two systems (missing for every variant)")
        return "; ".join(reasons)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def _judged(human_scores: Scores) -> tuple[_Matrices, set]:
    """The human scores' matrix and the (system, doc_id) items they judge (what `_coverage`
    reads for every metric)."""
    judged = _matrices(human_scores)
    items = {(s, d) for i, s in enumerate(judged.systems) for j, d in enumerate(judged.documents)
             if not math.isnan(judged.arrays[0][i, j])}
    return judged, items


def _coverage(metric_scores: Scores, human_scores: Scores, level: str, method: str,
              variant: str | None, judged_side: tuple | None = None) -> tuple[Coverage, frozenset]:
    """The metric's Coverage at `level`, and the (system, doc_id) items its coefficient uses
    (`judged_side`: `_judged(human_scores)`, when already made)."""
    judged, judged_items = judged_side or _judged(human_scores)
    m = _matrices(metric_scores, human_scores)
    x, z = m.arrays
    scored = {(s, d) for i, s in enumerate(m.systems) for j, d in enumerate(m.documents) if not math.isnan(x[i, j])}
    unscored_by_document: dict = defaultdict(int)
    for _, d in judged_items - scored:
        unscored_by_document[d] += 1
    undefined = ""
    tied: list = []
    human_tied: list = []
    if level == "summary":
        with _quiet():
            defined = {d for d, r in zip(m.documents, _document_rows(x.T, z.T, method, variant)) if not math.isnan(r)}
        h = judged.arrays[0].T  # documents x systems
        present = ~np.isnan(h)
        human_varies = {d for d, n, const in zip(judged.documents, present.sum(axis=1), _constant_rows(h, present))
                        if n >= 2 and not const}
        used = [d for d in judged.documents if d in defined]
        for d in judged.documents:
            if d in defined:
                continue
            if d not in human_varies:
                human_tied.append(d)
            elif not unscored_by_document.get(d):
                tied.append(d)
        items = frozenset(k for k in scored if k[1] in defined)
    else:
        value = float(_level_values(x[None], z[None], level, method, variant)[0]) if scored else math.nan
        if math.isnan(value):
            with _quiet():
                human_means = np.nanmean(np.where(np.isnan(x), np.nan, z), axis=1)
            if len(m.systems) < 2:
                undefined = "fewer than two systems have a score under this variant"
            elif np.nanmax(human_means) == np.nanmin(human_means):
                undefined = "the humans give every system the same mean score (undefined for every variant)"
            else:
                undefined = "every system has the same mean score under this variant (the correlation is undefined)"
            used, items = [], frozenset()
        else:
            used, items = [d for d in judged.documents if d in set(m.documents)], frozenset(scored)
    unscored_documents = tuple(d for d in judged.documents if d not in set(used) and unscored_by_document.get(d)
                               and d not in human_tied)
    coverage = Coverage(level, judged.documents, tuple(used), len(judged_items), len(items),
                        len(judged_items - scored), unscored_documents, tuple(tied), tuple(human_tied), undefined)
    return coverage, items


def coverage(metric_scores: Scores, human_scores: Scores, level: str = "summary", method: str = "pearson",
             variant: str | None = "b") -> Coverage:
    """Which of the judged documents the metric's correlation at `level` is computed on, and
    why the others are left out."""
    variant = _check_coefficient(level, method, variant)
    return _coverage(metric_scores, human_scores, level, method, variant)[0]


@dataclass(frozen=True)
class RankedMetric:
    """One metric in a MetricRanking: its correlation (with its interval), its coverage and,
    for a ranked metric other than the best, the paired bootstrap of best − this metric."""

    name: str
    correlation: Correlation
    coverage: Coverage
    verdict: str  # BEST, TIED, WORSE, UNTESTED or APART
    difference: float | None = None  # the best's coefficient minus this one's
    low: float | None = None  # percentile interval of that difference
    high: float | None = None
    p_value: float | None = None
    adjusted_p: float | None = None


BEST, TIED, WORSE, UNTESTED, APART = ("best", "indistinguishable from the best", "worse than the best", "not tested",
                                      "not ranked: fewer documents")


@dataclass(frozen=True)
class MetricRanking:
    """Metrics ranked by their correlation with the same human scores, only among those computed
    on the same items (the largest such group covering the most documents); the others are
    kept apart with their coverage. Each ranked metric is tested against the best by the
    paired bootstrap of the difference of the two coefficients (both on the same resamples),
    the p-values adjusted for the comparisons (Holm) and read at α = 1 − confidence / 100."""

    level: str
    method: str
    variant: str | None
    ranked: tuple[RankedMetric, ...]  # best first
    apart: tuple[RankedMetric, ...]  # computed on other (fewer) documents: not ranked
    resamples: int
    seed: int
    confidence: float
    resample: str
    correction: str

    @property
    def alpha(self) -> float:
        return round((100 - self.confidence) / 100, 10)

    @property
    def best(self) -> RankedMetric | None:
        return self.ranked[0] if self.ranked else None

    def tied_with_best(self) -> list[str]:
        return [r.name for r in self.ranked if r.verdict == TIED]

    def test_name(self) -> str:
        """The test against the best in words, with its level α."""
        what = {"documents": "the documents", "systems": "the systems", "both": "systems and documents"}[self.resample]
        adjust = (f", Holm-adjusted over {len(self.ranked) - 1:,} comparisons with the best"
                  if self.correction == "holm" and len(self.ranked) > 2 else "")
        return (f"the paired bootstrap of the difference in {coefficient_name(self.method, self.variant)} over "
                f"{self.resamples:,} resamples of {what}, seed {self.seed}, two-sided{adjust}, α = {self.alpha:g}")

    def summary(self, shown: int = 10) -> str:
        """The conclusion in words: the best, which variants are statistically indistinguishable
        from it (the test named with its level), and how many are not ranked and why."""
        name = coefficient_name(self.method, self.variant)
        apart = ""
        if self.apart:
            apart = (f" Not ranked: {_count(len(self.apart), 'variant')} computed on other or fewer documents "
                     "(listed apart, with why).")
        best = self.best
        if best is None:
            return f"No variant's {self.level}-level {name} is defined on these judgements.{apart}"
        c, cov = best.correlation, best.coverage
        interval = (f" ({c.confidence:g}% interval {c.low:.4f} to {c.high:.4f})"
                    if c.low is not None and not math.isnan(c.low) else "")
        on = f"on {len(cov.documents_used):,} of {_count(len(cov.documents_judged), 'judged document')}"
        top = [r.name for r in self.ranked if r.correlation.value == c.value]
        if len(top) > 1:  # an exact tie at the top: no one of them is the best
            head = (f"Highest {self.level}-level {name}: {c.value:.4f}{interval}, shared by {len(top):,} variants "
                    f"({_listed(top, shown)}), {on}.")
        else:
            head = f"Highest {self.level}-level {name}: {best.name}, {c.value:.4f}{interval}, {on}."
        others = len(self.ranked) - 1
        if not others:
            return f"{head} No other variant is computed on the same documents.{apart}"
        if not self.resamples:
            return (f"{head} Set the resamples above 0 to test which of the other {others:,} ranked variants are "
                    f"statistically indistinguishable from it.{apart}")
        tied, worse = self.tied_with_best(), [r.name for r in self.ranked if r.verdict == WORSE]
        by = f"by {self.test_name()}"
        if not worse:
            verdict = (f"None of the other {others:,} ranked variants is significantly worse {by}: these judgements "
                       "do not single out a best variant.")
        elif not tied:
            verdict = f"Every other ranked variant is significantly worse {by}."
        else:
            verdict = (f"Statistically indistinguishable from it {by}: {_listed(tied, shown)}. Significantly worse: "
                       + (_listed(worse, shown) if len(worse) <= shown else f"the other {len(worse):,}") + ".")
        return f"{head} {verdict}{apart}"


def _listed(names: Sequence[str], shown: int) -> str:
    if len(names) <= shown:
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return ", ".join(names[:shown]) + f" and {len(names) - shown:,} more (marked in the table)"


def rank_metrics(metrics: Mapping[str, Scores], human_scores: Scores, level: str = "summary",
                 method: str = "pearson", variant: str | None = "b", *, resamples: int = 1000, seed: int = 0,
                 confidence: float = 95.0, resample: str = "documents", correction: str = "holm",
                 progress: Progress | None = None, cost_limit=None) -> MetricRanking:
    """Rank metrics by their `level` correlation with the human scores, only among those computed
    on the same items.

    The metrics are grouped by the items their coefficient uses (see `coverage`); the group
    covering the most documents (then the most items, then the most metrics) is ranked, the
    others are kept apart. With `resamples` > 0 every metric gets its bootstrap interval (the
    ranked ones on the same resamples, equal to `correlate`'s) and each ranked metric is tested
    against the best with the paired bootstrap (`bootstrap_difference`'s p-value and interval
    of best − it), the p-values Holm-adjusted (`correction`="holm") or not ("none"), read at
    α = 1 − confidence / 100. The cost of every metric's resamples together is checked against
    `cost_limit` first (None: the default bound)."""
    variant = _check_coefficient(level, method, variant)
    _check_choice(correction, ("holm", "none"), "correction")
    if resamples:
        _check_resampling(resamples, confidence, resample)
        systems, documents = _extent(metrics, human_scores)
        _check_cost(systems, documents, len(metrics), resamples, method, level, resample, cost_limit)
    judged_side = _judged(human_scores)
    covered = {name: _coverage(scores, human_scores, level, method, variant, judged_side)
               for name, scores in metrics.items()}
    groups: dict[tuple, list[str]] = defaultdict(list)
    for name, (cov, items) in covered.items():
        groups[(items, cov.documents_used)].append(name)
    chosen = max(groups.items(), key=lambda g: (len(g[0][1]), len(g[0][0]), len(g[1])), default=(((), ()), []))
    ranked_names = chosen[1] if chosen[0][1] else []
    apart_names = [n for n in metrics if n not in set(ranked_names)]
    total = max(resamples, 1) * (1 + len(apart_names))
    correlations: dict[str, Correlation] = {}
    values: dict[str, np.ndarray] = {}
    if ranked_names:
        matrices = [_matrices(metrics[n], human_scores) for n in ranked_names]
        for n, m in zip(ranked_names, matrices):
            correlations[n] = correlate(metrics[n], human_scores, level, method, variant, cost_limit=_UNBOUNDED)
        if resamples:  # every ranked metric on the same resamples: each interval is correlate()'s
            drawn = _resampled_values([m.arrays[0] for m in matrices], matrices[0].arrays[1], level, method, variant,
                                      resamples, seed, resample,
                                      None if progress is None else (lambda d, t: progress(d, total)))
            for n, v in zip(ranked_names, drawn):
                low, high, undefined = _percentiles(v, confidence)
                correlations[n] = replace(correlations[n], low=low, high=high, confidence=confidence,
                                          resamples=resamples, seed=seed, resample=resample,
                                          undefined_resamples=undefined)
                values[n] = v
    for done, n in enumerate(apart_names, 1):
        part = None if progress is None else (lambda d, t, base=done * resamples: progress(base + d, total))
        correlations[n] = correlate(metrics[n], human_scores, level, method, variant, bootstrap=resamples, seed=seed,
                                    confidence=confidence, resample=resample, progress=part if resamples else None,
                                    cost_limit=_UNBOUNDED)  # checked above, every metric together
    order = sorted(ranked_names, key=lambda n: -correlations[n].value)  # stable: ties keep the metrics' order
    alpha = round((100 - confidence) / 100, 10)
    ranked = []
    if order:
        best = order[0]
        tests = []
        for n in order[1:]:
            if resamples:
                observed = correlations[best].value - correlations[n].value
                tests.append((observed, *_bootstrap_test(values[best] - values[n], observed, confidence)))
            else:
                tests.append((correlations[best].value - correlations[n].value, None, None, None))
        raw = [t[1] for t in tests]
        adjusted = (holm(raw) if correction == "holm" else raw) if resamples else raw
        ranked.append(RankedMetric(best, correlations[best], covered[best][0], BEST))
        for n, (observed, p, low, high), q in zip(order[1:], tests, adjusted):
            verdict = UNTESTED if q is None else TIED if q >= alpha else WORSE
            ranked.append(RankedMetric(n, correlations[n], covered[n][0], verdict, observed, low, high, p, q))
    apart = sorted((RankedMetric(n, correlations[n], covered[n][0], APART) for n in apart_names),
                   key=lambda r: (-len(r.coverage.documents_used),
                                  -(r.correlation.value if not math.isnan(r.correlation.value) else -math.inf)))
    return MetricRanking(level, method, variant, tuple(ranked), tuple(apart), resamples, seed, confidence, resample,
                         correction)


# --- ROUGE variants -------------------------------------------------------------------------------

# The stemmer a profile uses when stemming is on: its tool's own (ROUGE-1.5.5 -m, XL-Sum's Porter); NLTK's Porter stemmer
# (rouge-score's use_stemmer) for the others, whose tools have none.
STEMMER_ON = {"rouge-1.5.5": "rouge155", "multilingual": "xlsum-porter"}  # each tool's own stemmer
DEFAULT_STEMMER_ON = "porter"


@dataclass(frozen=True)
class Variant:
    """One way of computing ROUGE: a profile with stemming off or on."""

    profile: str
    stemmer: str

    @property
    def options(self):
        from ..text.options import profile

        return profile(self.profile, stemmer=self.stemmer)

    @property
    def label(self) -> str:
        return f"{self.profile}, {'no stemming' if self.stemmer == 'none' else self.stemmer + ' stemming'}"


@dataclass(frozen=True)
class VariantScores:
    """Every method's scores under one variant: {method: {(system, pair id): score}} (undefined
    scores left out, as `metric_scores` does), with each method's signature."""

    variant: Variant
    scores: dict[str, dict]
    signatures: dict[str, str]


def score_variants(systems: Mapping[str, Sequence], references: Sequence[Sequence], ids: Sequence[str],
                   methods: Sequence[str], variant_list: Sequence[Variant], measure: str = "fmeasure", *,
                   cost_limit=None, progress: Progress | None = None) -> list[VariantScores]:
    """Every system's candidates scored against the shared references under every variant: the
    numbers of `score_corpus` per system and `metric_scores`, with each distinct text
    tokenized once per variant (the references once for every system) and each pair checked
    against `cost_limit` (None: the default bound) as `score_corpus` checks it.
    `progress(done, total)` follows the (variant, system) steps."""
    from ..corpora.corpus import corpus_signatures
    from ..scorer.cost import Budget, CostLimitError
    from ..families.methods import parse_method
    from ..scorer.scoring import prepare, score_documents

    names = tuple(parse_method(m).name for m in methods)
    pair_ids = [str(i) for i in ids]
    total = len(variant_list) * len(systems)
    out = []
    for v_index, variant in enumerate(variant_list):
        options = variant.options
        documents: dict = {}

        def document(text, what):
            doc = documents.get(text)
            if doc is None:
                doc = documents[text] = prepare(text, options, what, Budget(cost_limit))
            return doc

        scores: dict[str, dict] = {name: {} for name in names}
        for s_index, (system, candidates) in enumerate(systems.items()):
            for pair_id, candidate, refs in zip(pair_ids, candidates, references):
                try:
                    cand = document(candidate, "candidate")
                    ref_docs = [document(r, f"reference {k}") for k, r in enumerate(refs, 1)]
                    result = score_documents(cand, ref_docs, names, options, evidence=False, cost_limit=cost_limit)
                except CostLimitError as exc:
                    raise exc.with_pair(pair_id) from None
                except (TypeError, ValueError) as exc:
                    raise type(exc)(f"pair {pair_id}: {exc}") from None
                for name in names:
                    value = getattr(result.methods[name].score, measure)
                    if not math.isnan(value):
                        scores[name][(system, pair_id)] = value
            if progress is not None:
                progress(v_index * len(systems) + s_index + 1, total)
        signatures = corpus_signatures(names, options, [len(r) for r in references])
        out.append(VariantScores(variant, scores, signatures))
    return out


def variants(profiles: Sequence[str] | None = None, stemming: Sequence[bool] = (False, True)) -> list[Variant]:
    """Every profile (default: all four) with stemming off and / or on."""
    from ..text.options import PROFILES

    chosen = list(PROFILES) if profiles is None else list(profiles)
    unknown = [p for p in chosen if p not in PROFILES]
    if unknown:
        raise ValueError(f"unknown profile(s): {', '.join(unknown)}; profiles are {', '.join(PROFILES)}")
    return [Variant(p, STEMMER_ON.get(p, DEFAULT_STEMMER_ON) if on else "none") for p in chosen for on in stemming]


# --- human judgements ---------------------------------------------------------------------------

@dataclass(frozen=True)
class HumanScore:
    system: str
    doc_id: str
    annotator: str
    aspect: str
    score: float


@dataclass(frozen=True)
class HumanJudgements:
    """Human scores, one per (system, document, annotator, aspect)."""

    rows: tuple[HumanScore, ...]
    source: str = ""
    warnings: tuple[str, ...] = field(default_factory=tuple)
    recognised: str = ""  # the standard format the file was recognised as, and what was read (read_judgements)

    def __len__(self) -> int:
        return len(self.rows)

    def aspects(self) -> list[str]:
        return sorted({r.aspect for r in self.rows})

    def annotators(self, aspect: str | None = None) -> list[str]:
        return sorted({r.annotator for r in self._of(aspect)})

    def systems(self) -> list[str]:
        return sorted({r.system for r in self.rows})

    def documents(self) -> list[str]:
        return sorted({r.doc_id for r in self.rows})

    def _of(self, aspect: str | None) -> list[HumanScore]:
        return [r for r in self.rows if aspect is None or r.aspect == aspect]

    def scores(self, aspect: str | None = None, annotators: Iterable[str] | None = None) -> dict[Key, float]:
        """{(system, doc_id): mean score over the annotators} for one aspect (it must be named
        when there are several: a mean across aspects is no human score)."""
        if aspect is None and len(self.aspects()) > 1:
            raise ValueError(f"these judgements have {len(self.aspects())} aspects ({', '.join(self.aspects())}); "
                             "choose one")
        chosen = None if annotators is None else set(annotators)
        sums: dict[Key, list[float]] = defaultdict(list)
        for r in self._of(aspect):
            if chosen is None or r.annotator in chosen:
                sums[(r.system, r.doc_id)].append(r.score)
        return {key: math.fsum(values) / len(values) for key, values in sums.items()}

    def by_annotator(self, aspect: str | None = None) -> dict[str, dict[Key, float]]:
        """annotator -> {(system, doc_id): score} for one aspect."""
        out: dict[str, dict[Key, float]] = defaultdict(dict)
        for r in self._of(aspect):
            out[r.annotator][(r.system, r.doc_id)] = r.score
        return dict(out)

    def renamed(self, systems: Mapping[str, str]) -> "HumanJudgements":
        """The same judgements with their system names replaced as `systems` says (judgement
        name -> corpus name; names it does not hold are kept)."""
        rows = tuple(replace(r, system=systems.get(r.system, r.system)) for r in self.rows)
        return replace(self, rows=rows)

    def merged(self, other: "HumanJudgements") -> "HumanJudgements":
        source = " + ".join(s for s in (self.source, other.source) if s)
        recognised = " ".join(r for r in (self.recognised, other.recognised) if r)
        return HumanJudgements(self.rows + other.rows, source, self.warnings + other.warnings, recognised)

    def to_frame(self):
        pd = optional.pandas("HumanJudgements.to_frame()")

        return pd.DataFrame([r.__dict__ for r in self.rows], columns=list(HumanScore.__dataclass_fields__))


JUDGEMENT_COLUMNS = {  # column -> other names it may go by (lower case)
    "system": ("system", "system_id", "model", "model_id"),
    "doc_id": ("doc_id", "document", "document_id", "doc", "id", "pair_id"),
    "annotator": ("annotator", "rater", "worker", "judge"),
    "score": ("score", "rating", "value", "human_score"),
    "aspect": ("aspect", "criterion", "dimension", "quality"),
}
OPTIONAL_COLUMNS = ("annotator", "aspect")


def _judgement_columns(columns: Sequence[str], name: str) -> dict[str, str | None]:
    lower = {c.strip().lower(): c for c in columns}
    found: dict[str, str | None] = {}
    for wanted, names in JUDGEMENT_COLUMNS.items():
        found[wanted] = next((lower[n] for n in names if n in lower), None)
    missing = [w for w, c in found.items() if c is None and w not in OPTIONAL_COLUMNS]
    if missing:
        raise CorpusError(f"{name}: no {' and no '.join(missing)} column (found: {', '.join(columns) or 'none'}); "
                          "judgements need the columns system, doc_id and score, and may have annotator and aspect")
    return found


def _cell_text(value, column: str, where: str) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (float, list, dict)):
        kind = "empty" if value is None else type(value).__name__
        raise ValueError(f"{where}: {column} must be a text or a whole number, not {kind} {excerpt(value)}")
    text = str(value).strip()
    if not text:
        raise ValueError(f"{where}: {column} is empty")
    return text


def _cell_score(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{where}: score must be a number, not {excerpt(value)}")
    try:
        number = float(value.strip()) if isinstance(value, str) else float(value)
    except ValueError:
        raise ValueError(f"{where}: score {excerpt(value)} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{where}: score {excerpt(value)} is not a finite number")
    return number


def read_judgements(data: bytes, name: str = "judgements.csv", max_bytes: int | None = DEFAULT_MAX_BYTES, *,
                    format: str = AUTO, include_automatic: bool = False) -> HumanJudgements:
    """Human judgements from a file, its format recognised by its content (`format` "auto", or
    one of rouge_core.corpora.formats.FORMATS, which the content must agree with; gzip-compressed or not):

    * a table (CSV, TSV, JSON lines, JSON): one row per (system, document, annotator[, aspect])
      with its score (JUDGEMENT_COLUMNS);
    * SummEval's model annotations: aspects expert_coherence, …, turker_relevance, the k-th
      annotation of a summary "annotator k";
    * a sacrerouge metrics file: each metric (nested names joined with "_") an aspect, a list
      of numbers one score per annotator; lines of the same summary merged;
    * a REALSumm scores dict (pickle, read without running code, or its JSON conversion):
      litepyramid_recall.

    Automatic metrics' scores in these files (rouge_core.corpora.formats.AUTOMATIC_METRIC) are left out
    and named in `warnings`, unless `include_automatic`. Raises CorpusError listing the
    problems (with line numbers) when a row is unusable; never guesses. The result's
    `recognised` says what format was recognised and what was read."""
    from ..corpora import formats

    unpacked, inner, detected = detect_format(data, name, max_bytes, format)
    if detected.format == formats.TABLE:
        return _judgements_of_table(read_table(unpacked, inner, max_bytes), name, detected)
    if detected.format not in formats.HOLDS_JUDGEMENTS:
        raise CorpusError(f"{name} is {detected.title}: {detected.reason}. It holds summaries, not judgements. "
                          "Load it as the corpus (the Corpus page, or rouge_core.corpora.corpus_io.read_corpus); its "
                          "judgements are in the metrics file sacrerouge writes beside it (metrics.jsonl)")
    try:
        found = formats.read_scores(unpacked, inner, detected.format, max_bytes, MAX_PROBLEMS, include_automatic)
    except InputError as e:
        raise CorpusError(str(e)) from None
    problems = list(found.problems)
    rows: list[HumanScore] = []
    seen: dict[tuple, str] = {}
    for item in found.items:
        if len(problems) >= MAX_PROBLEMS:
            problems.append(f"{name}: stopped after {MAX_PROBLEMS} problems")
            break
        key = (item.system, item.document, item.annotator, item.aspect)
        if key in seen:
            who = f", {item.annotator}" if item.annotator else ""
            problems.append(f"{item.where}: system {item.system}, document {item.document}{who}, {item.aspect} "
                            f"already has a score ({seen[key]})")
            continue
        seen[key] = item.where
        rows.append(HumanScore(item.system, item.document, item.annotator, item.aspect, item.value))
    if problems:
        raise CorpusError(problems)
    left_out = (f"{len(found.left_out):,} automatic metric(s) left out: {formats.listed(list(found.left_out))} "
                "(metrics' scores, not human judgements; they are read when asked for)",) if found.left_out else ()
    if not rows:
        if found.left_out:
            raise CorpusError(f"{name} ({detected.title}) holds no human judgements, only automatic metrics' scores "
                              f"({formats.listed(list(found.left_out))}); read them anyway by asking for automatic "
                              "metrics too")
        raise CorpusError(f"{name}: no judgements found ({detected.title}; {'; '.join(found.skipped) or 'no scores'})")
    judgements = HumanJudgements(tuple(rows), name, (*found.skipped, *left_out))
    aspects = judgements.aspects()
    described = formats.listed([f"{a} ({found.annotators[a]} annotator{'s' if found.annotators[a] != 1 else ''})"
                                if found.annotators.get(a, 0) > 1 else a for a in aspects], 12)
    recognised = (f"Recognised {detected.title}: {detected.reason}. Read {len(rows):,} scores from {found.records:,} "
                  f"records, {len(judgements.systems()):,} systems × {len(judgements.documents()):,} documents; "
                  f"aspects: {described}.")
    return replace(judgements, recognised=recognised)


def _judgements_of_table(table, name: str, detected) -> HumanJudgements:
    """Judgements from a table's rows (one per system, document, annotator[, aspect])."""
    try:
        columns = _judgement_columns(table.columns, name)
    except CorpusError as e:
        if table.unit == "line" or table.unit == "item":  # JSON records: say which formats they are not
            raise CorpusError([*e.problems, f"{name} is no standard format either: {detected.reason}"]) from None
        raise
    rows: list[HumanScore] = []
    problems: list[str] = []
    seen: dict[tuple, int] = {}
    for record, line in zip(table.rows, table.lines):
        where = f"{name} {table.unit} {line}"
        try:
            system = _cell_text(record.get(columns["system"]), "system", where)
            doc_id = _cell_text(record.get(columns["doc_id"]), "doc_id", where)
            annotator = _cell_text(record.get(columns["annotator"]), "annotator", where) if columns["annotator"] else ""
            aspect = ""
            if columns["aspect"] and record.get(columns["aspect"]) not in (None, ""):
                aspect = _cell_text(record.get(columns["aspect"]), "aspect", where)
            score = _cell_score(record.get(columns["score"]), where)
        except ValueError as e:
            problems.append(str(e))
        else:
            key = (system, doc_id, annotator, aspect)
            if key in seen:
                who = f", annotator {annotator}" if annotator else ""
                what = f", aspect {aspect}" if aspect else ""
                problems.append(f"{where}: system {system}, document {doc_id}{who}{what} already has a score "
                                f"({table.unit} {seen[key]})")
            else:
                seen[key] = line
                rows.append(HumanScore(system, doc_id, annotator, aspect, score))
        if len(problems) >= MAX_PROBLEMS:
            problems.append(f"{name}: stopped after {MAX_PROBLEMS} problems")
            break
    if problems:
        raise CorpusError(problems)
    if not rows:
        raise CorpusError(f"{name}: no judgements (the file has a header but no rows)")
    return HumanJudgements(tuple(rows), name, table.warnings)


# --- judgement systems -> corpus systems -----------------------------------------------------------

EXACT, SUFFIX, CHOSEN = "exact name", "column suffix", "chosen"


def column_suffix(name: str) -> str | None:
    """The system part of a candidate column's name as the corpus loader recognises such columns
    (rouge_core.corpora.corpus_io.CANDIDATE_PATTERN; a corpus names each system after its column):
    "candidate_M0" -> "M0", "prediction-gpt" -> "gpt"; None for "candidate" or another name."""
    match = CANDIDATE_PATTERN.match(name.strip())
    suffix = match.group(2)[1:].strip() if match and match.group(2) else ""
    return suffix or None


@dataclass(frozen=True)
class SystemMatch:
    """Which corpus system each system named by the judgements is."""

    mapping: dict[str, str]  # judgement system -> corpus system
    how: dict[str, str]  # judgement system -> EXACT, SUFFIX or CHOSEN
    unmatched: tuple[str, ...]  # judgement systems that are no corpus system
    unjudged: tuple[str, ...]  # corpus systems no judgement names
    ambiguous: dict[str, tuple[str, ...]] = field(default_factory=dict)  # judgement system -> corpus systems with its suffix

    @property
    def renames(self) -> dict[str, str]:
        """The judgement systems whose corpus name differs from theirs."""
        return {j: c for j, c in self.mapping.items() if j != c}


def match_systems(judged: Iterable[str], corpus_systems: Sequence[str],
                  chosen: Mapping[str, str | None] | None = None) -> SystemMatch:
    """Match the judgements' system names to the corpus's: first a choice made (`chosen`:
    judgement system -> corpus system, or None for "not in this corpus"), then the exact
    name, then the corpus system whose column suffix (`column_suffix`) is the name, when only
    one has it and no judgement system names that corpus system exactly. A corpus system is
    matched at most once: two judgement systems chosen for one raise ValueError."""
    judged = _sorted(judged)
    corpus = list(corpus_systems)
    chosen = dict(chosen or {})
    unknown = sorted({c for c in chosen.values() if c is not None and c not in corpus}, key=str)
    if unknown:
        raise ValueError(f"not a system of this corpus: {', '.join(unknown)}")
    mapping: dict[str, str] = {}
    how: dict[str, str] = {}
    for j in judged:
        if j in chosen:
            if chosen[j] is not None:
                mapping[j], how[j] = chosen[j], CHOSEN
        elif j in corpus:
            mapping[j], how[j] = j, EXACT
    taken: dict[str, list[str]] = defaultdict(list)
    for j, c in mapping.items():
        taken[c].append(j)
    clashes = {c: js for c, js in taken.items() if len(js) > 1}
    if clashes:
        raise ValueError("; ".join(f"{' and '.join(js)} are both matched to the corpus system {c}"
                                   for c, js in sorted(clashes.items())) + ": each corpus system is one system")
    by_suffix: dict[str, list[str]] = defaultdict(list)
    for c in corpus:
        if (suffix := column_suffix(c)) is not None:
            by_suffix[suffix].append(c)
    ambiguous: dict[str, tuple[str, ...]] = {}
    for j in judged:
        if j in mapping or j in chosen:
            continue
        candidates = [c for c in by_suffix.get(j, []) if c not in taken]
        if len(candidates) == 1:
            mapping[j], how[j] = candidates[0], SUFFIX
            taken[candidates[0]].append(j)
        elif len(candidates) > 1:
            ambiguous[j] = tuple(candidates)
    return SystemMatch(mapping, how, tuple(j for j in judged if j not in mapping),
                       tuple(c for c in corpus if c not in taken), ambiguous)


def metric_scores(results: Mapping[str, object], method: str, measure: str = "fmeasure") -> dict[Key, float]:
    """{(system, pair id): score} of one method from scored systems ({system: CorpusResult});
    undefined (NaN) scores are left out."""
    out: dict[Key, float] = {}
    for system, result in results.items():
        for pair_id, value in zip(result.ids, result.values(method, measure)):
            if not math.isnan(value):
                out[(system, pair_id)] = value
    return out


def paired_items(metric_scores: Scores, human_scores: Scores) -> list[tuple[Hashable, Hashable, float, float]]:
    """(system, doc_id, metric score, human score) of every item both maps score, sorted."""
    m = _matrices(metric_scores, human_scores)
    x, z = m.arrays
    return [(s, d, float(x[i, j]), float(z[i, j])) for i, s in enumerate(m.systems) for j, d in enumerate(m.documents)
            if not math.isnan(x[i, j])]
