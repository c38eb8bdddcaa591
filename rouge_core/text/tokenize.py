"""The tokenization pipeline: text -> Document, as every profile's tool does it.

Order of work, as in ROUGE-1.5.5: split into sentences and words, lower-case, drop
stopwords, stem; `-l` / `-b` limits cut the text first. The pieces live in their own modules
(words, stemming, stopwords, sentences, document); this module puts them together, with a
fast path for the common tokenizers that builds Token objects only when someone asks.
"""

from __future__ import annotations

import os
import threading
from array import array
from dataclasses import fields, replace
from functools import cached_property
from typing import Callable

from ..kernels import kernel_spec, native
from .document import Document, Token
from .limits import limit_spans, perl_lcs_byte_spans
from .sentences import split_sentences
from .stemming import STEM_CACHE_SIZE, get_stemmer, remember_cache
from .stopwords import get_stopwords
from .words import splitter, word_splitter


def tokenize(
    text: str,
    *,
    tokenizer="rouge-score",
    lowercase: bool = True,
    stemmer: str = "none",
    stopwords: str | frozenset | None = "none",
    sentence_split: str = "newline",
    data_dir: str | None = None,
    limit_words: int | None = None,
    limit_bytes: int | None = None,
    lcs_byte_limit_defect: bool = False,
    language: str | None = None,
    strip_diacritics: bool = False,
) -> Document:
    """Tokenize `text` into a Document whose tokens keep their character offsets.

    Order of work, as in ROUGE-1.5.5: split into words, lower-case, drop stopwords, stem.
    `limit_words` / `limit_bytes` keep only the start of the text (ROUGE-1.5.5 `-l` / `-b`).
    With `lcs_byte_limit_defect`, the Document also carries `lcs_view`, the differently cut
    sentences ROUGE-1.5.5's ROUGE-L/W reader uses under `-b`. `tokenizer` is a name
    (rouge_core.text.words.TOKENIZERS) or the user's function; `language` and `strip_diacritics`
    refine the Unicode tokenizers (see Options).
    """
    from .languages import canonical

    tokenizer = word_splitter(tokenizer, canonical(language), strip_diacritics)
    return tokenize_with(text, tokenizer, lowercase, stemmer, stopwords, sentence_split, data_dir, limit_words,
                         limit_bytes, lcs_byte_limit_defect)


def tokenize_with(text: str, tokenizer: str, lowercase: bool, stemmer: str, stopwords, sentence_split: str,
                  data_dir: str | None, limit_words: int | None, limit_bytes: int | None,
                  lcs_byte_limit_defect: bool, *, check: Callable | None = None) -> Document:
    """`tokenize` with its settings in the order of `Options.tokenize_key()` (scoring calls
    it once per text, so it skips the keyword handling). `check(words, distinct)`, when
    given, is called once the words are split and before they are stemmed, with how many words
    there are and a function counting the distinct ones (None when no stemmer needs them): the
    call's cost check (rouge_core.scorer.cost.tokenizing_check), which raises to stop here."""
    splitter(tokenizer)  # an unknown name fails here, before any work
    if sentence_split == "newline" and not limit_words and not limit_bytes:
        fast = _lazy_document(text, None, tokenizer, lowercase, stemmer, stopwords, data_dir, check)
        if fast is not None:
            return fast
    spans = split_sentences(text, sentence_split)
    lcs_view = None
    if limit_bytes and not limit_words and lcs_byte_limit_defect:  # a word limit wins, as in limit_spans
        lcs_spans = perl_lcs_byte_spans(text, spans, limit_bytes)
        lcs_view = _tokenize_spans(text, lcs_spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check)
    spans = limit_spans(text, spans, words=limit_words, byte_limit=limit_bytes)
    if lcs_view is None:
        fast = _lazy_document(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check)
        if fast is not None:
            return fast
    if lcs_view is not None:  # ROUGE-1.5.5's -b view: both Documents eager
        doc = _tokenize_spans(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check)
        return replace(doc, lcs_view=lcs_view)
    return _split_document(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check)


