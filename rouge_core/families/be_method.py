"""What names ROUGE-BE, below the registry that refers to it: its modes, its method record
and the check of a mode. `rouge_core.families.methods` (which points `ROUGE-BE-HM` to
`score_basic_elements`) and `rules155` (the script's `-3` metric) read these; the scoring of
BE files is `rouge_core.scorer.basic_elements`, which builds on `scoring` and re-exports them."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import excerpt
from ..stats import F_MEASURE
from ..text.options import Options

__all__ = ["BE_MODES", "BasicElementError", "BasicElementMethod", "check_mode"]

BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")


class BasicElementError(ValueError):
    """A BE text that is not one `head|modifier|relation` triple per line, or a bad mode."""


@dataclass(frozen=True)
class BasicElementMethod:
    """ROUGE-BE in one mode, in the shape scoring's records and signatures expect of a method."""

    mode: str
    family: str = "BE"
    counts_ngrams: bool = True  # -f B compares rounded recall, as for ROUGE-N

    def __post_init__(self) -> None:
        check_mode(self.mode)

    @property
    def name(self) -> str:
        return f"rougeBE-{self.mode}"

    @property
    def rouge155_name(self) -> str:
        return f"ROUGE-BE-{self.mode}"

    @property
    def spec(self) -> "_BasicElementFamily":
        return _BASIC_ELEMENTS


class _BasicElementFamily:
    """What signatures and scoring ask of a method's family. BE units are lower-cased whatever
    the options, and the mode is in the method's name, so no option adds to the signature; F is
    the options' (rouge_core.stats.F_MEASURE)."""

    f_rule = F_MEASURE

    @staticmethod
    def signature_parts(options: Options) -> list[str]:
        return []


_BASIC_ELEMENTS = _BasicElementFamily()


def check_mode(mode: str) -> str:
    if mode not in BE_MODES:
        raise BasicElementError(f"unknown Basic Element mode {excerpt(mode)}; choose one of {', '.join(BE_MODES)}")
    return mode
