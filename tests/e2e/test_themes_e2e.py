"""Highlights readable in Streamlit's light and dark themes: every piece of highlighted text
keeps a WCAG contrast of at least 4.5:1 against what it is drawn on, and no text box paints
a background of its own. Screenshots of each evidence tab in both themes go to
test-artifacts/theme-<theme>-<tab>.png."""

from __future__ import annotations

import re

import pytest

from lens_app.devserver import running_app

pytestmark = pytest.mark.e2e

EVIDENCE_TABS = ["Matched n-grams", "LCS alignment", "Weighted runs"]
HIGHLIGHT_PARTS = ".rl-text, .rl-text *, .rl-union, .rl-union *, .rl-legend, .rl-legend *"

# For each element with text of its own: its colour composed over the backdrop it is drawn on
# (the translucent backgrounds of it and its ancestors, down to the first opaque one), with the
# opacity of it and its ancestors, and the WCAG contrast ratio of the two.
CONTRASTS = """(selector) => {
  const parse = (s) => {
    const m = s.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return {r: 0, g: 0, b: 0, a: 0};
    const p = m[1].split(',').map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const over = (top, bottom) => ({r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
                                  b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let base = {r: 255, g: 255, b: 255, a: 1};
    for (const c of layers.reverse()) base = over(c, base);
    return base;
  };
  const luminance = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    if (!own) continue;
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const bg = backdrop(el);
    const fg = parse(getComputedStyle(el).color);
    const seen = over({...fg, a: fg.a * opacity}, bg);
    const [hi, lo] = [luminance(seen), luminance(bg)].sort((x, y) => y - x);
    out.push({text: own.slice(0, 40), ratio: (hi + 0.05) / (lo + 0.05)});
  }
  return out;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_highlights_are_readable_in_both_themes(theme, chromium_browser, artifacts_dir):
    with running_app(artifacts_dir / f"streamlit-theme-{theme}.log", env={"STREAMLIT_THEME_BASE": theme}) as url:
        context = chromium_browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            page.goto(url)
            page.get_by_role("button", name="reval: the cat is sitting").click()
            page.locator("span.rl-matched").first.wait_for()
            page_background = page.evaluate(
                "() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor")
            dark_page = sum(map(int, re.findall(r"\d+", page_background)[:3])) < 3 * 128
            assert dark_page == (theme == "dark"), page_background
            for tab in EVIDENCE_TABS:
                page.get_by_role("tab", name=re.compile(tab)).click()
                page.locator(".rl-text").first.wait_for(state="visible")
                page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')")
                page.locator(".rl-text").first.scroll_into_view_if_needed()
                page.screenshot(path=str(artifacts_dir / f"theme-{theme}-{tab.split()[0].lower()}.png"))
                parts = page.evaluate(CONTRASTS, HIGHLIGHT_PARTS)
                assert len(parts) >= 10, tab
                poor = [p for p in parts if p["ratio"] < 4.5]
                assert not poor, f"{theme} theme, {tab}: text below 4.5:1 contrast: {poor[:5]}"
                boxes = page.evaluate("() => [...document.querySelectorAll('.rl-text, .rl-union')]"
                                      ".map((e) => getComputedStyle(e).backgroundColor)")
                assert boxes and set(boxes) == {"rgba(0, 0, 0, 0)"}, boxes  # the page shows through
        finally:
            context.close()