def term_filter(stemmer: str, stopwords, data_dir: str | None):
    """What becomes of a word after the tokenizer: a function term -> the term kept (stemmed)
    or None (a stopword, or a stem left empty: "a stemmer that leaves nothing leaves no token"),
    computed once per distinct word (a dict per call in front of the stemmer's own cache,
    rouge_core.text.stemming.get_stemmer); None when nothing changes words. Every path applies this,
    once per word type."""
    keep_word = word_filter(stemmer, stopwords, data_dir)
    if keep_word is None:
        return None
    seen: dict[str, str | None] = {}

    def kept(term: str) -> str | None:
        out = seen.get(term, kept)
        if out is kept:
            out = seen[term] = keep_word(term)
        return out

    return kept


def word_filter(stemmer: str, stopwords, data_dir: str | None):
    """`term_filter`'s rule without its per-call dict: term -> the term kept (stemmed) or None;
    None when nothing changes words."""
    stem = get_stemmer(stemmer, data_dir)
    stop = get_stopwords(stopwords, data_dir)
    return None if stem is None and not stop else _word_rule(stem, stop)


def _word_rule(stem, stop: frozenset):
    def keep(term: str) -> str | None:
        return None if stop and term in stop else (stem(term) if stem is not None else term) or None

    return keep


def stem_map(stemmer: str, stopwords, data_dir: str | None):
    """The compiled kernels' table of what `word_filter` makes of each word type (a
    rouge_core.kernels.native StemMap), one per stemmer and stopword list in the process (keyed
    by the very stemming function and set, so it never crosses stemmers or profiles) and shared
    by every call and thread: each word type goes through the stemmer once, then every text's
    words are looked up in C (the batch's threads do it without the GIL); None when nothing
    changes words or the kernels are not in use. TypeError for stopwords that are no set."""
    stem = get_stemmer(stemmer, data_dir)
    stop = get_stopwords(stopwords, data_dir)
    if (stem is None and not stop) or native.KERNELS is None:
        return None
    return _stem_map_of(stem, stop)


_STEM_TABLES: dict = {}  # (stemming function, stopwords) -> its table; the oldest dropped beyond STEM_TABLES
_STEM_TABLES_LOCK = threading.Lock()
STEM_TABLES = 32


def _stem_map_of(stem, stop: frozenset):
    key = (stem, stop)
    table = _STEM_TABLES.get(key)
    if table is None:
        with _STEM_TABLES_LOCK:
            table = _STEM_TABLES.get(key)
            if table is None:
                if len(_STEM_TABLES) >= STEM_TABLES:
                    del _STEM_TABLES[next(iter(_STEM_TABLES))]
                table = _STEM_TABLES[key] = native.stem_map(_word_rule(stem, stop), STEM_CACHE_SIZE)
    return table


def _clear_stem_tables() -> None:
    for table in list(_STEM_TABLES.values()):
        table.clear()


remember_cache(_clear_stem_tables)

_FORKED_AWAY: list = []  # a forked child's inherited tables: kept, never used, never freed


def _fresh_stem_tables_after_fork() -> None:
    """A forked child starts with new tables: a batch thread of the parent may have held a
    table's lock (or this module's) at the fork, and that thread does not exist in the child,
    so an inherited lock might never be released. The inherited tables are kept alive unused
    (freeing one would destroy a lock that may be held)."""
    global _STEM_TABLES_LOCK
    _FORKED_AWAY.extend(_STEM_TABLES.values())
    _STEM_TABLES.clear()
    _STEM_TABLES_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_stem_tables_after_fork)


def _split(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check=None):
    """The words of `text` in sentences `spans` as the pipeline keeps them: (terms, starts,
    ends, bounds), offsets into the text, [start, end) token indices per sentence."""
    split_words = splitter(tokenizer)
    keep = term_filter(stemmer, stopwords, data_dir)
    terms: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    bounds: list[tuple[int, int]] = []
    sentence_words = _sentence_words(text, spans, split_words, lowercase)
    if check is not None:
        check(sum(len(words) for _, words in sentence_words),
              (lambda: len({term for _, words in sentence_words for term, _, _ in words}))
              if get_stemmer(stemmer, data_dir) is not None else None)
    for s_start, words in sentence_words:
        first = len(terms)
        for term, start, end in words:
            if keep is not None:
                term = keep(term)
                if term is None:
                    continue
            terms.append(term)
            starts.append(s_start + start)
            ends.append(s_start + end)
        bounds.append((first, len(terms)))
    return terms, starts, ends, bounds


