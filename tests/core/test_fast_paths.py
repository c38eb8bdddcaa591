"""Differential tests: the fast kernels against the reference (DP) implementations."""

import pickle
from collections import Counter

from hypothesis import given, settings, strategies as st

from rouge_core.families.bitparallel_lcs import CandidateLayout, lcs_row_vectors
from rouge_core.families.skipgram import _reading_order, skip_bigram_counts
from rouge_core.families.lcs import lcs_alignment, lcs_length, lcs_table, union_lcs
from rouge_core.families.ngram import clipped_hits, count_items, ngram_counts
from rouge_core.scorer.scoring import score
from rouge_core.text.tokenize import _tokenize_spans, tokenize
from rouge_core.text.sentences import split_sentences

tokens = st.lists(st.sampled_from("abcde"), max_size=14)
sentences = st.lists(tokens, max_size=5)


def reference_union(ref, cand_sentences):
    return sorted(set().union(*[{r for r, _ in lcs_alignment(ref, c)} for c in cand_sentences]))


def layout(cand_sentences):
    flat, bounds = [], []
    for s in cand_sentences:
        bounds.append((len(flat), len(flat) + len(s)))
        flat += s
    return flat, bounds


@settings(max_examples=400, deadline=None)
@given(tokens, sentences)
def test_union_positions_match_rouge_score_traceback(ref, cand_sentences):
    flat, bounds = layout(cand_sentences)
    assert CandidateLayout(flat, bounds).union_positions(ref) == reference_union(ref, cand_sentences)


@settings(max_examples=200, deadline=None)
@given(tokens, tokens)
def test_carries_are_vertical_differences(ref, cand):
    _, carries = lcs_row_vectors(ref, cand)
    table = lcs_table(ref, cand)
    for i in range(1, len(ref) + 1):
        for j in range(1, len(cand) + 1):
            assert (carries[i - 1] >> j) & 1 == table[i][j] - table[i - 1][j]
    assert lcs_length(cand, ref) == table[-1][-1]


@settings(max_examples=300, deadline=None)
@given(sentences, sentences)
def test_union_lcs_fast_equals_evidence_path(cand_sentences, ref_sentences):
    cand, cb = layout(cand_sentences)
    ref, rb = layout(ref_sentences)
    fast, _ = union_lcs(cand, cb, ref, rb, evidence=False)
    slow, ev = union_lcs(cand, cb, ref, rb, evidence=True)
    assert fast == slow
    for s in ev.sentences:
        ra, rbnd = rb[s.ref_sentence]
        expected = reference_union(ref[ra:rbnd], cand_sentences)
        assert list(s.union) == [ra + r for r in expected]


ascii_texts = st.text(alphabet=st.sampled_from(list("abcAB 12.,!?\n-'\t\r\x0b\x0c\x1c_~")), max_size=60)
texts = st.one_of(ascii_texts, st.text(alphabet=st.sampled_from(list("abcAB 12.,!?\n-'éİK\t\r\x85\xa0\u2028\u3000")), max_size=60))


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(["rouge-score", "rouge155", "whitespace"]), st.booleans(),
       st.sampled_from(["none", "porter", "rouge155"]), st.sampled_from(["none", "smart"]),
       st.sampled_from(["newline", "punctuation", "none"]))
def test_lazy_documents_equal_eager_ones(text, tokenizer, lowercase, stemmer, stopwords, split):
    doc = tokenize(text, tokenizer=tokenizer, lowercase=lowercase, stemmer=stemmer, stopwords=stopwords, sentence_split=split)
    eager = _tokenize_spans(text, split_sentences(text, split), tokenizer, lowercase, stemmer, stopwords, None)
    assert doc.term_tuple == tuple(t.term for t in eager.tokens)
    assert doc.terms == eager.terms and len(doc) == len(eager)
    assert doc.sentence_bounds == eager.sentence_bounds
    assert doc == eager and eager == doc and hash(doc) == hash(eager)
    again = pickle.loads(pickle.dumps(tokenize(text, tokenizer=tokenizer, lowercase=lowercase, stemmer=stemmer,
                                               stopwords=stopwords, sentence_split=split)))
    assert again == eager and again.tokens == eager.tokens


def test_rougelsum_with_and_without_evidence_agree_on_prose():
    cand = "The cat sat on the mat.\nA dog barked at the cat!\nThen the cat ran."
    ref = "A cat was sitting on the mat.\nThe dog barked loudly.\nThe cat ran away from the dog."
    a = score(cand, [ref], ["rougeLsum", "rougeL"], "rouge-score", evidence=False)
    b = score(cand, [ref], ["rougeLsum", "rougeL"], "rouge-score", evidence=True)
    assert a.to_dict() == b.to_dict()


