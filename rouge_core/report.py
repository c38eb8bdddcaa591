"""A report to share: one self-contained HTML file of a system comparison or of a single pair.

The file needs no network and no script: every chart is inline SVG (Vega-Lite rendered by
vl-convert-python, text escaped by Vega's SVG renderer), every table and text escaped here
(html.escape, pandas' escaping), the evidence drawn by rouge_core.viz's highlighters (which
escape what the user typed). It carries its signature, the SHA-256 of the data it was computed
on, every table and chart, and the evidence of chosen examples.

`compare_systems_report` computes what the Compare systems page and `rouge-lens compare` show
(rouge_core.corpora.corpus.compare_systems, rouge_core.studies.analysis, rouge_core.studies.source) into a
`SystemsAnalysis`; `systems_report_html` and `pair_report_html` write the files.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, Mapping, Sequence

from .studies import analysis
from . import optional
from .corpora.corpus import CorpusResult, SystemComparison, compare_systems, systems_frame
from .version import __version__

EXAMPLES_PER_SIDE = 3
TOP_NGRAMS = 15


def sha256_of(value) -> str:
    """The SHA-256 of a value's JSON text (texts kept exactly)."""
    payload = json.dumps(value, ensure_ascii=False, sort_keys=True).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()


def corpus_hashes(corpus) -> dict[str, str]:
    """The SHA-256 of each part of a corpus (rouge_core.corpora.corpus_io.Corpus): ids, references,
    sources, each system's candidates."""
    out = {"ids": sha256_of(list(corpus.ids)), "references": sha256_of([list(r) for r in corpus.references])}
    if corpus.sources is not None:
        out["sources"] = sha256_of(list(corpus.sources))
    for name, candidates in corpus.systems.items():
        out[f"system {name}"] = sha256_of(list(candidates))
    return out


# --- rendering ----------------------------------------------------------------------------------

def esc(text) -> str:
    return html.escape(str(text), quote=True)


def chart_svg(chart, width: int | None = 640) -> str:
    """A chart as inline SVG (no script, no network). Charts that size themselves to their
    container get `width` pixels."""
    vl_convert = optional.require("vl_convert", "the HTML report's charts")
    spec = chart.to_dict()
    if width is not None and "facet" not in spec and "width" not in spec:
        spec["width"] = width
    return vl_convert.vegalite_to_svg(json.dumps(spec))


def _number(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() and abs(value) >= 1000 else f"{value:.4g}" if abs(value) < 1e-3 and value else f"{value:.4f}"
    return str(value)


def table_html(frame, limit: int | None = None) -> str:
    """A DataFrame as an escaped HTML table, numbers written alike (4 decimals)."""
    rows = frame.head(limit) if limit else frame
    head = "".join(f"<th>{esc(c)}</th>" for c in rows.columns)
    body = "".join("<tr>" + "".join(f"<td>{esc(_number(v))}</td>" for v in record) + "</tr>"
                   for record in rows.itertuples(index=False, name=None))
    more = f'<p class="note">… {len(frame) - len(rows):,} more rows not shown.</p>' if len(rows) < len(frame) else ""
    return f'<div class="table"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{more}'


@dataclass
class Section:
    """One part of a report: a heading, a note (plain text, escaped), then any of a table, a
    chart and trusted HTML from rouge_core.viz's highlighters."""

    heading: str
    note: str = ""
    table: object = None
    chart: object = None
    markup: str = ""
    table_limit: int | None = None


_STYLE = """
body{font-family:system-ui,sans-serif;max-width:72rem;margin:1.5rem auto;padding:0 1rem;color:#1f2328;line-height:1.45}
h1{font-size:1.6rem} h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ddd}
.sig{font-family:ui-monospace,monospace;font-size:.8rem;word-break:break-all;background:#f6f8fa;padding:.4rem}
.note{font-size:.9rem;color:#555} table{border-collapse:collapse;font-size:.85rem}
td,th{border:1px solid #ddd;padding:.2rem .45rem;text-align:left;vertical-align:top} th{background:#f6f8fa}
.table{overflow-x:auto} .chart{overflow-x:auto;margin:.5rem 0} .chart svg{max-width:100%;height:auto}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
"""


def page(title: str, signature: str, hashes: Mapping[str, str], sections: Sequence[Section],
         generated: str | None = None) -> str:
    """The whole report: a page without scripts or external resources."""
    when = generated or datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"<h1>{esc(title)}</h1>",
             f'<p class="note">ROUGE Lens {esc(__version__)} · {esc(when)}</p>',
             f'<p>Signature</p><p class="sig">{esc(signature)}</p>']
    if hashes:
        rows = "".join(f"<tr><td>{esc(k)}</td><td class=\"sig\">{esc(v)}</td></tr>" for k, v in hashes.items())
        parts.append(f"<h2>Data (SHA-256)</h2><table><tbody>{rows}</tbody></table>")
    for section in sections:
        parts.append(f"<h2>{esc(section.heading)}</h2>")
        if section.note:
            parts.append(f'<p class="note">{esc(section.note)}</p>')
        if section.table is not None:
            parts.append(table_html(section.table, section.table_limit))
        if section.chart is not None:
            parts.append(f'<div class="chart">{chart_svg(section.chart)}</div>')
        if section.markup:
            parts.append(section.markup)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "img-src data:\">"
            f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>{''.join(parts)}</body></html>")