def _token_objects(terms, starts, ends, bounds) -> tuple[Token, ...]:
    return tuple(Token(terms[k], starts[k], ends[k], s_index)
                 for s_index, (a, b) in enumerate(bounds) for k in range(a, b))


def _tokenize_spans(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check=None) -> Document:
    """The eager Document: its Token objects built at once."""
    terms, starts, ends, bounds = _split(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check)
    return Document(text, _token_objects(terms, starts, ends, bounds), tuple(bounds), tuple(spans))


def _split_document(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check=None) -> Document:
    """The Document of any tokenizer (a Python splitter, a user's function, stemming,
    stopwords, limits): its terms and sentence bounds, with each token's offsets kept in arrays
    and its Token objects built when first read (scoring interns the terms once:
    rouge_core.kernels.native.tokens_of)."""
    terms, starts, ends, bounds = _split(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check)
    doc = object.__new__(_SplitDocument)
    doc.__dict__.update(text=text, term_tuple=tuple(terms), sentence_bounds=tuple(bounds),
                        sentence_spans=tuple(spans), lcs_view=None, _offsets=(array("q", starts), array("q", ends)))
    return doc


def _sentence_words(text, spans, split_words, lowercase):
    """Per sentence: its start and its words (offsets relative to it). A splitter marked
    `whole_text` (XL-Sum's, whose segmenters see line ends) reads the text once; its words go
    to the sentence they start in (one starting between two sentences, to the one before),
    and those outside every sentence (cut off by a length limit) are dropped."""
    if not getattr(split_words, "whole_text", False):
        return [(s_start, split_words(text[s_start:s_end], lowercase)) for s_start, s_end in spans]
    per_sentence: list[list] = [[] for _ in spans]
    if spans:
        k = 0
        for term, start, end in split_words(text, lowercase):
            if start < spans[0][0] or start >= spans[-1][1]:
                continue
            while k + 1 < len(spans) and spans[k + 1][0] <= start:
                k += 1
            per_sentence[k].append((term, start - spans[k][0], end - spans[k][0]))
    return [(s_start, words) for (s_start, _), words in zip(spans, per_sentence)]


class _LazyDocument(Document):
    """A Document whose Token objects are built only when someone asks for them.

    Scoring needs only the terms and the sentence bounds; those come from one regex pass per
    sentence. `tokens` (with character offsets) is produced on first access by the very same
    code as an eager Document, so both are equal field by field.
    """

    @cached_property
    def tokens(self) -> tuple[Token, ...]:  # type: ignore[override]
        d = self.__dict__
        return _tokenize_spans(self.text, self.sentence_spans, *d["_lazy_args"]).tokens

    @cached_property
    def sentence_spans(self) -> tuple[tuple[int, int], ...]:  # type: ignore[override]
        # Only Documents of whole texts split at newlines leave their spans to be found here.
        return tuple(split_sentences(self.text, "newline"))

    def __len__(self) -> int:
        return len(self.term_tuple)

    def __eq__(self, other):
        if not isinstance(other, Document):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(Document))

    __hash__ = Document.__hash__

    def __reduce__(self):
        # Pickle (process pools, Dask) as the lazy form: terms and bounds, no Token objects.
        state = self.__getstate__()
        if "_lazy_args" in state:
            state.pop("tokens", None)  # rebuilt on demand
        return (_rebuild_lazy, (state,))


class _SplitDocument(_LazyDocument):
    """A _LazyDocument of any tokenizer (`_split_document`): its Token objects come from the
    offsets it keeps, without tokenizing again."""

    @cached_property
    def tokens(self) -> tuple[Token, ...]:  # type: ignore[override]
        starts, ends = self.__dict__["_offsets"]
        return _token_objects(self.term_tuple, starts, ends, self.sentence_bounds)

    def __reduce__(self):
        state = self.__getstate__()
        state.pop("tokens", None)  # rebuilt from the offsets
        return (_rebuild_split, (state,))


