"""Korean for the English texts Streamlit's own widgets draw in the browser.

Streamlit 1.67 has no locale setting: the uploader says "Upload" and "6MB per file", a select
box that takes new entries offers "Add: NVDA", a form says "Press Enter to submit form". These
texts are written by the frontend, so `install()` adds one small script to the page that rewrites
them (and the matching tooltips) whenever they appear:

    from pages import _i18n
    _i18n.install()  # once per run, in app.py

The rules are data (`RULES`): a regular expression over a whole text and its Korean replacement.
"""

from __future__ import annotations

import json

import streamlit as st

# (pattern over the whole trimmed text, replacement with $1 … groups); checked in order.
RULES: tuple[tuple[str, str], ...] = (
    (r"^Add: (.*)$", "추가: $1"),
    # The uploader's transfer limit (server.maxUploadSize, whole MB) sits above the reader's own
    # limit so a slightly larger file gets the reader's Korean message, not a bare red chip; the
    # label states the real limit, so the transfer limit is left out and only the types shown
    # (the frontend writes "6MB per file" and " • PDF, …" as two text nodes).
    (r"^(?:Limit )?\d+(?:\.\d+)?\s?[KMGT]?B per file$", ""),
    (r"^(?:Limit )?\d+(?:\.\d+)?\s?[KMGT]?B per file • (.*)$", "$1"),
    (r"^• ((?:[A-Z0-9]{2,5}, )*[A-Z0-9]{2,5})$", "$1"),
    (r"^File must be (.+) or smaller\.$", "파일은 $1 이하여야 합니다."),
    (r"^(.+) files are not allowed\.$", "$1 파일은 올릴 수 없습니다."),
    (r"^Error:$", "오류:"),
    (r"^Error: (.+)$", "오류: $1"),
    (r"^Upload$", "파일 선택"),
    (r"^Browse files$", "파일 선택"),
    (r"^Drag and drop files? here$", "파일을 여기에 끌어다 놓으세요"),
    # the uploader's "+" after a file is in: its button's label and its icon's hidden name
    (r"^Add files?$", "파일 추가"),
    (r"^add icon$", "추가 아이콘"),
    (r"^Skip to main content$", "본문으로 건너뛰기"),
    (r"^No results$", "결과 없음"),
    (r"^No options to select\.?$", "선택할 항목이 없습니다"),
    (r"^Press ((?:⌘|Ctrl)\+)?Enter to submit form$", "$1Enter 키로 제출"),
    (r"^Press ((?:⌘|Ctrl)\+)?Enter to apply$", "$1Enter 키로 적용"),
    (r"^Running\.\.\.$", "실행 중…"),
    (r"^Download as CSV$", "CSV로 내려받기"),
    (r"^Search$", "검색"),
    (r"^Fullscreen$", "전체 화면"),
    (r"^Close fullscreen$", "전체 화면 닫기"),
    (r"^Clear all$", "모두 지우기"),
    (r"^Clear value$", "값 지우기"),
)
CONTAINER_KEY = "atlas-korean-texts"
ATTRIBUTES = ("aria-label", "title", "placeholder")

_SCRIPT = """
<script>
(() => {
  if (window.__atlasKorean) return;
  window.__atlasKorean = true;
  const rules = RULES_JSON.map(([p, r]) => [new RegExp(p), r]);
  const attrs = ATTRS_JSON;
  const korean = (text) => {
    const trimmed = text.trim();
    if (!trimmed) return null;
    for (const [pattern, replacement] of rules) {
      if (pattern.test(trimmed)) return text.replace(trimmed, trimmed.replace(pattern, replacement));
    }
    return null;
  };
  const fix = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const out = korean(node.nodeValue);
      if (out !== null && out !== node.nodeValue) node.nodeValue = out;
    }
    const selector = attrs.map((a) => `[${a}]`).join(",");
    const elements = root.querySelectorAll ? [root, ...root.querySelectorAll(selector)] : [];
    for (const el of elements) {
      for (const name of attrs) {
        const value = el.getAttribute && el.getAttribute(name);
        const out = value && korean(value);
        if (out && out !== value) el.setAttribute(name, out);
      }
    }
  };
  const doc = window.parent.document;
  // Added subtrees are fixed once per animation frame, each only once and not inside another
  // one already pending: an answer arrives as many small mutations of one growing tree.
  let pending = new Set();
  const flush = () => {
    const roots = [...pending].filter((n) => n.isConnected);
    pending = new Set();
    for (const n of roots) {
      if (!roots.some((o) => o !== n && o.contains(n))) fix(n);
    }
  };
  const later = (n) => {
    if (!pending.size) requestAnimationFrame(flush);
    pending.add(n);
  };
  const observer = new MutationObserver((mutations) => {
    for (const m of mutations) {
      if (m.type === "characterData") {
        const out = korean(m.target.nodeValue);
        if (out !== null && out !== m.target.nodeValue) m.target.nodeValue = out;
      } else if (m.type === "attributes") {
        fix(m.target);
      } else {
        m.addedNodes.forEach((n) => later(n.nodeType === 3 ? n.parentNode || doc.body : n));
      }
    }
  });
  fix(doc.body);
  observer.observe(doc.body, {subtree: true, childList: true, characterData: true,
                              attributes: true, attributeFilter: attrs});
})();
</script>
"""


def script() -> str:
    """The page script with the rules filled in (JSON, so no text is interpolated as code)."""
    return _SCRIPT.replace("RULES_JSON", json.dumps(RULES)).replace(
        "ATTRS_JSON", json.dumps(ATTRIBUTES)
    )


def install() -> None:
    """Add the rewriting script to this run's page (it installs itself once per browser tab),
    in a hidden container so it leaves no gap above the page title."""
    with st.container(key=CONTAINER_KEY):
        st.html(script(), unsafe_allow_javascript=True)
    hidden = f'[data-testid="stLayoutWrapper"]:has(> .st-key-{CONTAINER_KEY})'
    st.html(f"<style>{hidden}, .st-key-{CONTAINER_KEY} {{display: none}}</style>")