# --- a comparison of systems ----------------------------------------------------------------------

@dataclass
class SystemsAnalysis:
    """Everything the comparison of two systems shows, computed once."""

    corpus_name: str
    hashes: dict[str, str]
    system_a: str
    system_b: str
    method: str
    aggregates: object  # systems_frame
    comparison: SystemComparison | None
    ngrams: analysis.NgramDifferences
    buckets: list[analysis.Buckets]
    lengths: analysis.LengthStatistics
    source: object = None  # rouge_core.studies.source.SourceCorpusResult, when the corpus has sources
    examples: list[dict] = field(default_factory=list)  # chosen pairs with their evidence
    signature: str = ""
    options: object = None  # the rouge_core.Options the results were scored with


def compare_systems_report(corpus, results: Mapping[str, CorpusResult], system_a: str, system_b: str, method: str, *,
                           resamples: int = 1000, seed: int = 0, confidence: float = 95,
                           tokenized: analysis.TokenizedCorpus | None = None, source=None,
                           progress: Callable[[str], None] | None = None) -> SystemsAnalysis:
    """Compute the comparison of `system_a` and `system_b` on `method` (F): the paired tests,
    the n-grams each matches and the other misses, the buckets, the lengths and, when the
    corpus has sources and `source` is not given, the source statistics of every system."""
    say = progress or (lambda message: None)
    first = results[system_a]
    options = first.options
    signature = first.signatures[first.method_key(method)]
    say("tokenizing")
    tokens = tokenized or analysis.tokenize_corpus(corpus.systems, corpus.references, options, corpus.ids)
    say("testing the difference")
    try:
        comparison = compare_systems(results[system_a], results[system_b], method, names=(system_a, system_b),
                                     resamples=resamples, seed=seed, confidence=confidence)
    except ValueError:  # no pair with a defined score for both
        comparison = None
    say("n-grams")
    ngrams = analysis.ngram_differences(tokens, system_a, system_b, signature=signature)
    scores = {s: results[s].values(method) for s in (system_a, system_b)}
    kw = dict(resamples=resamples, seed=seed, confidence=confidence, signature=signature)
    say("buckets")
    buckets = [analysis.bucket_by_length(tokens, scores, "reference", measure=f"{method} F", **kw),
               analysis.bucket_by_length(tokens, scores, "candidate", measure=f"{method} F", **kw),
               analysis.bucket_by_frequency(tokens, [system_a, system_b], **kw),
               analysis.bucket_by_sentence_position(tokens, [system_a, system_b], **kw)]
    lengths = analysis.length_statistics(tokens, **kw)
    if source is None and corpus.sources is not None:
        from .studies.source import corpus_abstractiveness

        say("source statistics")
        source = corpus_abstractiveness(corpus.systems, corpus.sources, options, ids=corpus.ids, resamples=resamples,
                                        seed=seed, confidence=confidence)
    examples = []
    for favouring in (system_a, system_b):
        top = ngrams.top(favouring, EXAMPLES_PER_SIDE, n=None)
        for row in top.itertuples():
            pairs = ngrams.example_pairs(row.ngram, favouring)
            if pairs:
                i = pairs[0]
                examples.append({"ngram": row.ngram, "favours": favouring, "pair": i, "id": corpus.ids[i]})
    return SystemsAnalysis(corpus.source or "corpus", corpus_hashes(corpus), system_a, system_b, method,
                           systems_frame(results), comparison, ngrams, buckets, lengths, source, examples, signature,
                           options)


def example_markup(corpus, result: SystemsAnalysis, example: dict) -> str:
    """A chosen pair: the n-gram, both candidates with their ROUGE-1 matches marked against the
    pair's references, the references."""
    from .scorer.scoring import score
    from .viz.highlight import box_html, ngram_highlight_html

    i = example["pair"]
    refs = list(corpus.references[i])
    cells = []
    for system in (result.system_a, result.system_b):
        res = score(corpus.systems[system][i], refs, ["rouge1"], result.options, evidence=True)
        ms = res["rouge1"]
        evidence = ms.per_reference[ms.chosen or 0].evidence
        cells.append(f"<div><p><b>{esc(system)}</b></p>{ngram_highlight_html(res.candidate, evidence, 'candidate')}</div>")
    ref_boxes = "".join(box_html(r) for r in refs)
    return (f"<h3>Pair {esc(example['id'])}: “{esc(example['ngram'])}”, matched by {esc(example['favours'])} only</h3>"
            f"<div class=\"cols\">{''.join(cells)}</div><p><b>Reference{'s' if len(refs) > 1 else ''}</b></p>{ref_boxes}")


