"""A line-by-line transcription of ROUGE-1.5.5.pl's counting routines (readText tokenization,
createNGram, createSkipBigram, lcs/wlcs with markLCS and unigram clipping).

It serves as an independent oracle: the front door's output through it is compared with the
shipped sample outputs, and the drop-in's engine (`rouge_core.compat.rouge155.engine`) is
compared with it case by case. Its counts come back as rouge_core `Stats` (hits, peer count,
model count; for ROUGE-W also the raw Σ f(|r_i|)), the engine's contract.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rouge_core.text import porter155
from rouge_core import profile
from rouge_core.compat.rouge155.engine import document_counts
from rouge_core.families.methods import parse_method
from rouge_core.text.resources import exception_table, smart_stopwords
from rouge_core.stats import Stats


def _tokens(text: str, stem: bool, stopwords: bool, data_dir: str) -> list[str]:
    text = re.sub(r"[A-Z]+", lambda m: m.group().lower(), text)  # tr/A-Z/a-z/
    text = text.replace("-", " - ")
    text = re.sub(r"[^A-Za-z0-9\-]", " ", text)
    stop = smart_stopwords(data_dir) if stopwords else frozenset()
    exc = exception_table(data_dir) if stem else {}
    out = []
    for tok in text.split():
        if tok in stop or not re.match(r"[a-z0-9$]", tok):
            continue
        if stem and len(tok) > 3:
            tok = exc.get(tok) or porter155.porter_stem(tok)
        out.append(tok)
    return out


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def _skip(tokens: list[str], d: int, unigrams: bool) -> Counter:
    g: Counter = Counter()
    for i in range(len(tokens) - 1):
        if unigrams:
            g[tokens[i]] += 1
        j = i + 1
        while j < len(tokens) and (d < 0 or j <= i + d + 1):
            g[tokens[i] + " " + tokens[j]] += 1
            j += 1
    return g


def _clip(model: Counter, peer: Counter) -> int:
    return sum(min(c, peer[k]) for k, c in model.items() if k in peer)


def _mark(model, peer, mask, weight=None):
    m, n = len(model), len(peer)
    if m == 0:
        return
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    b = [[""] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                if weight is None:
                    c[i][j] = c[i - 1][j - 1] + 1
                else:
                    k = run[i - 1][j - 1]
                    c[i][j] = c[i - 1][j - 1] + (k + 1) ** weight - k ** weight
                    run[i][j] = k + 1
                b[i][j] = "d"
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j] = c[i - 1][j]
                b[i][j] = "u"
            else:
                c[i][j] = c[i][j - 1]
                b[i][j] = "l"
    i, j = m, n
    while i and j:
        if b[i][j] == "d":
            i -= 1
            j -= 1
            mask[i] = 1
        elif b[i][j] == "u":
            i -= 1
        else:
            j -= 1


def _lcs_hits(model_sents, peer_sents, model_1, peer_1, weight):
    hit = 0.0 if weight is not None else 0
    base = 0.0 if weight is not None else 0
    for ms in model_sents:
        mask = [0] * len(ms)
        base += len(ms) if weight is None else len(ms) ** weight
        for ps in peer_sents:
            _mark(ms, ps, mask, weight)
        run = 0
        for j, tok in enumerate(ms):
            if mask[j] == 1 and model_1.get(tok, 0) > 0 and peer_1.get(tok, 0) > 0:
                if weight is None:
                    hit += 1
                else:
                    run += 1
                    if (j + 1 < len(ms) and mask[j + 1] == 0) or j + 1 == len(ms):
                        hit += run ** weight
                        run = 0
                model_1[tok] -= 1
                peer_1[tok] -= 1
    return hit, base


def reference_counts(peer_sentences, model_docs, methods, options, *, lcs_peer_sentences=None,
                     lcs_model_docs=None):
    """Same contract as `rouge_core.compat.rouge155.engine.document_counts`: per method
    (ROUGE-N, the summary-level ROUGE-L, ROUGE-W, ROUGE-S, ROUGE-SU), one Stats per model."""
    stem, stopwords = options.stemmer == "rouge155", options.stopwords == "smart"
    tok = lambda text: _tokens(text, stem, stopwords, options.data_dir)  # noqa: E731
    peer = tok(" ".join(peer_sentences))
    models = [tok(" ".join(m)) for m in model_docs]
    lcs_peer = [tok(s) for s in (lcs_peer_sentences or peer_sentences)]
    lcs_models = [[tok(s) for s in m] for m in (lcs_model_docs or model_docs)]
    out: dict = {}
    for method in methods:
        if method.family == "N":
            n = method.n
            pg = _ngrams(peer, n)
            out[method] = [Stats(_clip(_ngrams(m, n), pg), max(len(peer) - n + 1, 0), max(len(m) - n + 1, 0))
                           for m in models]
        elif method.family in ("Lsum", "W"):
            weight = method.weight if method.family == "W" else None
            rows = []
            for m, lm in zip(models, lcs_models):
                hit, base = _lcs_hits(lm, lcs_peer, Counter(m), Counter(peer), weight)
                if weight is None:
                    rows.append(Stats(hit, len(peer), base))
                else:  # the model count is f(base); -f B compares hit / base itself
                    rows.append(Stats(hit, len(peer) ** weight, base ** weight, 1 / weight, base))
            out[method] = rows
        else:  # S, SU
            d = -1 if method.distance is None else method.distance
            uni = method.family == "SU"
            pg = _skip(peer, d, uni)
            out[method] = [Stats(_clip(_skip(m, d, uni), pg), sum(pg.values()), sum(_skip(m, d, uni).values()))
                           for m in models]
    return out


def test_reference_counts_small_case():
    methods = [parse_method(name) for name in ("rouge1", "rouge2", "rougeLsum", "rougeW-2")]
    counts = reference_counts(["the cat sat on the mat"], [["the cat was on the mat"]], methods, profile("rouge-1.5.5"))
    one, two, lcs, weighted = methods
    assert counts[one] == [Stats(5, 6, 6)]
    assert counts[two] == [Stats(3, 5, 5)]
    assert counts[lcs] == [Stats(5, 6, 6)]
    # runs "the cat" and "on the mat": 2² + 3² = 13 weighted hits; f(6) = 36 on both sides
    assert counts[weighted] == [Stats(13.0, 36.0, 36.0 ** 2, 0.5, 36.0)]


_ENGINE_CASES = [
    dict(peer=["The cats were sitting.", "  on mats - today"], models=[["a cat sat on the mat"], ["", "...", "cats sit"]]),
    dict(peer=["agreement statements and movements"], models=[["the agreements were documented"]]),
    dict(peer=["x y z x y"], models=[["x y x y z z"], ["!!!"]]),
]


@pytest.mark.parametrize("case", _ENGINE_CASES)
@pytest.mark.parametrize("stem, stopwords", [(False, False), (True, True)])
def test_engine_matches_transcription(case, stem, stopwords):
    methods = [parse_method(name) for name in ("rouge1", "rouge2", "rouge3", "rougeLsum", "rougeW-1.2", "rougeS2",
                                                "rougeSU2", "rougeS*")]
    options = profile("rouge-1.5.5", stemmer="rouge155" if stem else "none", stopwords="smart" if stopwords else "none")
    got = document_counts(case["peer"], case["models"], methods, options)
    want = reference_counts(case["peer"], case["models"], methods, options)
    assert list(got) == methods
    for method in methods:
        assert got[method] == want[method], method.name


# Stems printed by the script's own `stem` sub (Perl 5.36). Its step 4 is Lin's 02/14/2004
# change: "-ement" is in the main list, then separate `if`s try "ment" and then "ent", so
# "agreement" -> "agreem". The -m sample outputs depend on it (e.g. peer 13 of ROUGE-test.xml).
@pytest.mark.parametrize("word, stem", [
    ("agreement", "agreem"), ("statements", "statem"), ("documented", "docum"),
    ("environmental", "environ"), ("epicenter", "epic"), ("professional", "profess"),
    ("revolutionized", "revolut"), ("regiment", "regim"), ("internationally", "internat"),
])
def test_porter_step4_as_in_the_script(word, stem):
    assert porter155.porter_stem(word) == stem