class _NativeDocument(_LazyDocument):
    """A _LazyDocument tokenized by the compiled kernels (rouge_core.kernels.native): its terms stay
    token ids in a `Tokens` until someone reads `term_tuple`, which then holds the very terms
    the pure path gives."""

    def _tokens(self):
        # a copy made by dataclasses.replace (a new `-b` view) has its Tokens no more
        return self.__dict__.get("_memo", {}).get(native.TOKENS)

    @cached_property
    def term_tuple(self) -> tuple[str, ...]:  # type: ignore[override]
        tokens = self._tokens()
        return tokens.terms() if tokens is not None else tuple(t.term for t in self.tokens)

    @cached_property
    def sentence_bounds(self) -> tuple[tuple[int, int], ...]:  # type: ignore[override]
        # built on first read: scoring on the kernels reads the bounds inside the Tokens
        return self._tokens().bounds()

    def __len__(self) -> int:
        tokens = self._tokens()
        return len(tokens) if tokens is not None else len(self.term_tuple)

    def __reduce__(self):
        self.term_tuple  # pickled as the lazy form, terms and bounds included (no Tokens)
        self.sentence_bounds
        return super().__reduce__()


class _ProbedDocument(_NativeDocument):
    """A _NativeDocument of a reference that rouge_core._native.score_texts scored by looking
    its words up in the candidate's vocabulary only: its own Tokens are built on first need."""

    def _tokens(self):
        d = self.__dict__
        memo = d.get("_memo")
        if memo is None:  # a copy made by dataclasses.replace, as _NativeDocument's
            return None
        tokens = memo.get(native.TOKENS)
        if tokens is None:
            tokenizer, lowercase = d["_lazy_args"][:2]
            tokens = memo[native.TOKENS] = native.tokenize_text(self.text, word_rule(tokenizer, lowercase))
        return tokens


def word_rule(tokenizer, lowercase: bool) -> int | None:
    """How the compiled tokenizers find this tokenizer's words (kernel_spec.WORD_RULES), or
    None when they do not have it: rouge-score lower-cases with Python's str.lower() before
    keeping [a-z0-9] runs, ROUGE-1.5.5 lower-cases its [A-Za-z0-9] runs (ASCII only), and both
    keep [A-Za-z0-9] as written without lower-casing (rouge_core.text.words)."""
    if tokenizer == "rouge-score":
        return kernel_spec.WORDS_LOWER_UNICODE if lowercase else kernel_spec.WORDS_KEEP_CASE
    if tokenizer == "rouge155":
        return kernel_spec.WORDS_LOWER_ASCII if lowercase else kernel_spec.WORDS_KEEP_CASE
    return None


def _compiled_settings(tokenizer: str, lowercase: bool, stemmer: str, stopwords, sentence_split: str,
                       data_dir: str | None, limit_words: int | None, limit_bytes: int | None) -> tuple | None:
    """The compiled tokenizers' arguments for these settings, or None when they need the
    Python pipeline (another tokenizer, stemming, stopwords, limits)."""
    rule = word_rule(tokenizer, lowercase)
    if (rule is None or stemmer != "none" or stopwords != "none" or sentence_split != "newline" or limit_words
            or limit_bytes):
        return None
    return rule, (tokenizer, lowercase, stemmer, stopwords, data_dir)


def text_tokenizer(kernels, tokenizer: str, lowercase: bool, stemmer: str, stopwords, sentence_split: str,
                   data_dir: str | None, limit_words: int | None, limit_bytes: int | None,
                   lcs_byte_limit_defect: bool):
    """For settings in the order of `Options.tokenize_key()`: a function tokenizing a text as
    `tokenize_with` does, in one call to the compiled kernels (None for a text they do not take,
    a lone surrogate); None when these settings need the Python pipeline (another tokenizer,
    stemming, stopwords, limits), or `kernels` is false (whether the kernels are in use:
    rouge_core.kernels.native.active())."""
    settings = _compiled_settings(tokenizer, lowercase, stemmer, stopwords, sentence_split, data_dir, limit_words,
                                  limit_bytes)
    return native.text_document_maker(_NativeDocument, settings) if settings and kernels else None