def systems_report_html(corpus, result: SystemsAnalysis, generated: str | None = None) -> str:
    """The comparison as one self-contained HTML file."""
    from .viz import analysis_charts as charts

    a, b = result.system_a, result.system_b
    sections = [Section("Scores of every system", "Macro (mean over pairs) and micro (pooled) P, R and F of every "
                        "method.", table=result.aggregates.drop(columns=["signature"], errors="ignore"))]
    if result.comparison is not None:
        c = result.comparison
        sections.append(Section(f"{a} against {b} on {result.method}", c.summary(), table=c.tests_frame()))
    if result.source is not None:
        frame = result.source.frame()
        sections.append(Section("Copying from the source", "Coverage, density and compression (Grusky et al. 2018, "
                                "Newsroom) and the share of novel n-grams, mean per system with its bootstrap interval. "
                                f"Signature: {result.source.signature}",
                                table=frame.drop(columns=["signature", "statistic"]),
                                chart=charts.source_statistics_chart(frame, result.source.signature,
                                                                     result.source.confidence)))
    for favouring in (a, b):
        top = result.ngrams.top(favouring, TOP_NGRAMS)
        other = b if favouring == a else a
        sections.append(Section(f"Reference n-grams {favouring} matches and {other} misses",
                                "Counted over the corpus (clipped as ROUGE-N); salience (m_A + 1) / (m_A + m_B + 2) as "
                                "compare-mt; p: exact sign test over the documents where one system matched the n-gram "
                                "more often, adjusted_p: Holm over every n-gram.",
                                table=top, chart=charts.ngram_difference_chart(top, a, b, result.signature)
                                if not top.empty else None))
    for bucket in result.buckets:
        frame = bucket.frame()
        sections.append(Section(bucket.title, f"{bucket.resamples:,} resamples of the documents, seed {bucket.seed}.",
                                table=frame.drop(columns=["order"]),
                                chart=charts.bucket_chart(frame, bucket.title, bucket.measure, bucket.signature,
                                                          bucket.confidence)))
    sections.append(Section("Length", "Candidate length over the mean reference length, per pair: ROUGE recall "
                            "rewards length.", table=result.lengths.frame(),
                            chart=charts.length_ratio_chart(result.lengths.pairs_frame(), result.signature)))
    if result.examples:
        markup = "".join(example_markup(corpus, result, e) for e in result.examples)
        sections.append(Section("Examples", "For the n-grams each system matches most reliably, a pair where it does "
                                "and the other does not (ROUGE-1 matches marked).", markup=markup))
    return page(f"ROUGE Lens: {a} against {b} ({result.corpus_name})", result.signature, result.hashes, sections,
                generated)


# --- a single pair -----------------------------------------------------------------------------

def pair_report_html(result, abstractiveness=None, generated: str | None = None) -> str:
    """One scored pair (a rouge_core.Result with evidence or without) and, optionally, its
    source statistics (rouge_core.studies.source.Abstractiveness, with word origins when computed)."""
    from .scorer.scoring import score
    from .viz import charts as base_charts
    from .viz import tables
    from .viz.highlight import ngram_highlight_html
    from .viz.source_highlight import ORIGIN_LEGEND, fragments_html, origins_html

    pd = optional.pandas("the HTML report")
    frame = tables.scores_table(result)
    texts = {"candidate": result.candidate.text, "references": [r.text for r in result.references]}
    if abstractiveness is not None:
        texts["source"] = abstractiveness.source.text
    hashes = {k: sha256_of(v) for k, v in texts.items()}
    sig = next(iter(result)).signature if result.methods else ""
    sections = [Section("Scores", table=frame.drop(columns=["name", "short", "signature"], errors="ignore"),
                        chart=base_charts.prf_bars(frame))]
    refs = [r.text for r in result.references]
    matched = score(result.candidate.text, refs, ["rouge1"], result.options, evidence=True)
    chosen = matched["rouge1"].chosen or 0
    sections.append(Section("Matched words (ROUGE-1)", f"Against reference {chosen + 1}.",
                            markup=ngram_highlight_html(matched.candidate,
                                                        matched["rouge1"].per_reference[chosen].evidence, "candidate")))
    if abstractiveness is not None:
        a = abstractiveness
        values = pd.DataFrame([{"statistic": k, "value": v} for k, v in a.values().items()])
        sections.append(Section("Copying from the source", f"Signature: {a.signature}", table=values))
        if a.origins is not None:
            sections.append(Section("Where the candidate's words come from", markup=ORIGIN_LEGEND + origins_html(a)))
        cand_html, source_html = fragments_html(a)
        sections.append(Section("Extractive fragments", "Each fragment numbered on both texts.",
                                table=pd.DataFrame(a.fragment_rows()).drop(columns=["summary_chars", "source_chars"],
                                                                           errors="ignore")
                                if a.fragments else None,
                                markup=f"<div class=\"cols\"><div><p><b>Candidate</b></p>{cand_html}</div>"
                                       f"<div><p><b>Source</b></p>{source_html}</div></div>"))
    return page("ROUGE Lens: one summary", sig, hashes, sections, generated)


__all__ = ["Section", "SystemsAnalysis", "chart_svg", "compare_systems_report", "corpus_hashes", "page",
           "pair_report_html", "sha256_of", "systems_report_html", "table_html"]
