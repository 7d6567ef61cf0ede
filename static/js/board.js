// Bakehouse board: the Peel's two-card choice, keyboard focus, the tab title's move cue, and
// which results tables are wider than the screen (their "swipe sideways" hint shows).
// Swaps arrive through live.js, which fires "bakehouse:swapped" after each one.
(function () {
  "use strict";
  // The pastries this person pressed, kept while the pick (the moment) is the same, so that a
  // redraw of the board (a rival locking, the slow poll) does not undo their taps.
  var memory = { moment: null, order: [] };

  // What each game's board script reads alike (static/cakehalla/board.js too): a stamp the board
  // carries in a hidden field (its version, its moment), and a list kept in a form's data.
  var board = window.bakehouseBoard = {
    stamp: function (id) {
      var field = document.getElementById(id);
      return field ? field.value : null;
    },
    listIn: function (form, key) { return JSON.parse(form.dataset[key] || "[]"); }
  };

  function currentMoment() { return board.stamp("board-moment"); }

  function chosen(form) { return board.listIn(form, "order"); }

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
      // Without this script the pastry is a plain "keep it" button (a tap before the page's
      // scripts ran still makes a move); with it, a tap chooses it for a keep or a peel.
      event.preventDefault();
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

  // A tap is never lost to the board moving under it. A browser fires no click when the finger
  // (or the mouse) comes up on another element than it went down on: a push that redraws the
  // pressed control (a new element in its place) or shifts it (a line above grows) in between
  // would swallow the tap without a word. A tap (down and up close together, quickly) whose
  // click never came presses the control it went down on, as the board now has it, if it is
  // still there and enabled.
  var TAP_SLOP_PX = 12;
  var TAP_MAX_MS = 800;
  var CLICK_GRACE_MS = 300;  // a touch's click follows its pointerup within a few ms
  var press = null;

  function controlKey(button) {
    var form = button.closest("form");
    var key = { form: form ? form.id : "", name: button.name, value: button.value };
    Array.prototype.forEach.call(button.attributes, function (attribute) {
      if (attribute.name.indexOf("data-") === 0) key[attribute.name] = attribute.value;
    });
    // A button told apart by none of those (a plain "Pass") is told by its words.
    if (!key.value && Object.keys(key).length === 3) key.text = button.textContent.trim();
    return key;
  }

  function controlNow(key) {
    var form = key.form ? document.getElementById(key.form) : null;
    if (!form) return null;
    var buttons = form.querySelectorAll("button");
    for (var i = 0; i < buttons.length; i++) {
      var other = controlKey(buttons[i]);
      var same = Object.keys(key).every(function (name) { return other[name] === key[name]; });
      if (same && Object.keys(other).length === Object.keys(key).length) return buttons[i];
    }
    return null;
  }

  document.addEventListener("pointerdown", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var button = target ? target.closest("#live form button") : null;
    press = button && event.isPrimary && event.button === 0
      ? { key: controlKey(button), x: event.clientX, y: event.clientY, at: Date.now(),
          clicked: false }
      : null;
  }, true);
  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (press && target && target.closest("button")) press.clicked = true;
  }, true);
  document.addEventListener("pointerup", function (event) {
    var tap = press;
    if (!tap || !event.isPrimary) return;
    var moved = Math.abs(event.clientX - tap.x) > TAP_SLOP_PX ||
      Math.abs(event.clientY - tap.y) > TAP_SLOP_PX;
    if (moved || Date.now() - tap.at > TAP_MAX_MS) return;  // a drag or a long press: no tap
    setTimeout(function () {
      if (tap.clicked || press !== tap) return;
      press = null;
      var button = controlNow(tap.key);
      var live = document.getElementById("live");
      if (!button || button.disabled || button.getAttribute("aria-disabled") === "true") return;
      if (live && live.classList.contains("awaiting-push")) return;  // a move already on its way
      button.click();
    }, CLICK_GRACE_MS);
  }, true);

  // Keyboard players keep their place: after the board is swapped, focus lands on the next choice
  // if the control they were on is gone (live.js parks focus on a heading meanwhile: data-parked).
  function refocus() {
    var now = document.activeElement;
    if (now && now !== document.body && !now.hasAttribute("data-parked")) return;
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
    // Every deferred script has run: the controls only a script can work are offered now
    // (site.css dims [data-needs-script] until then, so no tap goes nowhere).
    document.documentElement.classList.add("scripted");
    following = !!document.querySelector(".rematch-link[data-follow]");
    restorePicks(); cue(); wideTables();
  });
  document.addEventListener("bakehouse:swapped", function (event) {
    // A page taken to its next table in place (live.js) starts as a page loaded: focus at the
    // top, and a rematch link there is read as it stands.
    var page = !!(event.detail && event.detail.page);
    if (page) following = !!document.querySelector(".rematch-link[data-follow]");
    restorePicks();
    if (!page) refocus();
    cue();
    wideTables();
    followRematch();
  });
  document.addEventListener("htmx:afterSettle", wideTables);  // a replay's step
  window.addEventListener("resize", wideTables);
})();
