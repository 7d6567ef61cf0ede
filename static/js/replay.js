// Replay: arrow keys step through the moves (Home and End jump to the deal and the end).
(function () {
  "use strict";
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    var which = KEYS[event.key];
    if (!which || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target instanceof Element ? event.target : null;
    if (target && target.closest("input, select, textarea, [contenteditable]")) return;
    var link = document.querySelector('#replay-frame [data-nav="' + which + '"]');
    if (!link || link.getAttribute("aria-disabled") === "true") return;
    event.preventDefault();
    link.click();
  });
})();
