"""ROUGE-1.5.5 without Perl: the command line (`main`) and the same evaluation as data
(`evaluate`)."""

from .api import evaluate
from .cli import main
from .errors import Rouge155Error
from .results import DocumentScore, Estimate, MetricResult, Report

__all__ = ["evaluate", "main", "Rouge155Error", "Report", "MetricResult", "DocumentScore", "Estimate"]