def text_scorer(kernels, tokenizer: str, lowercase: bool, stemmer: str, stopwords, sentence_split: str,
                data_dir: str | None, limit_words: int | None, limit_bytes: int | None,
                lcs_byte_limit_defect: bool):
    """As `text_tokenizer`: a function scoring texts for these settings in one call to the
    kernels (rouge_core.kernels.native.text_scorer: the Documents those of `text_tokenizer`), or None."""
    settings = _compiled_settings(tokenizer, lowercase, stemmer, stopwords, sentence_split, data_dir, limit_words,
                                  limit_bytes)
    if settings is None and kernels:  # stemming or stopwords: the words mapped through the shared table
        settings = stemmed_settings(tokenizer, lowercase, stemmer, stopwords, sentence_split, data_dir, limit_words,
                                     limit_bytes)
    return native.text_scorer(_NativeDocument, _ProbedDocument, settings) if settings and kernels else None


def stemmed_settings(tokenizer, lowercase: bool, stemmer: str, stopwords, sentence_split: str, data_dir: str | None,
                      limit_words: int | None, limit_bytes: int | None) -> tuple | None:
    """The compiled tokenizers' arguments when only stemming or stopwords keep these settings
    from them: ((word rule, the shared table of stems), the lazy arguments); else None."""
    rule = word_rule(tokenizer, lowercase)
    if rule is None or sentence_split != "newline" or limit_words or limit_bytes:
        return None
    try:
        stems = stem_map(stemmer, stopwords, data_dir)
    except TypeError:  # stopwords given as an unhashable collection
        return None
    return None if stems is None else ((rule, stems), (tokenizer, lowercase, stemmer, stopwords, data_dir))


def _filtered(doc: "_NativeDocument", keep, lazy_args: tuple) -> "_NativeDocument":
    """The compiled tokenizer's Document with stemming and stopwords applied once per word type
    (the shared `stem_map`: its Tokens mapped in C, rouge_core.kernels.native.tokens_stemmed;
    `keep` for a stopword list that is no set); its Token objects, when read, come from the pure
    pipeline with the same settings."""
    tokens = doc._tokens()
    _, _, stemmer, stopwords, data_dir = lazy_args
    try:
        stems = stem_map(stemmer, stopwords, data_dir)
    except TypeError:  # stopwords given as an unhashable collection
        stems = None
    if stems is not None:
        mapped = native.tokens_stemmed(tokens, stems)
    else:
        mapped = native.tokens_mapped(tokens, tuple(map(keep, tokens.vocabulary())))
    if mapped is None:  # a stem that is not a string: the Python pipeline decides
        return None
    doc.__dict__["_memo"][native.TOKENS] = mapped
    return doc


def _rebuild_split(state: dict) -> _SplitDocument:
    doc = object.__new__(_SplitDocument)
    doc.__dict__.update(state)
    return doc


def _rebuild_lazy(state: dict) -> _LazyDocument:
    doc = object.__new__(_LazyDocument)
    doc.__dict__.update(state)
    return doc


def _ascii_word_table(lowercase: bool) -> bytes:
    """A bytes.translate table keeping [A-Za-z0-9] (lower-cased if asked) and the newline and
    turning every other byte into a space, so that str.split() yields the ASCII tokenizers'
    words."""
    table = bytearray(b" " * 256)
    table[10] = 10  # newlines stay: a translated text has the original's lines
    for c in b"0123456789abcdefghijklmnopqrstuvwxyz":
        table[c] = c
    for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        table[c] = c + 32 if lowercase else c
    return bytes(table)


_ASCII_WORDS = {True: _ascii_word_table(True), False: _ascii_word_table(False)}


