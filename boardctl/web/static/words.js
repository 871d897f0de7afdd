// The page's words in its language: the server puts the page's language and the
// translations of the scripts' texts in <script id="words"> (boardctl/web/languages.py).
// _("{player} wins!", { player }) gives a text in that language with its {names} filled.
// The picker (an element with id "language") changes the language and remembers it.
"use strict";

const WORDS = (() => {
  const node = document.getElementById("words");
  try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
})();

function _(text, params) {
  const pattern = (WORDS.words && WORDS.words[text]) || text;
  if (!params) return pattern;
  return pattern.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// a small list of the languages in the page's corner: the visitor's choice is kept a
// year in a cookie the server reads, and the page is loaded again in that language
(function picker() {
  if (!WORDS.languages || WORDS.languages.length < 2) return;
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", _("Language"));
  for (const [code, name] of WORDS.languages) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    if (code === WORDS.language) option.selected = true;
    select.appendChild(option);
  }
  select.onchange = () => {
    document.cookie = `lang=${select.value}; Path=/; Max-Age=31536000; SameSite=Lax`;
    location.reload();
  };
  const holder = document.querySelector("nav") || document.body;
  holder.appendChild(select);
})();
