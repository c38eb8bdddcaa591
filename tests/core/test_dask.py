import pandas as pd
import pytest

pytest.importorskip("dask.distributed")

from rouge_core.corpora.corpus import score_corpus
from rouge_core.corpora.dask_support import corpus_result_from_stats, paired_significance, score_dataframe_dask
from rouge_core.corpora import significance

METHODS = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def frame(shift=0):
    return pd.DataFrame({
        "candidate": [f"the cat {i} sat on the mat\nit slept {(i + shift) % 4}" for i in range(30)],
        "ref1": [f"a cat {i} was on the mat\nit slept" for i in range(30)],
        "ref2": ["the mat had a cat"] * 30,
    })


def test_dask_partitions_give_the_single_process_numbers():
    from dask.distributed import Client, LocalCluster

    df = frame()
    refs = [[a, b] for a, b in zip(df.ref1, df.ref2)]
    serial = score_corpus(list(df.candidate), refs, METHODS, "rouge-score")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, Client(cluster) as client:
        stats = score_dataframe_dask(df, METHODS, "rouge-score", references=["ref1", "ref2"], npartitions=3, client=client)
        stats_b = score_dataframe_dask(frame(1), METHODS, "rouge-score", references=["ref1", "ref2"], npartitions=3, client=client)
    assert list(stats.index) == list(df.index)
    result = corpus_result_from_stats(df, stats, METHODS, "rouge-score", references=["ref1", "ref2"])
    for m in METHODS:
        assert result.values(m, "fmeasure") == serial.values(m, "fmeasure")
        assert result.values(m, "recall") == serial.values(m, "recall")
    assert result.macro() == serial.macro() and result.micro() == serial.micro()
    assert result.bootstrap(200, seed=3) == serial.bootstrap(200, seed=3)
    got = paired_significance(stats, stats_b, "rougeL", resamples=200, seed=1)
    b_serial = score_corpus(list(frame(1).candidate), refs, METHODS, "rouge-score")
    assert got == significance.paired_bootstrap(serial.values("rougeL"), b_serial.values("rougeL"), resamples=200, seed=1)


def test_a_cluster_of_worker_processes_gives_the_one_process_numbers_to_the_bit():
    """Several worker processes (a distributed LocalCluster), partitions as chunks: per-pair
    numbers, macro, micro and bootstrap intervals equal score_corpus's in one process."""
    from dask.distributed import Client, LocalCluster

    df = frame(2)
    df.loc[3, "ref1"], df.loc[3, "ref2"] = "", ""  # a pair without references: no statistics
    refs = [[r for r in (a, b) if r] for a, b in zip(df.ref1, df.ref2)]
    methods = [*METHODS, "rougeW-1.2"]
    serial = score_corpus(iter(df.candidate), iter(refs), methods, "rouge-score", chunk_size=7)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        stats = score_dataframe_dask(df, methods, "rouge-score", references=["ref1", "ref2"], npartitions=4,
                                     client=client)
    result = corpus_result_from_stats(df, stats, methods, "rouge-score", references=["ref1", "ref2"])
    for m in methods:
        for measure in ("precision", "recall", "fmeasure"):
            assert result.array(m, measure).tobytes() == serial.array(m, measure).tobytes()
    assert repr(result.macro()) == repr(serial.macro()) and repr(result.micro()) == repr(serial.micro())
    assert repr(result.bootstrap(50, seed=7)) == repr(serial.bootstrap(50, seed=7))
