// Bakehouse quick pairing: while the lobby's "Find a game" section shows a search, a socket keeps
// it alive and redraws its panel; once the person is seated, the page goes to the table (the
// socket's life, and its words when it closes for good: static/js/socket.js).
(function () {
  "use strict";
  var link = null;

  function section() { return document.getElementById("find-a-game"); }
  function panel() { return document.getElementById("pairing-waiting"); }

  function say(text) {
    var facts = panel() && panel().querySelector(".pairing-facts");
    if (facts) facts.textContent = text;
  }

  // The search ended without a table (stopped in another tab, or let go): the forms again.
  function ended() {
    link.close();
    var found = section();
    if (found && window.htmx) {
      window.htmx.ajax("GET", found.dataset.find, { target: "#find-a-game", swap: "outerHTML" });
    }
  }

  // A press in the section that got no answer (its process went away, or a 5xx): the search may
  // be stored and even seated meanwhile, so ask for the section again, a few times, further
  // apart each time; the answer is the panel, the forms, or the table a pass seated them at.
  var ASK_MAX = 5;
  var asked = 0;
  function ours(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.closest && elt.closest("#find-a-game") && elt.id !== "looking-now");
  }
  function unanswered(event) {
    var found = section();
    if (!ours(event) || !found || !window.htmx || asked >= ASK_MAX) return;
    var delay = window.bakehouseSocket.backoff(asked);
    asked += 1;
    setTimeout(function () {
      window.htmx.ajax("GET", found.dataset.find,
        { source: "#find-a-game", target: "#find-a-game", swap: "outerHTML" });
    }, delay);
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:responseError", unanswered);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (ours(event) && event.detail.successful) asked = 0;
  });

  function received(html) {
    if (html.indexOf('id="pairing-ended"') !== -1) {
      ended();
      return;
    }
    var fresh = window.bakehouseSocket.parse(html).querySelector("#pairing-waiting");
    var old = panel();
    if (fresh && old) {
      old.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      fresh.dataset.at = String(Date.now());
    }
  }

  // A search on the page has a socket; none, no socket (after a look, a cancel, a reload).
  function sync() {
    var shown = panel();
    if (shown && !shown.dataset.at) shown.dataset.at = String(Date.now());
    if (shown) link.open();
    else link.close();
  }

  // The wait counts up between the panel's redraws.
  setInterval(function () {
    var shown = panel();
    var clock = shown && shown.querySelector(".waited");
    if (!clock) return;
    var waited = Number(shown.dataset.waited) + Math.floor((Date.now() - Number(shown.dataset.at)) / 1000);
    var seconds = waited % 60;
    clock.textContent = Math.floor(waited / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
  }, 1000);

  // The lobby's counts are asked for every few seconds (htmx polling), only while it is shown;
  // an unchanged list is answered 304 (an ETag), so the ask costs little.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.target && event.target.id === "looking-now") event.preventDefault();
  });

  // The search's start: a socket that finds it over goes to the table it became, if any.
  function path() {
    var since = panel().dataset.since;
    return section().dataset.socket + (since ? "?since=" + encodeURIComponent(since) : "");
  }

  link = window.bakehouseSocket({
    path: path,
    say: say,
    what: "search",
    closed: window.bakehouseWord
      ? window.bakehouseWord("search-closed", "The search's connection closed. Reload to go on.")
      : "The search's connection closed. Reload to go on.",
    wanted: function () { return !!(section() && panel()); },
    message: received
  });
  document.addEventListener("htmx:afterSettle", sync);
  sync();
})();
