"""Example corpora with real texts: the two samples that ship with ROUGE-1.5.5's tests (SL2003:
8 systems × 25 documents, 4 models each; DUC 2002: system 26 × 59 documents, 1 model each),
and human-style judgements of the SL2003 sample for the annotators page.

The data is a compact copy in lens_app/data/sample_corpora/ (made by
bench/build_sample_corpora.py with rouge_core's SEE / SPL readers; its README gives the
source, release and provenance). A sample is read like an uploaded JSON lines file, by
rouge_core.corpora.corpus_io, so it becomes the same Corpus an upload of that file would: systems
named by their ROUGE-1.5.5 peer ids, the models as references, the documents' names as ids.
No Streamlit here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from rouge_core.errors import excerpt
from rouge_core.corpora import corpus_io
from rouge_core.studies import meta

DATA_DIR = Path(__file__).resolve().parent / "data" / "sample_corpora"
RELEASE = "ROUGE-1.5.5 (Chin-Yew Lin, USC Information Sciences Institute, 2005), folder sample-test/"
_LICENCE = ("Redistributed with that release without a licence of its own (see lens_app/data/sample_corpora/"
            "README.md).")
_EXACT = ("The texts are the sentences ROUGE-1.5.5 reads: under the rouge-1.5.5 profile every document scores as in "
          "the script (its ROUGE-L is rougeLsum), and resampled its way (the averages it prints are means of 1,000 "
          "bootstrap resamples, not the macro mean) they give every average of the release's `sample-output/{output}`.")


@dataclass(frozen=True)
class SampleCorpus:
    key: str
    title: str  # what the choice and the loaded corpus are called
    file: str  # JSON lines in DATA_DIR, one document per line
    systems: tuple[str, ...]  # the candidate columns, named by ROUGE-1.5.5's peer ids
    summary: str  # what it holds, in a sentence
    provenance: str  # where it comes from (Markdown without user text)
    judgements: str | None = None  # a judgements file in DATA_DIR for the annotators page

    @property
    def path(self) -> Path:
        return DATA_DIR / self.file


SAMPLES: tuple[SampleCorpus, ...] = (
    SampleCorpus(
        "sl2003",
        "ROUGE-1.5.5 sample SL2003 (8 systems × 25 documents)",
        "sl2003.jsonl",
        ("11", "12", "13", "14", "21", "22", "23", "24"),
        "8 systems (peers 11–14 and 21–24) summarise 25 documents (SL062003-01 … 25) in about ten words "
        "(headlines, keyword lists); each document has 4 human models (A–D) as references.",
        f"Source: the SL2003 sample of {RELEASE}, paired as its ROUGE-test.xml pairs them (SEE files; the release "
        f"says nothing more of their origin). {_LICENCE} " + _EXACT.format(output="ROUGE-test-*.out"),
        "sl2003_judgements.csv",
    ),
    SampleCorpus(
        "duc2002",
        "ROUGE-1.5.5 sample DUC 2002 (system 26 × 59 documents)",
        "duc2002.jsonl",
        ("26",),
        "One DUC 2002 system (peer 26) summarises 59 document sets (D061 … D120) in about 100 words; each has one "
        "human model as its reference (\"1 system and 1 model only per DUC 2002 topic\", the release's README).",
        f"Source: the DUC 2002 sample of {RELEASE}, paired as its DUC2002-ROUGE.in.26.spl.xml pairs them (one "
        "sentence per line, tokenised by DUC: -LRB- is a bracket): data of NIST's Document Understanding Conference "
        f"2002. {_LICENCE} " + _EXACT.format(output="DUC2002-ROUGE.in.26.spl.out"),
    ),
)
DEFAULT_SAMPLE = SAMPLES[0]

JUDGEMENTS_PROVENANCE = (
    "Rated by a ROUGE Lens developer for this demo, one rater, not NIST/DUC assessments. Each of the 200 SL2003 "
    "peer summaries was read against its document's 4 models and given a 1–5 content-coverage score (5: names the "
    "models' subject and states their event; 1: none of it), by the written rules in "
    "lens_app/data/sample_corpora/README.md. There are no public human judgements of this sample; use these to try "
    "the page, not to draw conclusions."
)


def get_sample(key: str) -> SampleCorpus:
    for sample in SAMPLES:
        if sample.key == key:
            return sample
    raise KeyError(f"no sample corpus {excerpt(key)}; known: {', '.join(s.key for s in SAMPLES)}")


@functools.lru_cache(maxsize=None)
def load_sample(key: str) -> corpus_io.Corpus:
    """The sample as a Corpus: ids are the documents' names, one system per ROUGE-1.5.5 peer,
    the document's models (in the configuration's order) as its references."""
    sample = get_sample(key)
    table = corpus_io.read_jsonl(sample.path.read_bytes(), sample.title)
    return corpus_io.build_corpus(table, corpus_io.ColumnMapping("id", sample.systems, ("references",)))


def sample_of(corpus: corpus_io.Corpus | None) -> SampleCorpus | None:
    """The sample this corpus is (the same pairs, whichever way it was loaded), else None.
    Asked on every run of the corpus pages: the ids tell most corpora apart before any text
    is compared."""
    if corpus is None:
        return None
    for sample in SAMPLES:
        loaded = load_sample(sample.key)
        if corpus.ids == loaded.ids and corpus.systems == loaded.systems and corpus.references == loaded.references:
            return sample
    return None


def judgements_bytes(key: str) -> bytes:
    sample = get_sample(key)
    if sample.judgements is None:
        raise KeyError(f"the sample corpus {excerpt(key)} has no judgements")
    return (DATA_DIR / sample.judgements).read_bytes()


@functools.lru_cache(maxsize=None)
def load_judgements(key: str) -> meta.HumanJudgements:
    """The sample's judgements, read as an imported judgements file is (rouge_core.studies.meta)."""
    return meta.read_judgements(judgements_bytes(key), get_sample(key).judgements)