def _lazy_document(text, spans, tokenizer, lowercase, stemmer, stopwords, data_dir, check=None) -> Document | None:
    """Terms and sentence bounds without Token objects, for the common tokenizers; None when
    the eager path is needed (other tokenizers; on the pure path, non-ASCII text for the
    tokenizers of rouge-score and ROUGE-1.5.5).
    `spans` None means one sentence per non-empty line of the whole text; the spans are
    then found only if someone asks for them."""
    keep = term_filter(stemmer, stopwords, data_dir)
    lazy_args = (tokenizer, lowercase, stemmer, stopwords, data_dir)
    if tokenizer in ("rouge-score", "rouge155"):
        if native.active() and spans is None:
            # the same words and sentences, found by the compiled tokenizer (any text with UTF-8)
            doc = native.text_document(_NativeDocument, (word_rule(tokenizer, lowercase), lazy_args), text)
            if doc is not None and check is not None:
                tokens = doc._tokens()
                check(len(tokens), (lambda: tokens.distinct) if get_stemmer(stemmer, data_dir) is not None else None)
            if doc is not None and keep is not None:
                doc = _filtered(doc, keep, lazy_args)
            if doc is not None:
                return doc
        if not text.isascii():
            return None
        # One translate maps every separator byte but the newline to a space (offsets
        # unchanged: one byte is one character in ASCII); split() then gives
        # [a-z0-9]+ / [A-Za-z0-9]+ words.
        source = text.encode("ascii").translate(_ASCII_WORDS[lowercase]).decode("ascii")
        lower_each = False
    elif tokenizer == "whitespace":
        source, lower_each = text, lowercase
    else:
        terms_of = getattr(splitter(tokenizer), "terms", None) if spans is None else None
        per_line = terms_of(text, lowercase) if terms_of is not None else None
        return None if per_line is None else _terms_document(text, per_line, keep, lazy_args, check)
    if spans is None:
        # As split_sentences: empty lines are skipped, blank ones are sentences.
        sentences = [line.split() for line in source.split("\n") if line]
    else:
        sentences = [source[s_start:s_end].split() for s_start, s_end in spans]
    if lower_each:
        sentences = [[w.lower() for w in words] for words in sentences]
    doc = _terms_document(text, sentences, keep, lazy_args, check)
    if spans is not None:
        doc.__dict__["sentence_spans"] = tuple(spans)
    return doc


def _terms_document(text: str, sentences: list[list[str]], keep, lazy_args: tuple, check=None) -> _LazyDocument:
    """A _LazyDocument of these terms per sentence (stemming and stopwords applied: `keep`);
    its Token objects, when read, come from the pipeline with the same settings. `check`: as
    in `tokenize_with`, called before the words are stemmed."""
    if check is not None:
        stems = get_stemmer(lazy_args[2], lazy_args[4]) is not None
        check(sum(map(len, sentences)), (lambda: len(set().union(*sentences))) if stems else None)
    terms: list[str] = []
    bounds: list[tuple[int, int]] = []
    for words in sentences:
        if keep is not None:
            words = [term for term in map(keep, words) if term is not None]
        first = len(terms)
        terms.extend(words)
        bounds.append((first, len(terms)))
    doc = object.__new__(_LazyDocument)
    doc.__dict__.update(text=text, sentence_bounds=tuple(bounds), lcs_view=None, term_tuple=tuple(terms),
                        _lazy_args=lazy_args)
    return doc


# --- which tokenizer code runs (what rouge_core.scorer.cost prices) --------------------------------

def _splitter_kind(tokenizer, lowercase: bool) -> str:
    from .words import Splitter, UserTokenizer

    if isinstance(tokenizer, Splitter):
        return tokenizer.tokenizer
    if not isinstance(tokenizer, str) or isinstance(tokenizer, UserTokenizer):
        return "user"
    if tokenizer == "rouge-score" and not lowercase:
        return "rouge155"  # the same ASCII words, no lower-casing pass
    return tokenizer


def route(text: str, key: tuple) -> str:
    """Which tokenizer code runs on `text` under the settings `key` (Options.tokenize_key()),
    as `tokenize_with` and scoring's `prepare` choose it:

        "compiled"           the compiled kernels' tokenizer (rouge-score's or ROUGE-1.5.5's, on
                             any text: UTF-8), then stemming and stopwords once per word type
        "lazy:ascii"         ASCII text translated and split (sentence splitting or limits)
        "lazy:whitespace"    whitespace-split terms
        "lazy:multilingual"  XL-Sum's tokenizer (or "lazy:xlsum-basic") line by line, terms only
        "split:<tokenizer>"  a Python tokenizer with the terms and offsets of every word kept in
                             arrays (Token records built when read): rouge-score's or
                             ROUGE-1.5.5's on non-ASCII text with sentence splitting or limits,
                             unicode, cjk, multilingual with a segmenter, user
        "eager:<tokenizer>"  the same with a Token record per word made at once (ROUGE-1.5.5's
                             `-b` view)

    Every route but the compiled one gives terms that scoring on the compiled path interns to
    ids once (rouge_core.scorer.cost prices that and each route; tests/core/test_tokens_from_anywhere.py
    checks this agrees with the Documents tokenizing makes)."""
    tokenizer, lowercase, stemmer, stopwords, sentence_split, _, limit_words, limit_bytes, view = key
    plain = sentence_split == "newline" and not limit_words and not limit_bytes
    if tokenizer in ("rouge-score", "rouge155"):
        if native.active() and plain and (text.isascii() or tokenizer == "rouge155" or not lowercase
                                          or not native.WHY_NO_UNICODE):
            return "compiled"
        if text.isascii():
            return "lazy:ascii"
    elif tokenizer == "whitespace":
        return "lazy:whitespace"
    kind = _splitter_kind(tokenizer, lowercase)
    if limit_bytes and not limit_words and view:
        return "eager:" + kind
    if plain and kind in ("multilingual", "xlsum-basic") and _reads_by_line(text, tokenizer, kind):
        return "lazy:" + kind
    return "split:" + kind


