// Bakehouse board: live-socket flag for the polling fallback, and the Peel's two-card choice.
(function () {
  "use strict";
  window.bakehouseLive = false;

  function live(on) {
    window.bakehouseLive = on;
    var line = document.getElementById("live-status");
    if (line) line.textContent = on ? "Live." : "Reconnecting\u2026 the table refreshes every 3 seconds meanwhile.";
  }
  document.addEventListener("htmx:wsOpen", function () { live(true); });
  document.addEventListener("htmx:wsClose", function () { live(false); });
  document.addEventListener("htmx:wsError", function () { live(false); });

  function chosen(form) {
    return JSON.parse(form.dataset.order || "[]");
  }

  function show(form) {
    var order = chosen(form);
    form.querySelectorAll("[data-pick]").forEach(function (button) {
      var at = order.indexOf(button.dataset.pick);
      button.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      button.querySelector(".order").textContent = at >= 0 ? String(at + 1) : "";
    });
    form.querySelector('[data-submit="keep"]').disabled = order.length !== 1;
    form.querySelector('[data-submit="peel"]').disabled = order.length !== 2;
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var pick = target.closest("[data-pick]");
    if (pick) {
      var form = pick.closest("form");
      var order = chosen(form);
      var at = order.indexOf(pick.dataset.pick);
      if (at >= 0) order.splice(at, 1);
      else if (order.length < 2) order.push(pick.dataset.pick);
      else order[1] = pick.dataset.pick;
      form.dataset.order = JSON.stringify(order);
      show(form);
      return;
    }
    var submit = target.closest("[data-submit]");
    if (submit) {
      var peelForm = submit.closest("form");
      var cards = chosen(peelForm);
      var action = submit.dataset.submit === "keep"
        ? { type: "keep", card: cards[0] }
        : { type: "peel", cards: cards };
      peelForm.querySelector('input[name="action"]').value = JSON.stringify(action);
    }
  });

  // Keyboard players keep their place: after the board is swapped, focus lands on the next choice.
  function refocus() {
    if (document.activeElement && document.activeElement !== document.body) return;
    var next = document.querySelector("#region-results button, #batch-form button.card");
    if (next) next.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:afterSettle", refocus);
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(refocus, 0); });

  // The tab title says when the table waits for this user's move (read from the live region).
  var CUE = "\u25CF Your move \u00B7 ";
  function cue() {
    var live = document.getElementById("board-live");
    if (!live) return;
    var title = document.title.indexOf(CUE) === 0 ? document.title.slice(CUE.length) : document.title;
    document.title = live.dataset.yourMove === "yes" ? CUE + title : title;
  }
  document.addEventListener("DOMContentLoaded", cue);
  document.addEventListener("htmx:afterSettle", cue);
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(cue, 0); });

  // A move's answer can land after the socket brought a newer board (a bot moved right after
  // the commit, a rival locked a pick): never put the older board back.
  var VERSION = /id="board-version"[^>]*value="(\d+)"/;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var shown = document.getElementById("board-version");
    var answer = VERSION.exec(event.detail.serverResponse || "");
    if (!target || target.id !== "board" || !shown || !answer) return;
    if (Number(answer[1]) < Number(shown.value)) event.detail.shouldSwap = false;
  });

  // A failed request shows its message in the message line above the board.
  document.addEventListener("htmx:responseError", function (event) {
    var line = document.getElementById("board-message");
    if (line) line.textContent = "Something went wrong (" + event.detail.xhr.status + "). Reload the page.";
  });
  // A successful swap clears an old message.
  document.addEventListener("htmx:beforeRequest", function () {
    var line = document.getElementById("board-message");
    if (line) { line.textContent = ""; line.className = "message"; }
  });
})();
