// Bakehouse practice hints: a practice table's "Suggest a move" shows while the board says hints
// are on (a running table against bots), and its hint is for the board it was given at: a newer
// board clears it. A Cakehalla sheet (put back down to 10, a customer to choose) holds its own
// button and line (#sheet-hint, which live.js's redraws keep). Read after every swap (live.js).
(function () {
  "use strict";
  var HINT_LINES = ["board-hint", "sheet-hint"];

  function clearPassedHint() {
    var live = document.getElementById("board-live");
    var form = document.querySelector(".board-hint-form");
    if (form && live) form.hidden = live.dataset.hints !== "on";
    var shown = live ? Number(live.dataset.version) : -1;
    HINT_LINES.forEach(function (id) {
      var hint = document.getElementById(id);
      if (hint && hint.dataset.version && shown > Number(hint.dataset.version)) {
        hint.textContent = "";
        delete hint.dataset.version;
      }
    });
  }

  document.addEventListener("bakehouse:swapped", clearPassedHint);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && HINT_LINES.indexOf(event.detail.target.id) >= 0) clearPassedHint();
  });

  // A refused hint (a rated table, not your move) says why in its own line.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && HINT_LINES.indexOf(target.id) >= 0 && event.detail.xhr.status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