@settings(max_examples=400, deadline=None)
@given(tokens, sentences)
def test_bit_parallel_alignments_match_the_dp_traceback(ref, cand_sentences):
    flat, bounds = layout(cand_sentences)
    got = CandidateLayout(flat, bounds).alignments(ref)
    expected = {k: lcs_alignment(ref, c) for k, c in enumerate(cand_sentences)}
    assert got == {k: v for k, v in expected.items() if v}


def loop_skip_bigram_counts(terms, distance, unigrams=False):
    """The direct double loop (position by position), kept as the reference."""
    counts = Counter()
    n = len(terms)
    reach = n if distance is None or distance < 0 else distance + 1
    for i in range(n - 1):
        if unigrams:
            counts[(terms[i],)] += 1
        for j in range(i + 1, min(n, i + 1 + reach)):
            counts[(terms[i], terms[j])] += 1
    return counts


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=14), st.one_of(st.none(), st.integers(-1, 15)), st.booleans())
def test_skip_bigram_counts_by_gap_equal_the_double_loop_in_reading_order(terms, distance, unigrams):
    expected = loop_skip_bigram_counts(terms, distance, unigrams)
    assert skip_bigram_counts(terms, distance, unigrams) == expected
    assert list(_reading_order(terms, distance, unigrams)) == list(expected)  # first-occurrence order


@settings(max_examples=300, deadline=None)
@given(sentences, sentences)
def test_union_positions_of_a_whole_reference_equal_sentence_by_sentence(cand_sentences, ref_sentences):
    cand, cb = layout(cand_sentences)
    ref, rb = layout(ref_sentences)
    grid = CandidateLayout(cand, cb)
    expected = [a + r for a, b in rb for r in reference_union(ref[a:b], cand_sentences)]
    assert grid.union_positions_of(ref, rb) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from("abc"), st.tuples(st.sampled_from("ab"), st.sampled_from("ab")))))
def test_count_items_is_a_counter_equal_to_counter(items):
    counts = count_items(iter(items))
    assert type(counts) is Counter
    assert counts == Counter(items)
    assert counts["missing"] == 0  # Counter's default, not a KeyError
    assert pickle.loads(pickle.dumps(counts)) == Counter(items)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=12), st.lists(st.sampled_from("abcde"), max_size=12), st.integers(1, 3))
def test_clipped_hits_equal_the_multiset_intersection(cand, ref, n):
    cand_counts, ref_counts = ngram_counts(cand, n), ngram_counts(ref, n)
    expected = sum((Counter(cand_counts) & Counter(ref_counts)).values())
    assert clipped_hits(cand_counts, ref_counts) == expected
    assert clipped_hits(ref_counts, cand_counts) == expected
    totals = max(len(cand) - n + 1, 0), max(len(ref) - n + 1, 0)
    assert clipped_hits(cand_counts, ref_counts, *totals) == expected  # the no-repeat shortcut


def test_result_records_survive_pickling_and_keep_value_hashes():
    # The app's st.cache_data pickles whole Results; Stats and Score stay usable as keys.
    result = score("the cat sat on the mat .\nit was warm", ["the cat lay on the mat", "a dog sat"],
                   ["rouge1", "rougeLsum", "rougeS4"], "rouge-1.5.5")
    again = pickle.loads(pickle.dumps(result))
    assert again.to_dict() == result.to_dict()
    for name, method in result.methods.items():
        copy = again.methods[name]
        assert copy.per_reference == method.per_reference  # stats, scores and evidence
        assert (copy.chosen, copy.reason, copy.signature) == (method.chosen, method.reason, method.signature)
    stats = result["rouge1"].per_reference[0].stats
    assert {stats: 1}[again["rouge1"].per_reference[0].stats] == 1
    assert hash(result["rouge1"].score) == hash(again["rouge1"].score)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcdef"), min_size=1, max_size=40), min_size=1, max_size=40))
def test_layout_masks_are_the_same_with_and_without_the_column_table(cand_sentences):
    import rouge_core.families.bitparallel_lcs as fast

    cand, bounds = layout(cand_sentences)
    with_table = CandidateLayout(cand, bounds)
    saved = fast._TABLE_MAX_BYTES
    fast._TABLE_MAX_BYTES = -1  # force the in-place shifts used for very long texts
    try:
        shifted = CandidateLayout(cand, bounds)
    finally:
        fast._TABLE_MAX_BYTES = saved
    assert shifted.masks == with_table.masks
    assert (shifted.full, shifted.start_rev) == (with_table.full, with_table.start_rev)


