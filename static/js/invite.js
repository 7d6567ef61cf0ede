// The table's invite link: shown whole (with this site's address) and copied with one tap.
// Runs again after every swap, since live.js morphs the waiting room in place.
(function () {
  "use strict";

  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  function word(key, english) {
    return window.bakehouseWord ? window.bakehouseWord(key, english) : english;
  }

  function absolute() {
    document.querySelectorAll("a.invite").forEach(function (link) {
      if (link.textContent !== link.href) link.textContent = link.href;
    });
  }

  function said(id, text) {
    var line = document.querySelector('[data-copied="' + id + '"]');
    if (line) line.textContent = text;
  }

  function fallbackCopy(text) {
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "sr";
    document.body.appendChild(field);
    field.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(field);
    return ok;
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var button = target && target.closest("[data-copy]");
    if (!button) return;
    var id = button.dataset.copy;
    var link = document.getElementById(id);
    if (!link) return;
    var text = link.href;
    var done = function () { said(id, word("invite-copied", "Copied. Send it to your friends.")); };
    var failed = function () {
      if (fallbackCopy(text)) done();
      else said(id, word("invite-by-hand", "Copy it by hand: press and hold the link."));
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  });

  document.addEventListener("DOMContentLoaded", absolute);
  document.addEventListener("bakehouse:swapped", absolute);
})();
