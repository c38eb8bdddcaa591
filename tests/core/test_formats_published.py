"""REALSumm's released judgements (Bhandari et al. 2020, CC BY 4.0), when you have them: not
bundled, so these tests run only with ROUGE_LENS_REALSUMM set to a folder holding REALSumm's
scores_dicts/abs.pkl and ext.pkl (https://github.com/neulab/REALSumm):

    ROUGE_LENS_REALSUMM=/path/to/REALSumm/scores_dicts python -m pytest tests/core/test_formats_published.py

The expected numbers were computed from the same files with REALSumm's own analysis code
(analysis/utils.py: get_system_level_scores, then scipy.stats.kendalltau of the system means),
on the pickles loaded with pickle.load; ROUGE Lens reads them without unpickling."""

import os
from pathlib import Path

import pytest

from rouge_core.corpora import corpus_io
from rouge_core.studies import meta
from rouge_core import profile, score_corpus

FOLDER = os.environ.get("ROUGE_LENS_REALSUMM")
pytestmark = pytest.mark.skipif(not FOLDER, reason="set ROUGE_LENS_REALSUMM to REALSumm's scores_dicts folder")

# split: (systems, REALSumm's system-level Kendall tau of its stored ROUGE-1 recall and ROUGE-2 recall with
# LitePyramid recall, summaries whose ROUGE-1 recall ROUGE Lens recomputes exactly (ROUGE-1.5.5 -m) of all)
EXPECTED = {
    "abs": (14, 0.5384615384615384, 0.8681318681318682, 1255, 1400),
    "ext": (11, 0.5636363636363636, 0.4909090909090909, 979, 1100),
}


@pytest.mark.parametrize("split", sorted(EXPECTED))
def test_realsumm_system_level_correlations_from_its_own_files(split):
    systems, tau_r1, tau_r2, exact, total = EXPECTED[split]
    data = (Path(FOLDER) / f"{split}.pkl").read_bytes()
    corpus = corpus_io.read_corpus(data, f"{split}.pkl")
    assert len(corpus) == 100 and len(corpus.systems) == systems
    judgements = meta.read_judgements(data, f"{split}.pkl", include_automatic=True)
    human = judgements.scores("litepyramid_recall")
    assert len(human) == total
    for stored, expected in (("rouge_1_recall", tau_r1), ("rouge_2_recall", tau_r2)):
        assert meta.correlate(judgements.scores(stored), human, "system", "kendall", "b").value == pytest.approx(
            expected, abs=1e-12)

    # ROUGE Lens's own ROUGE-1 recall from the texts: REALSumm's stored value exactly (it prints 5 decimals) for
    # the summaries whose reference REALSumm tokenised as the scores dict's ref_summ; REALSumm scored each system
    # against its own tokenisation of the reference, which differs for the others ("4pm" / "4 pm", ...).
    results = {s: score_corpus(list(c), list(corpus.references), ["rouge1"], profile("rouge-1.5.5", stemmer="rouge155"),
                               ids=list(corpus.ids)) for s, c in corpus.systems.items()}
    ours = meta.metric_scores(results, "rouge1", "recall")
    stored = judgements.scores("rouge_1_recall")
    assert sum(abs(round(ours[k], 5) - stored[k]) < 1e-9 for k in stored) == exact
    assert meta.correlate(ours, human, "system", "kendall", "b").value == pytest.approx(tau_r1, abs=1e-12)