def test_a_layout_wider_than_the_column_table_scores_like_the_dp():
    import random

    rng = random.Random(7)
    cand = [rng.choice("abcdefgh") for _ in range(1500)]  # 1,500 columns: past _TABLE_MAX_BYTES
    ref = [rng.choice("abcdefgh") for _ in range(300)]
    grid = CandidateLayout(cand, ((0, 700), (700, 1500)))
    assert grid.nbytes > 128
    assert grid.lcs_length(ref) == lcs_table(ref, cand)[-1][-1]
    assert grid.union_positions(ref) == reference_union(ref, [cand[:700], cand[700:]])


@settings(max_examples=300, deadline=None)
@given(sentences, st.lists(st.sampled_from("abcdef"), max_size=20))
def test_unigram_hits_from_the_masks_equal_the_clipped_counts(cand_sentences, ref):
    cand, bounds = layout(cand_sentences)
    expected = sum((Counter(cand) & Counter(ref)).values())
    grid = CandidateLayout(cand, bounds)
    assert grid.unigram_hits(tuple(ref)) == expected
    assert grid.unigram_hits(ref) == expected  # a list is read afresh, not kept


def test_masks_of_keeps_tuples_by_identity_and_stays_right_past_its_limit():
    import rouge_core.families.bitparallel_lcs as fast

    grid = CandidateLayout(["a", "b", "a"], ((0, 3),))
    ref = ("a", "c", "b")
    first = grid.masks_of(ref)
    assert grid.masks_of(ref) is first
    assert first[1] is None and first[0] == grid.masks["a"] and first[2] == grid.masks["b"]
    listed = list(ref)
    assert grid.masks_of(listed) is not grid.masks_of(listed)  # lists may change: never kept
    refs = [("a",) * k + ("b",) for k in range(fast._READ_KEEP + 5)]  # more than are kept
    assert [grid.unigram_hits(r) for r in refs] == [min(k, 2) + 1 for k in range(fast._READ_KEEP + 5)]
    assert len(grid._read) <= fast._READ_KEEP


@settings(max_examples=150, deadline=None)
@given(st.permutations(["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4"]), sentences, sentences)
def test_methods_keep_the_order_asked_for_and_their_numbers_in_any_company(methods, cand_sentences, ref_sentences):
    # The LCS family is computed first (ROUGE-1 then reads the candidate's masks); the result
    # keeps the order asked for, and each method's numbers are those it gets on its own.
    cand = "\n".join(" ".join(s) for s in cand_sentences)
    ref = "\n".join(" ".join(s) for s in ref_sentences)
    together = score(cand, [ref], methods, "rouge-score", evidence=False)
    assert list(together.methods) == methods
    for name in methods:
        alone = score(cand, [ref], [name], "rouge-score", evidence=False)
        assert together[name].score == alone[name].score
        assert together[name].stats == alone[name].stats


@settings(max_examples=300, deadline=None)
@given(sentences, sentences)
def test_best_sentence_lcs_equals_every_pair_by_the_dp(cand_sentences, ref_sentences):
    """reval's form from one bit-parallel pass per candidate sentence equals comparing each
    candidate sentence with each reference sentence by the DP table (first longest wins)."""
    from rouge_core.families.lcs import best_sentence_lcs

    cand, cand_bounds = layout(cand_sentences)
    ref, ref_bounds = layout(ref_sentences)
    stats, evidence = best_sentence_lcs(cand, cand_bounds, ref, ref_bounds, evidence=True, clip=False)
    expected = []
    for c_index, c_sentence in enumerate(cand_sentences):
        lengths = [lcs_table(r_sentence, c_sentence)[-1][-1] for r_sentence in ref_sentences]
        best_len = max(lengths, default=0)
        expected.append((c_index, lengths.index(best_len) if best_len else -1, best_len))
    assert evidence.choices == tuple(expected)
    assert stats.hits == sum(length for _, _, length in expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=12), st.one_of(st.none(), st.integers(-1, 12)))
def test_the_teaching_positions_enumerate_the_counted_skip_bigrams(terms, distance):
    from rouge_core.families.skipgram import skip_bigram_positions

    pairs = [(terms[i], terms[j]) for i, j in skip_bigram_positions(len(terms), distance)]
    assert Counter(pairs) == skip_bigram_counts(terms, distance)
    assert list(dict.fromkeys(pairs)) == list(_reading_order(terms, distance))
