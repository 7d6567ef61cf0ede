// Bakehouse board: the Peel's two-card choice, keyboard focus, the tab title's move cue, and
// which results tables are wider than the screen (their "swipe sideways" hint shows).
// Swaps arrive through live.js, which fires "bakehouse:swapped" after each one.
(function () {
  "use strict";
  // The pastries this person pressed, kept while the pick (the moment) is the same, so that a
  // redraw of the board (a rival locking, the slow poll) does not undo their taps.
  var memory = { moment: null, order: [] };

  function currentMoment() {
    var field = document.getElementById("board-moment");
    return field ? field.value : null;
  }

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

  function restorePicks() {
    var form = document.querySelector("#batch-form[data-peel]");
    if (!form) return;
    var here = function (id) { return form.querySelector('[data-pick="' + id + '"]'); };
    var order = memory.moment === currentMoment() ? memory.order.filter(here) : [];
    form.dataset.order = JSON.stringify(order);
    show(form);
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
      memory = { moment: currentMoment(), order: order };
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

  // The tab title says when the table waits for this user's move (read from the live region).
  var CUE = "\u25CF Your move \u00B7 ";
  function cue() {
    var live = document.getElementById("board-live");
    if (!live) return;
    var title = document.title.indexOf(CUE) === 0 ? document.title.slice(CUE.length) : document.title;
    document.title = live.dataset.yourMove === "yes" ? CUE + title : title;
  }

  // A results table that does not fit scrolls sideways on its own; only then its hint shows.
  function wideTables() {
    document.querySelectorAll(".table-scroll").forEach(function (box) {
      box.classList.toggle("overflows", box.scrollWidth > box.clientWidth + 1);
    });
  }

  // A rematch you said yes to, dealt while this page is open: the page goes to the new table by
  // itself (a page opened later on the finished game stays, to read its results).
  var following = false;
  function followRematch() {
    var link = document.querySelector(".rematch-link[data-follow]");
    if (link && !following) {
      following = true;
      window.location.assign(link.href);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    following = !!document.querySelector(".rematch-link[data-follow]");
    restorePicks(); cue(); wideTables();
  });
  document.addEventListener("bakehouse:swapped", function () {
    restorePicks();
    refocus();
    cue();
    wideTables();
    followRematch();
  });
  document.addEventListener("htmx:afterSettle", wideTables);  // a replay's step
  window.addEventListener("resize", wideTables);
})();
