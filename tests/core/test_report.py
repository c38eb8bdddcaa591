"""rouge_core.report: one self-contained HTML file, escaped, signed, with the data's hashes."""

from __future__ import annotations

import hashlib
import json
import re

from rouge_core.corpora import corpus_io
from rouge_core import profile, score, score_corpus
from rouge_core.report import compare_systems_report, corpus_hashes, pair_report_html, sha256_of, systems_report_html
from rouge_core.studies.source import abstractiveness

EVIL = '<script>alert("x")</script>'


def corpus():
    rows = [{"id": "1", "candidate_A": "the cat sat on the mat", f"candidate_{EVIL}": "a cat is on a mat",
             "reference": "the cat sat on a mat\nit was happy", "source": f"the cat sat on the mat. {EVIL}"},
            {"id": "2", "candidate_A": "a dog ran home", f"candidate_{EVIL}": "the dog slept",
             "reference": "a dog ran home\nthen it slept", "source": "a dog ran home and then it slept"}]
    data = "\n".join(json.dumps(r) for r in rows).encode()
    return corpus_io.build_corpus(corpus_io.read_jsonl(data, "c.jsonl"))


def test_systems_report_is_self_contained_escaped_and_signed():
    c = corpus()
    opts = profile("rouge-score")
    results = {s: score_corpus(list(v), list(c.references), ["rouge1", "rougeL"], opts, ids=list(c.ids))
               for s, v in c.systems.items()}
    analysis = compare_systems_report(c, results, "candidate_A", f"candidate_{EVIL}", "rouge1", resamples=50)
    html = systems_report_html(c, analysis, generated="fixed")
    outside_namespaces = re.sub(r'xmlns(:\w+)?="[^"]*"', "", html)  # SVG's namespace names are no address to fetch
    assert "<script" not in html.lower() and "http://" not in outside_namespaces and "https://" not in outside_namespaces
    assert " src=" not in html
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "&lt;script&gt;" in html  # the system name and the source, shown as typed
    assert analysis.signature in html and analysis.source.signature in html
    hashes = corpus_hashes(c)
    assert hashes["sources"] == hashlib.sha256(json.dumps(list(c.sources), ensure_ascii=False,
                                                          sort_keys=True).encode()).hexdigest()
    assert all(h in html for h in hashes.values())
    assert html.count("<svg") >= 7  # source, n-grams of each side, four buckets, lengths


def test_pair_report_with_and_without_a_source():
    opts = profile("rouge-score")
    result = score("the cat sat quietly", ["a cat sat"], ["rouge1", "rougeL"], opts)
    plain = pair_report_html(result, generated="fixed")
    assert "Copying from the source" not in plain and sha256_of("the cat sat quietly") in plain
    a = abstractiveness(f"the cat sat {EVIL}", "the cat sat on the mat", opts, references=["a cat sat"])
    full = pair_report_html(score(f"the cat sat {EVIL}", ["a cat sat"], ["rouge1"], opts), a, generated="fixed")
    assert "<script" not in full.lower() and "rl-origin-novel" in full and "rl-fragment" in full
    assert a.signature in full and sha256_of(a.source.text) in full