def _reads_by_line(text: str, tokenizer, kind: str) -> bool:
    from .multilingual import reads_by_line
    from .words import Splitter

    return reads_by_line(text, tokenizer.language if isinstance(tokenizer, Splitter) else None, kind == "xlsum-basic")


def segmenter_runs(text: str, key: tuple, path: str) -> tuple:
    """The segmenters tokenizing `text` runs under `key` (on the route `path`), each with the
    characters and the runs it reads: ((segmenter, characters, runs), ...). The unicode and
    cjk tokenizers segment each run of Thai, Lao, Khmer, Myanmar or Han/kana (Chinese or
    Japanese; cjk cuts Han and kana per character); XL-Sum's tokenizer runs its language's
    segmenter over the whole text."""
    from .words import Splitter

    tokenizer = key[0]
    kind = path.split(":", 1)[1] if ":" in path else path
    language = tokenizer.language if isinstance(tokenizer, Splitter) else None
    if kind == "multilingual":
        if language == "chinese" and _chinese_compiled():  # the compiled jieba, line by line
            return ((f"xlsum-chinese{COMPILED_SEGMENTER}", len(text), text.count("\n") + 1),)
        if language in ("thai", "chinese", "japanese", "burmese"):
            return ((f"xlsum-{language}", len(text), 1),)
        return ()
    if kind not in ("unicode", "cjk") or text.isascii():
        return ()
    from .words import _KANA, _han_language

    found: dict[str, list[int]] = {}
    han = None
    for m in _SEGMENTED_RUN.finditer(text):
        script = _RUN_SCRIPT.get(m.lastgroup)
        if script == "han":
            if kind == "cjk":
                script = "cjk-han"
            else:
                if han is None:
                    han = _han_language(text, language) if _KANA.search(text) or language else "chinese"
                script = han
        counts = found.setdefault(script, [0, 0])
        counts[0] += m.end() - m.start()
        counts[1] += 1
    if "chinese" in found and _chinese_compiled():
        found["chinese" + COMPILED_SEGMENTER] = found.pop("chinese")
    return tuple((script, chars, runs) for script, (chars, runs) in found.items())


COMPILED_SEGMENTER = "-compiled"  # a segmenter's name when the compiled kernels cut for it (jieba's)


def _chinese_compiled() -> bool:
    from .segment import chinese_compiled

    return chinese_compiled()


def _segmented_run_pattern():
    import regex

    marks = r"\p{M}*"
    return regex.compile(
        rf"(?P<thai>(?:\p{{Thai}}{marks})+)|(?P<lao>(?:\p{{Lao}}{marks})+)|(?P<khmer>(?:\p{{Khmer}}{marks})+)"
        rf"|(?P<myanmar>(?:\p{{Myanmar}}{marks})+)|(?P<han>(?:[\p{{scx=Han}}\p{{scx=Hira}}\p{{scx=Kana}}]{marks})+)")


_SEGMENTED_RUN = _segmented_run_pattern()
_RUN_SCRIPT = {"thai": "thai", "lao": "lao", "khmer": "khmer", "myanmar": "myanmar", "han": "han"}


def compiled_document(doc: Document) -> bool:
    """Whether the compiled kernels hold `doc`'s tokens as ids already (tokenized by them, or
    interned once before): nothing left to intern."""
    return isinstance(doc, _NativeDocument) or bool(doc.memoized(native.TOKENS))
