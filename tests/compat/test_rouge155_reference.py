"""A line-by-line transcription of ROUGE-1.5.5.pl's counting routines (readText tokenization,
createNGram, createSkipBigram, lcs/wlcs with markLCS and unigram clipping).

It serves as an independent oracle: the front door's output through it is compared with the
shipped sample outputs, and `rouge_core.engine155` is compared with it case by case.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pytest

from rouge_core import porter155
from rouge_core.resources import exception_table, smart_stopwords


@dataclass(frozen=True)
class RefCounts:
    hit: float
    model: float
    peer: float


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


def reference_counts(peer_sentences, model_docs, *, max_n, skip_distance, skip_unigrams,
                     skip_also_plain, wlcs_weight, stem, stopwords, data_dir,
                     lcs_peer_sentences=None, lcs_model_docs=None):
    """Same contract as `rouge_core.engine155.document_counts`."""
    tok = lambda text: _tokens(text, stem, stopwords, data_dir)  # noqa: E731
    peer = tok(" ".join(peer_sentences))
    models = [tok(" ".join(m)) for m in model_docs]
    lcs_peer = [tok(s) for s in (lcs_peer_sentences or peer_sentences)]
    lcs_models = [[tok(s) for s in m] for m in (lcs_model_docs or model_docs)]
    out: dict[str, list[RefCounts]] = {}
    for n in range(1, max_n + 1):
        pg = _ngrams(peer, n)
        out[f"ROUGE-{n}"] = [RefCounts(_clip(_ngrams(m, n), pg), max(len(m) - n + 1, 0),
                                       max(len(peer) - n + 1, 0)) for m in models]
    for name, weight in (("ROUGE-L", None), (f"ROUGE-W-{wlcs_weight}", wlcs_weight)):
        if name != "ROUGE-L" and weight is None:
            continue
        rows = []
        for m, lm in zip(models, lcs_models):
            hit, base = _lcs_hits(lm, lcs_peer, Counter(m), Counter(peer), weight)
            if weight is None:
                rows.append(RefCounts(hit, base, len(peer)))
            else:
                rows.append(RefCounts(hit, base ** weight, len(peer) ** weight))
        out[name] = rows
    if skip_distance is not None:
        d = "*" if skip_distance < 0 else str(skip_distance)
        kinds = []
        if skip_also_plain:
            kinds.append((f"ROUGE-S{d}", False))
        if skip_unigrams:
            kinds.append((f"ROUGE-SU{d}", True))
        for name, uni in kinds:
            pg = _skip(peer, skip_distance, uni)
            out[name] = [RefCounts(_clip(_skip(m, skip_distance, uni), pg),
                                   sum(_skip(m, skip_distance, uni).values()),
                                   sum(pg.values())) for m in models]
    return out


def test_reference_counts_small_case():
    counts = reference_counts(["the cat sat on the mat"], [["the cat was on the mat"]], max_n=2,
                              skip_distance=None, skip_unigrams=False, skip_also_plain=False,
                              wlcs_weight=None, stem=False, stopwords=False, data_dir=None)
    assert counts["ROUGE-1"] == [RefCounts(5, 6, 6)]
    assert counts["ROUGE-2"] == [RefCounts(3, 5, 5)]
    assert counts["ROUGE-L"] == [RefCounts(5, 6, 6)]


_ENGINE_CASES = [
    dict(peer=["The cats were sitting.", "  on mats - today"], models=[["a cat sat on the mat"], ["", "...", "cats sit"]]),
    dict(peer=["agreement statements and movements"], models=[["the agreements were documented"]]),
    dict(peer=["x y z x y"], models=[["x y x y z z"], ["!!!"]]),
]


@pytest.mark.parametrize("case", _ENGINE_CASES)
@pytest.mark.parametrize("stem, stopwords", [(False, False), (True, True)])
def test_engine_matches_transcription(case, stem, stopwords):
    engine = pytest.importorskip("rouge_core.engine155", reason="the scoring engine is not there yet")
    kw = dict(max_n=3, skip_distance=2, skip_unigrams=True, skip_also_plain=True, wlcs_weight=None,
              stem=stem, stopwords=stopwords, data_dir=None)
    got = engine.document_counts(case["peer"], case["models"], **kw)
    want = reference_counts(case["peer"], case["models"], **kw)
    for metric, rows in want.items():
        assert [(c.hit, c.model, c.peer) for c in got[metric]] == [(c.hit, c.model, c.peer) for c in rows], metric


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
