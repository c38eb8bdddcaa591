"""`rouge_score.io`: score target and prediction files and write the scores to a CSV file.

`compute_scores_and_write_to_csv(target_filepattern, prediction_filepattern, output_filename,
scorer, aggregator, delimiter="\\n")` behaves as rouge-score's: the two glob patterns must
match the same (positive) number of files, paired in sorted order; each file holds records
separated by `delimiter` (a final delimiter is expected; without one a warning is logged and
the last record is kept); the pair's files must hold as many records. With an aggregator the
CSV has one line per score type and measure (`score_type,low,mid,high`, lines `rouge1-R`,
`rouge1-P`, `rouge1-F`, ... by sorted type); without, one line per record
(`id,rouge1-P,rouge1-R,rouge1-F,...`). Numbers are written with `%f`.
"""

from __future__ import annotations

import glob
import logging

from ...text.textio import decode_bytes

__all__ = ["compute_scores_and_write_to_csv"]

log = logging.getLogger(__name__)


def compute_scores_and_write_to_csv(target_filepattern, prediction_filepattern, output_filename, scorer, aggregator,
                                    delimiter="\n"):
    """Score every record of the prediction files against the target files' and write a CSV."""
    targets = glob.glob(target_filepattern)
    predictions = glob.glob(prediction_filepattern)
    if not targets or len(targets) != len(predictions):
        raise ValueError(
            "Must have equal and positive number of target and prediction files. Found: %d target files (%s), "
            "%d prediction files (%s)." % (len(targets), target_filepattern, len(predictions), prediction_filepattern))
    scores = _score_files(sorted(targets), sorted(predictions), scorer, delimiter)
    if aggregator:
        for score in scores:
            aggregator.add_scores(score)
        _write_aggregates(output_filename, aggregator.aggregate())
    else:
        _write_scores(output_filename, scores)


def _records(filename, delimiter) -> list[str]:
    with open(filename, "rb") as handle:
        # Line ends as Python's text mode reads them (rouge-score opens files that way).
        text = decode_bytes(handle.read(), filename).replace("\r\n", "\n").replace("\r", "\n")
    records = text.split(delimiter.decode("utf-8") if isinstance(delimiter, bytes) else delimiter)
    if records[-1]:
        log.warning("Expected delimiter at end of file %s", filename)
    else:
        records.pop()
    return records


def _score_files(target_files, prediction_files, scorer, delimiter) -> list[dict]:
    scores = []
    for target_file, prediction_file in zip(target_files, prediction_files):
        targets, predictions = _records(target_file, delimiter), _records(prediction_file, delimiter)
        if len(targets) != len(predictions):
            raise ValueError(
                "Must have equal number of lines across target and prediction files. Mismatch between files: "
                "%s, %s." % (target_file, prediction_file))
        scores.extend(scorer.score(t, p) for t, p in zip(targets, predictions))
    return scores


def _write_aggregates(output_filename, aggregates) -> None:
    with open(output_filename, "w", encoding="utf-8") as out:
        out.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            for letter, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                low, mid, high = (getattr(bound, field) for bound in aggregate)
                out.write("%s-%s,%f,%f,%f\n" % (score_type, letter, low, mid, high))


def _write_scores(output_filename, scores) -> None:
    if not scores:
        log.warning("No scores to write")
        return
    rouge_types = sorted(scores[0])
    with open(output_filename, "w", encoding="utf-8") as out:
        out.write("id" + "".join(f",{t}-P,{t}-R,{t}-F" for t in rouge_types) + "\n")
        for i, result in enumerate(scores):
            out.write("%d" % i + "".join(",%f,%f,%f" % tuple(result[t]) for t in rouge_types) + "\n")
