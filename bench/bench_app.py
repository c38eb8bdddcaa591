"""ROUGE Lens app benchmark: latency of every user action in a real browser.

Run from the repository root on an otherwise idle machine:

    python bench/bench_app.py                 # all three input sizes, 5 repetitions per action
    python bench/bench_app.py --repeat 3 --size long

It starts the app on a free port, drives Debian's Chromium with Playwright and, for each
input size, times every action from the moment it is made (its first input event in the
page) to the page fully rendered: the script run it triggers has finished (Streamlit's
`data-test-script-state` back to `notRunning`), no element is left stale and every chart has
drawn. After a paste or an upload it also times the headline scores (the frame that paints
the ROUGE-1 F metric's new value). A paste is a real one (clipboard, Ctrl+V), timed from the
paste (focusing the text area comes first, untimed); a select is timed from the pick of its
option (opening its menu comes first, untimed: it happens in the browser alone). Each repetition
uses a new value where the action has one (another candidate, another weight), so most
runs are not answered from a cache; the table gives the median and the worst.

    python bench/bench_app.py --size none --meta --repeat 3   # the meta-evaluation page at study size

Input sizes (issue 13's targets):
  long  a ~2,000-token candidate with 4 references of ~2,000 tokens (generated, corpus_gen)
  700w  a 700-word candidate with 4 references of real prose (DUC 2002 summaries)
  small a 10-word candidate with 4 references of about 10 words (target: every action,
        median and worst, under 0.5 s)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import rouge_core  # noqa: E402
from corpus_gen import make_multi_reference  # noqa: E402
from lens_app.devserver import CHROMIUM, CHROMIUM_ARGS, running_app, text_box  # noqa: E402
from lens_app.settings import MULTI_REF_LABELS, STEMMER_LABELS  # noqa: E402

DUC = ROOT / "tests" / "data" / "conformance" / "rouge155-official" / "sample-test" / "DUC2002" / "docs-spl"
TARGET_MEDIAN, TARGET_WORST, TARGET_HEADLINE = 1.0, 2.0, 0.5
# Issue 13 sets the headline's target after a paste; an upload's headline is timed and shown
# too (its file goes over HTTP before the run starts), its target being the page's.
PASTE = "paste the candidate"
HEADLINE_ACTIONS = (PASTE,)

# Records, with their times (performance.now()), every change of Streamlit's script state,
# the user's input events (the first one after an action starts is the action's moment, as the
# browser saw it: Playwright's own work to find the element and check it is ready, 20-150 ms
# on this page, is not the user's wait), and every new value of the ROUGE-1 F metric, timed at
# the animation frame after the change (the frame that paints it), so the headline's time is
# read in the page instead of polled from outside.
STATE_OBSERVER = """
window.__rlStates = [];
window.__rlEvents = [];
window.__rlHeadlines = [];
new MutationObserver(records => {
  for (const r of records) {
    const value = r.target.getAttribute('data-test-script-state');
    if (value) window.__rlStates.push([performance.now(), value]);
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-test-script-state']});
for (const type of ['pointerdown', 'keydown', 'paste', 'input', 'change'])
  document.addEventListener(type, () => window.__rlEvents.push(performance.now()), true);
let shownHeadline = null;
new MutationObserver(() => {
  for (const metric of document.querySelectorAll("[data-testid='stMetric']")) {
    const label = metric.querySelector("[data-testid='stMetricLabel']");
    if (!label || !label.textContent.includes('ROUGE-1 F')) continue;
    const value = metric.querySelector("[data-testid='stMetricValue']");
    const text = value ? value.textContent.trim() : null;
    if (text !== shownHeadline) {
      shownHeadline = text;
      requestAnimationFrame(() => window.__rlHeadlines.push([performance.now(), text]));
    }
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""

SETTLED = """() => {
  if (document.querySelector('[data-stale="true"]')) return false;
  for (const chart of document.querySelectorAll('[data-testid="stVegaLiteChart"]'))
    if (!chart.querySelector('canvas, svg')) return false;
  return true;
}"""


# --- inputs --------------------------------------------------------------------------------

def generated_long() -> tuple[str, list[str]]:
    return make_multi_reference(tokens=2000, sentences=80, references=4, seed=13)


def duc_prose(words: int = 700, references: int = 4) -> tuple[str, list[str]]:
    """A candidate of system 26's DUC 2002 summaries and references of the human ones."""
    docsets = sorted({p.name.split(".")[0] for p in DUC.glob("*.spl")})
    per = max(1, words // 100)

    def text(sets, human: bool) -> str:
        parts = []
        for d in sets:
            files = sorted(p for p in DUC.glob(f"{d}.*.spl") if (p.name.split(".")[4] != "26") == human)
            parts.append(files[0].read_text(encoding="utf-8", errors="replace").strip())
        return "\n".join(parts)

    candidate = text(docsets[:per], human=False)
    refs = [text(docsets[k * per:(k + 1) * per], human=True) for k in range(references)]
    return candidate, refs


def small_pair() -> tuple[str, list[str]]:
    """A 10-word candidate with 4 references of about as many words (issue 13's first row)."""
    return ("police killed the gunman after a long siege downtown",
            ["the gunman was shot dead by police after a siege",
             "police ended the siege by killing the gunman",
             "a gunman died when police stormed the building downtown",
             "after hours of siege the police killed the gunman"])


SIZES = {"long": ("~2,000 tokens, 4 refs (generated)", generated_long),
         "700w": ("700 words, 4 refs (DUC 2002 prose)", duc_prose),
         "small": ("10 words, 4 refs (small pair)", small_pair)}
# Issue 13: small pairs stay under 0.5 s (every action, median and worst).
SMALL_TARGET = {"small": 0.5}


def variant(text: str, i: int) -> str:
    """The candidate with one sentence changed, so a repeated paste is a new input: 1 to 10
    new words (as many as the last digit of i, plus one), so the ROUGE-1 F the headline
    shows differs from the one before (an action i follows i - 1, or, between two actions,
    a multiple of ten or the start), or the headline's time would be read from the old value."""
    lines = text.split("\n")
    extra = " ".join(f"extra{i}w{k}" for k in range(i % 10 + 1))
    lines[i % len(lines)] = f"{lines[i % len(lines)]} {extra}"
    return "\n".join(lines)


# --- driving the page ------------------------------------------------------------------------

# True once a run that started after t0 has finished, or when none started within 1.5 s
# (an action that needs no script run, such as switching an eager tab).
RUN_FINISHED_OR_NONE = """t0 => {
  let ran = false;
  for (const [t, state] of window.__rlStates) {
    if (t < t0) continue;
    if (state === 'running') ran = true;
    else if (ran && state === 'notRunning') return 'ran';
  }
  return !ran && performance.now() - t0 > 1500 ? 'none' : false;
}"""


class Timer:
    def __init__(self, page, timeout_ms: int = 120_000):
        self.page, self.timeout_ms = page, timeout_ms

    def now(self) -> float:
        return self.page.evaluate("performance.now()")

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED, timeout=self.timeout_ms, polling=20)
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def run(self, act: Callable[[], None], *, headline: str | None = None, prepare: Callable[[], None] | None = None
            ) -> dict:
        """Seconds from `act` to the page fully rendered (and to the headline value shown);
        `prepare` runs first, untimed (a user scrolls to a widget before using it). The clock
        starts at the action's first input event in the page (or, if it makes none, when
        `act` is called)."""
        page = self.page
        if prepare is not None:
            prepare()
        called = self.now()
        act()
        t0 = page.evaluate("t => window.__rlEvents.find(e => e >= t) ?? t", called)
        out = {}
        if headline is not None:
            # Waited for before the settling: while the run goes on, the sections below stay
            # stale, and the headline a user reads above them would be timed with the slowest.
            shown = page.wait_for_function(
                "([t, v]) => (window.__rlHeadlines.find(([at, text]) => at >= t && text === v) || [])[0]",
                arg=[t0, headline], timeout=self.timeout_ms, polling=20).json_value()
            out["headline"] = (shown - t0) / 1000
        self.settle()
        settled_without_run = (self.now() - t0) / 1000
        outcome = page.wait_for_function(RUN_FINISHED_OR_NONE, arg=t0, timeout=self.timeout_ms, polling=20).json_value()
        if outcome == "none":
            out["rendered"] = settled_without_run
        else:
            self.settle()
            out["rendered"] = (self.now() - t0) / 1000
        return out


def idle(page) -> None:
    page.wait_for_function("() => { const s = window.__rlStates; return s.length && s[s.length - 1][1] === 'notRunning'; }",
                           timeout=120_000, polling=50)
    page.wait_for_function(SETTLED, timeout=120_000, polling=50)


def sidebar_combobox(page, label: str):
    return page.locator("[data-testid='stSidebar']").get_by_role("combobox", name=label, exact=True)


def reveal(page, locator) -> None:
    """Scroll `locator` into view and let the page settle. A select partly below the window
    that Playwright scrolls into view as part of its click opens and is closed at once by that
    scroll (a lost click, a 10 s retry in the table); a user scrolls first, untimed."""
    locator.scroll_into_view_if_needed()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def open_select(page, label: str, option: str):
    """Scroll the sidebar select into view and open its menu until `option` shows (a click
    that does not open it is tried again); returns the option. Untimed, as focusing the text
    area before a paste: the menu opens in the browser alone, and the user's wait for the
    new scores starts when they pick."""
    combobox = sidebar_combobox(page, label)
    reveal(page, combobox)
    for attempt in range(3):
        combobox.click()
        choice = page.get_by_role("option", name=option, exact=True)
        try:
            choice.wait_for(timeout=10_000)
            return choice
        except Exception:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")


def select_action(page, label: str, option: str) -> tuple[Callable[[], None], Callable[[], None]]:
    """(act, prepare) for Timer.run: prepare opens the menu, act picks `option` in it."""
    opened = {}

    def prepare() -> None:
        opened["choice"] = open_select(page, label, option)

    return (lambda: opened["choice"].click()), prepare


def sidebar_number(page, label: str, value) -> None:
    field = page.locator("[data-testid='stSidebar']").get_by_label(label, exact=True)
    field.fill(str(value))
    field.press("Enter")


def paste_text(page, text: str) -> None:
    """What a user does to replace a text with one from elsewhere, in the focused text area:
    select all, paste (one `paste` event and one `input`, as a real paste; Playwright's `fill`
    instead types a multi-line text as one edit per line), Ctrl+Enter (the app applies a paste
    at once, lens_app/browser_texts.py, so that finds nothing left to apply). The text goes to
    the clipboard first (the context has clipboard permissions)."""
    page.evaluate("t => navigator.clipboard.writeText(t)", text)
    for keys in ("Control+A", "Control+V", "Control+Enter"):
        page.keyboard.press(keys)


def focus_text(page, label: str) -> None:
    text_box(page, label).focus()


def upload_pair(page, candidate: str, references: list[str], folder: Path, name: str) -> None:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"candidate": candidate, "references": references}), encoding="utf-8")
    expander = page.get_by_text("Upload files instead of typing")
    if not page.locator("[data-testid='stFileUploader']").filter(has_text="Candidate and references").is_visible():
        expander.click()
    page.locator("[data-testid='stFileUploader']").filter(has_text="Candidate and references") \
        .locator("input[type='file']").set_input_files(str(path))


def headline_value(candidate: str, references: list[str], options) -> str:
    return f"{rouge_core.score(candidate, references, ['rouge1'], options, evidence=False)['rouge1'].fmeasure:.4f}"


# --- the actions -----------------------------------------------------------------------------

def score_page_actions(page, timer: Timer, texts, repeat: int, folder: Path) -> dict[str, list[dict]]:
    candidate, references = texts
    results: dict[str, list[dict]] = {}

    def record(name: str, measured: dict) -> None:
        results.setdefault(name, []).append(measured)

    profile = rouge_core.profile("rouge-score")
    for i in range(repeat):
        cand = variant(candidate, 100 + i)
        record("upload a pair file (JSON)", timer.run(lambda: upload_pair(page, cand, references, folder, f"u{i}"),
                                                      headline=headline_value(cand, references, profile)))
    for i in range(repeat):
        cand = variant(candidate, i)
        record(PASTE, timer.run(lambda: paste_text(page, cand),
                                                headline=headline_value(cand, references, profile),
                                                prepare=lambda: focus_text(page, "Candidate (the summary to score)")))
    for i in range(repeat):
        name = ("rouge-1.5.5", "rouge-score")[i % 2]
        act, prepare = select_action(page, "Profile", name)
        record("sidebar: profile", timer.run(act, prepare=prepare))
    for i in range(repeat):
        act, prepare = select_action(page, "Stemmer", STEMMER_LABELS[("porter", "none")[i % 2]])
        record("sidebar: stemmer", timer.run(act, prepare=prepare))
    for i in range(repeat):
        record("sidebar: W weight", timer.run(lambda: sidebar_number(page, "W weight", f"{1.3 + 0.1 * i:.2f}")))
    for i in range(repeat):
        record("sidebar: n", timer.run(lambda: sidebar_number(page, "n: ROUGE-1 … ROUGE-n", 3 + i % 3)))
    for i in range(repeat):
        record("sidebar: skip distance", timer.run(lambda: sidebar_number(page, "Skip distance (S, SU)", 5 + i)))
    for i in range(repeat):
        act, prepare = select_action(page, "Several references", MULTI_REF_LABELS[("best-recall", "best-f")[i % 2]])
        record("sidebar: several references", timer.run(act, prepare=prepare))
    for _ in range(repeat):
        record("toggle: per-reference scores", timer.run(lambda: page.get_by_text("Show per-reference scores").click()))
    tabs = ["LCS alignment (ROUGE-L, Lsum)", "Weighted runs (ROUGE-W)", "Skip-bigrams (ROUGE-S, SU)",
            "Matched n-grams (ROUGE-N)"]
    for i in range(repeat):
        for tab in tabs:
            record(f"evidence tab: {tab.split(' (')[0]}", timer.run(lambda: page.get_by_role("tab", name=tab).click()))
    return results


# --- the meta-evaluation page at the size of a study ------------------------------------------

META_PAGE = "Which ROUGE agrees with your annotators?"
# Issue 29, item 5: 16 systems x 100 documents x 11 references x 4 aspects
META_TARGETS = {"score every variant": 10.0, "switch aspect": 1.0, "switch coefficient": 1.0,
                "1,000 bootstrap resamples": 2.0}


def study_files(folder: Path) -> tuple[Path, Path]:
    """The study-size corpus (corpus_gen.study_corpus) and its judgements as the uploads take them."""
    import csv

    from corpus_gen import study_corpus

    rows, judgements = study_corpus()
    corpus, marks = folder / "study.csv", folder / "study_judgements.csv"
    for path, records in ((corpus, rows), (marks, judgements)):
        with open(path, "w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(records[0]))
            writer.writeheader()
            writer.writerows(records)
    return corpus, marks


def main_select(page, label: str, option: str) -> tuple[Callable[[], None], Callable[[], None]]:
    """(act, prepare) for a select in the page (not the sidebar)."""
    opened = {}

    def prepare() -> None:
        combobox = page.locator("[data-testid='stMain']").get_by_role("combobox", name=label, exact=True).first
        reveal(page, combobox)
        combobox.click()
        opened["choice"] = page.get_by_role("option", name=option, exact=True)
        opened["choice"].wait_for(timeout=10_000)

    return (lambda: opened["choice"].click()), prepare


def main_number(page, label: str, value) -> None:
    field = page.locator("[data-testid='stMain']").get_by_label(label, exact=True).first
    field.fill(str(value))
    field.press("Enter")


def meta_page_actions(page, timer: Timer, repeat: int, folder: Path) -> dict[str, list[dict]]:
    """The meta-evaluation page with the study corpus and its judgements loaded: scoring every
    variant (10 variants: 5 profiles with stemming off and on), then switching the aspect and
    the coefficient, and recomputing 1,000 bootstrap resamples."""
    corpus, marks = study_files(folder)
    results: dict[str, list[dict]] = {}
    main = page.locator("[data-testid='stMain']")
    page.locator("[data-testid='stSidebarNav'] a").filter(has_text=META_PAGE).click()
    idle(page)
    main.locator("[data-testid='stFileUploader']").filter(has_text="Corpus file").locator("input[type='file']") \
        .set_input_files(str(corpus))
    page.wait_for_timeout(500)
    idle(page)
    uploader = main.locator("[data-testid='stFileUploader']").filter(has_text="Judgements file")
    if not uploader.is_visible():
        main.get_by_text("Import judgements from a file").click()
        idle(page)
    uploader.locator("input[type='file']").set_input_files(str(marks))
    page.wait_for_timeout(500)
    idle(page)
    button = main.get_by_role("button", name="Score every variant")
    reveal(page, button)
    results["score every variant"] = [timer.run(lambda: button.click())]
    aspects = ["relevance", "fluency", "consistency", "coherence"]
    for i in range(repeat):
        act, prepare = main_select(page, "Aspect (task)", aspects[i % len(aspects)])
        results.setdefault("switch aspect", []).append(timer.run(act, prepare=prepare))
    coefficients = ["Pearson r", "Spearman ρ", "Kendall τ-c", "Kendall τ-b"]
    for i in range(repeat):
        choice = main.locator("[data-testid='stButtonGroup']").get_by_text(coefficients[i % len(coefficients)],
                                                                           exact=True)
        reveal(page, choice)
        results.setdefault("switch coefficient", []).append(timer.run(lambda: choice.click()))
    for i in range(repeat):
        main_number(page, "Resamples", 0)
        idle(page)
        results.setdefault("1,000 bootstrap resamples", []).append(
            timer.run(lambda: main_number(page, "Resamples", 1000 + i)))
    return results


def run_meta(browser, url: str, repeat: int, folder: Path) -> dict[str, list[dict]]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(STATE_OBSERVER)
    page = context.new_page()
    page.set_default_timeout(300_000)
    page.goto(url)
    idle(page)
    results = meta_page_actions(page, Timer(page, timeout_ms=300_000), repeat, folder)
    context.close()
    return results


def print_meta_table(rows: list[dict]) -> None:
    print("\nWhich ROUGE agrees? 16 systems x 100 documents x 11 references x 4 aspects (bench/corpus_gen.study_corpus)")
    print("| action | runs | median (s) | worst (s) | target (s) | target met |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        target = META_TARGETS[r["action"]]
        print(f"| {r['action']} | {r['runs']} | {r['median']:.2f} | {r['worst']:.2f} | {target:g} | "
              f"{'yes' if r['worst'] <= target else 'NO'} |")


def page_actions(page, timer: Timer, repeat: int) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = {}
    nav = page.locator("[data-testid='stSidebarNav'] a")
    for _ in range(repeat):
        for title in ("Learn", "Why do tools disagree?", "Score"):
            results.setdefault(f"open page: {title}", []).append(timer.run(lambda: nav.filter(has_text=title).click()))
    return results


def run_size(browser, url: str, key: str, repeat: int, folder: Path) -> dict[str, list[dict]]:
    label, make = SIZES[key]
    texts = make()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url.rstrip("/"))
    context.add_init_script(STATE_OBSERVER)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(url)
    idle(page)
    timer = Timer(page)
    upload_pair(page, *texts, folder, f"start-{key}")  # the session starts on these texts
    page.wait_for_timeout(500)
    idle(page)
    results = score_page_actions(page, timer, texts, repeat, folder)
    results.update(page_actions(page, timer, repeat))
    context.close()
    return results


def summarise(results: dict[str, list[dict]]) -> list[dict]:
    rows = []
    for action, runs in results.items():
        rendered = [r["rendered"] for r in runs]
        row = {"action": action, "runs": len(runs), "median": statistics.median(rendered), "worst": max(rendered)}
        if any("headline" in r for r in runs):
            headline = [r["headline"] for r in runs]
            row["headline median"], row["headline worst"] = statistics.median(headline), max(headline)
        rows.append(row)
    return rows


def print_table(title: str, rows: list[dict], key: str) -> None:
    limit = SMALL_TARGET.get(key)
    print(f"\n{title}")
    print("| action | median (s) | worst (s) | headline median / worst (s) | target met |")
    print("|---|---|---|---|---|")
    for r in rows:
        met = r["median"] < TARGET_MEDIAN and r["worst"] < TARGET_WORST
        if limit is not None:
            met = r["median"] < limit and r["worst"] < limit
        headline = ""
        if "headline median" in r:
            headline = f"{r['headline median']:.2f} / {r['headline worst']:.2f}"
            if r["action"] in HEADLINE_ACTIONS:
                met = met and r["headline worst"] < TARGET_HEADLINE
        print(f"| {r['action']} | {r['median']:.2f} | {r['worst']:.2f} | {headline} | {'yes' if met else 'NO'} |")


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per action (default 5)")
    parser.add_argument("--size", choices=[*SIZES, "all", "none"], default="all",
                        help="the Score page's input sizes to run (none: only --meta)")
    parser.add_argument("--meta", action="store_true",
                        help="also the meta-evaluation page at study size (16 systems x 100 documents x 11 references)")
    parser.add_argument("--json", metavar="FILE", help="also write the raw timings here")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    sizes = list(SIZES) if args.size == "all" else [] if args.size == "none" else [args.size]
    print(f"ROUGE Lens app benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, Chromium {CHROMIUM}, {args.repeat} repetitions")
    report = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with running_app(folder / "streamlit.log", env={"ROUGE_LENS_DB": str(folder / "j.sqlite3")}) as url:
            for key in sizes:
                started = time.monotonic()
                results = run_size(browser, url, key, args.repeat, folder)
                rows = summarise(results)
                report[key] = {"label": SIZES[key][0], "rows": rows, "raw": results}
                print_table(f"{SIZES[key][0]}  ({time.monotonic() - started:.0f} s)", rows, key)
            if args.meta:
                print(f"load average before the meta page: {load_average()}")
                results = run_meta(browser, url, args.repeat, folder)
                rows = summarise(results)
                report["meta"] = {"label": "meta-evaluation page, study size", "rows": rows, "raw": results}
                print_meta_table(rows)
                print(f"load average after: {load_average()}")
        browser.close()
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
