"""A call's texts as Documents, each tokenized once: `prepare` (one text, a Document or a
token list), `prepare_pair` (a candidate and its references), with the checks that name a
bad argument ("candidate", "reference 2") before any scoring.

Below the cost guard and scoring: a call's budget (rouge_core.scorer.cost.Budget) is handed in and
asked to charge each text's tokenizing before it runs (`Budget.precheck_texts`,
`Budget.read_compiled`, `Budget.tokenizing_check`), so the guard, which tokenizes texts to
estimate them (`cost.estimate_texts`), and scoring both build on this module."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..kernels import native
from ..text.document import Document, pretokenized
from ..text.tokenize import text_scorer, text_tokenizer, tokenize_with

if TYPE_CHECKING:
    from .cost import Budget
    from ..text.options import Options

__all__ = ["TextLike", "check_tokens", "check_unicode", "prepare", "prepare_pair"]

TextLike = str | Document | Sequence[str]


def prepare(text: TextLike, options: "Options", what: str = "text", budget: "Budget | None" = None) -> Document:
    """Tokenize once per text; a Document or a token list passes through as given.

    `what` names the argument in error messages ("candidate", "reference 2"): a string
    that is not valid Unicode (a lone surrogate), a token that is not a string, or a value
    of another type is refused here, not deep inside scoring. `budget`, the call's cost
    budget (rouge_core.scorer.cost.Budget), is charged the tokenizing before it runs (None: not
    bounded)."""
    if type(text) is str:  # the common case first
        if native.active():
            fast = _compiled_tokenizers(options)[0]
            if fast is not None:
                doc = fast(text) if budget is None else budget.read_compiled(what, text, options, fast)
                if doc is not None:
                    return doc
        if not text.isascii():
            check_unicode(text, what)
        return tokenize_with(text, *options.tokenize_key(), check=_check(budget, what, text, options))
    if isinstance(text, Document):
        return text
    if isinstance(text, str):
        if not text.isascii():
            check_unicode(text, what)
        return tokenize_with(text, *options.tokenize_key(), check=_check(budget, what, text, options))
    if isinstance(text, (list, tuple)):
        check_tokens(text, what)
        return pretokenized(text, lowercase=options.lowercase and options.tokenizer != "whitespace")
    raise TypeError(f"{what} must be a string, a list of tokens, a list of sentences (lists of tokens) "
                    f"or a Document, not {type(text).__name__}")

def _check(budget: "Budget | None", what: str, text: str, options: "Options"):
    """The check `tokenize_with` calls once the words are split (None when not bounded)."""
    return None if budget is None else budget.tokenizing_check(what, text, options)


_last_compiled: tuple = (None, None, (None, None))  # the last (kernels, options) and their compiled tokenizers


def _compiled_tokenizers(options: "Options") -> tuple:
    """(tokenize.text_tokenizer, tokenize.text_scorer) for these options on the kernels in
    use, kept for the next call (same options)."""
    global _last_compiled
    last_kernels, last_options, fast = _last_compiled
    kernels = native.KERNELS  # kept with them: a switch of paths (native.pure()) makes them again
    if options is not last_options or kernels is not last_kernels:
        key = options.tokenize_key()
        fast = (text_tokenizer(kernels, *key), text_scorer(kernels, *key))
        _last_compiled = (kernels, options, fast)
    return fast


def check_unicode(text: str, what: str) -> None:
    """ValueError when `text` holds a lone surrogate (not valid Unicode: it cannot be encoded,
    compared or written out as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} is not valid Unicode text: a lone surrogate U+{ord(text[exc.start]):04X} "
                         f"at character {exc.start + 1}") from None


def check_tokens(tokens: Sequence, what: str) -> None:
    """TypeError naming the first item of a pre-tokenized text that is not a token string
    (a flat list of strings, or a list of sentences that are lists of strings)."""
    if all(type(t) is str for t in tokens):
        return
    flat = any(isinstance(t, str) for t in tokens)
    for i, item in enumerate(tokens, 1):
        if isinstance(item, str):
            continue
        if flat or not isinstance(item, (list, tuple)):
            if flat:
                raise TypeError(f"{what}: token {i} is {_kind(item)}, not a string (a pre-tokenized text is a list "
                                "of token strings, or a list of sentences that are lists of token strings)")
            raise TypeError(f"{what}: sentence {i} is {_kind(item)}, not a list of token strings")
        for k, tok in enumerate(item, 1):
            if not isinstance(tok, str):
                raise TypeError(f"{what}: sentence {i}, token {k} is {_kind(tok)}, not a string")


def _kind(value) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def prepare_pair(candidate: TextLike, references: TextLike | Sequence[TextLike], options: "Options",
                 budget: "Budget | None" = None) -> tuple[Document, tuple[Document, ...]]:
    """A candidate and its references tokenized once under `options`; one reference may be
    given alone (a text, a Document, or, beside a token-list candidate, a token list).
    `budget`: the call's cost budget, charged each text's tokenizing before it runs."""
    if isinstance(references, (str, Document)):
        references = [references]
    elif not isinstance(references, (list, tuple)):
        raise TypeError(f"references must be a text or a list of texts, not {type(references).__name__}")
    elif not isinstance(candidate, (str, Document)) and references and all(isinstance(t, str) for t in references):
        references = [references]  # a single pre-tokenized reference
    if budget is not None:  # every text estimated before the first one is tokenized
        budget.precheck_texts([("candidate", candidate),
                               *((f"reference {i}", r) for i, r in enumerate(references, 1))], options)
    cand_doc = prepare(candidate, options, "candidate", budget)
    if len(references) == 1:  # the common case, without the generator
        return cand_doc, (prepare(references[0], options, "reference 1", budget),)
    return cand_doc, tuple(prepare(r, options, f"reference {i}", budget) for i, r in enumerate(references, 1))
