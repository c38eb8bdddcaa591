"""The Score page's texts kept in the browser tab across a reload, and a pasted text applied
at once. One small Streamlit component (st.components.v2, inline JavaScript, drawn hidden)
does both; it runs on every page (inputs.ensure_texts mounts it).

Why the tab's sessionStorage: a reload starts a new server session, so whatever the server
kept is gone; the texts must come back from the browser. sessionStorage belongs to one tab of
one site: it survives a reload, is never sent to the server by itself, never enters the URL,
and is forgotten when the tab closes; a new tab starts empty (the browser's "Duplicate tab"
copies it, as it copies the tab's history). localStorage would keep the texts on the disk
of the user's machine for every later visit, and cookies would send them with every request:
neither keeps the promise that texts live in the browser session only. The server writes
nothing anywhere.

How: every run hands the texts on screen (as `textio.pair_to_json` writes them) to the
component, which stores them under STORAGE_KEY. A new server session tells the browser a new
session id; the first time the component sees that id it offers the tab's kept texts back
(a trigger value), unless the session's texts came from a share link, which wins. The
callback checks them (`textio.parse_pairs`) and replaces the session's first example.

Pasting: Streamlit learns a text area's value when the user presses Ctrl+Enter or leaves the
box; a paste into the Score page's text areas is followed by the text area's own Ctrl+Enter
(the gesture Streamlit documents for applying a value), so a pasted text is scored at once.
Typed text still applies with Ctrl+Enter or on leaving the box, as the page says.
"""

from __future__ import annotations

import uuid

import streamlit as st

from rouge_core.text.textio import InputError, pair_to_json, parse_pairs

from . import state

STORAGE_KEY = "rouge-lens-texts"  # the tab's sessionStorage entry
KEEPER_KEY = "text_keeper"  # the component's widget key (its container's CSS class: st-key-text_keeper)
_SESSION_ID_KEY = "_browser_session_id"  # this server session, as the browser is told
_OFFER_KEY = "_offer_kept_texts"  # the session's texts are its first example: the tab's may replace them
RESTORED_NOTE_KEY = "_restored_note"  # the texts the tab gave back, while they are on screen
# The Score page's text areas (their keys, or the start of them): a paste into them applies at once.
PASTE_TARGETS = (state.CANDIDATE_INPUT_KEY, state.REFERENCE_INPUT_PREFIX)

_JS = r"""
export default function (component) {
  const { data, setTriggerValue, setStateValue } = component;
  const tab = (window.__rougeLensTexts ??= {});
  let kept = null;
  try { kept = window.sessionStorage.getItem(data.storage_key); } catch (e) { return; }  // storage disabled

  // A new server session (a reload): give back what this tab kept, once, unless the
  // session's texts came from a link.
  if (tab.session !== data.session) {
    tab.session = data.session;
    tab.written = kept;
    if (data.offer && kept !== null && kept !== data.texts) {
      setTriggerValue("restore", kept);
      return;  // the next run draws the texts given back, and they are stored then
    }
  }
  if (data.texts !== null && data.texts !== tab.written) {
    let full = false;
    try {
      window.sessionStorage.setItem(data.storage_key, data.texts);
    } catch (e) {  // over the browser's quota: keep nothing rather than older texts
      window.sessionStorage.removeItem(data.storage_key);
      full = true;
    }
    tab.written = full ? null : data.texts;
    if (full !== Boolean(data.full)) setStateValue("full", full);
  }

  if (!tab.pasteListener) {
    tab.pasteListener = true;
    document.addEventListener("paste", (event) => {
      const area = event.target;
      if (!(area instanceof HTMLTextAreaElement)) return;
      const owner = area.closest("[class*='st-key-']");
      const keys = owner ? [...owner.classList].filter((c) => c.startsWith("st-key-")).map((c) => c.slice(7)) : [];
      if (!keys.some((key) => tab.pasteTargets.some((target) => key.startsWith(target)))) return;
      // After the browser has put the pasted text in (its input event), apply it as Ctrl+Enter does.
      setTimeout(() => area.dispatchEvent(new KeyboardEvent("keydown", {
        key: "Enter", code: "Enter", keyCode: 13, which: 13, ctrlKey: true, bubbles: true, cancelable: true,
      })), 0);
    }, true);
  }
  tab.pasteTargets = data.paste_targets;
}
"""

# Drawn hidden: it has nothing to show, and a visible empty element would add a gap to the page.
_keeper = st.components.v2.component("rouge_lens_text_keeper", js=_JS, css=f".st-key-{KEEPER_KEY} {{ display: none; }}",
                                     isolate_styles=False)


def offer_kept_texts() -> None:
    """The session starts with an example: the texts the tab kept (if any) may replace it."""
    st.session_state[_OFFER_KEY] = True


def kept_texts(raw: object) -> tuple[str, list[str]] | None:
    """The texts a tab gave back (the JSON `pair_to_json` wrote), or None when they are not
    one candidate with its references."""
    if not isinstance(raw, str):
        return None
    try:
        pairs = parse_pairs(raw, "kept.json")
    except InputError:
        return None
    if len(pairs) != 1:
        return None
    return pairs[0].candidate, list(pairs[0].references)


def _restore() -> None:
    texts = kept_texts(st.session_state[KEEPER_KEY].get("restore"))
    st.session_state[_OFFER_KEY] = False
    if texts is None:
        return
    state.set_texts(*texts)
    st.session_state["loaded_example"] = None
    st.session_state[RESTORED_NOTE_KEY] = (texts[0], tuple(texts[1]))


def keep(texts_on_screen: tuple[str, tuple[str, ...]]) -> None:
    """Draw the (hidden) component with the texts on screen; a reload gives them back."""
    ss = st.session_state
    session = ss.setdefault(_SESSION_ID_KEY, uuid.uuid4().hex)
    candidate, references = texts_on_screen
    current = ss.get(KEEPER_KEY) or {}
    _keeper(key=KEEPER_KEY, data={"storage_key": STORAGE_KEY, "session": session, "offer": bool(ss.get(_OFFER_KEY)),
                                  "texts": pair_to_json(candidate, list(references)), "full": bool(current.get("full")),
                                  "paste_targets": list(PASTE_TARGETS)},
            default={"full": False}, on_restore_change=_restore, on_full_change=lambda: None, height=0)


def too_long_to_keep() -> bool:
    """The browser refused to store the texts (over its storage quota for this site)."""
    return bool((st.session_state.get(KEEPER_KEY) or {}).get("full"))


def restored_texts() -> tuple[str, tuple[str, ...]] | None:
    """The texts the tab gave back after a reload (until the page no longer shows them)."""
    return st.session_state.get(RESTORED_NOTE_KEY)


def forget_restored() -> None:
    st.session_state.pop(RESTORED_NOTE_KEY, None)
