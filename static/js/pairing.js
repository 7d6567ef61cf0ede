// Bakehouse quick pairing: while the lobby's "Find a game" section shows a search, a socket keeps
// it alive and redraws its panel; once the person is seated, the page goes to the table.
(function () {
  "use strict";
  var RETRY_FIRST_MS = 500;
  var RETRY_MAX_MS = 15000;
  var RESTART = 3012;  // service restart (games/live/protocol.py: SERVICE_RESTART)
  var RESTART_SPREAD_MS = 100;  // as live.js
  // The server's refusals (games/live/protocol.py), said in words.
  var CLOSED_WORDS = {
    4401: "Your session ended, so the search stopped. Reload to go on.",
    4402: "Your session ended, so the search stopped. Reload to go on.",
    4408: "The search is open in too many of your tabs: close one, then reload this one.",
    4409: "You have too many Bakehouse pages open in your tabs: close some, then reload this one.",
  };
  var restarting = false;
  var socket = null;
  var retries = 0;
  var retryTimer = null;
  var going = false;

  function section() { return document.getElementById("find-a-game"); }
  function panel() { return document.getElementById("pairing-waiting"); }

  function say(text) {
    var facts = panel() && panel().querySelector(".pairing-facts");
    if (facts) facts.textContent = text;
  }

  // Seated (games.groups.go_to): go to the table.
  function follow(html) {
    if (html.indexOf('id="page-go"') === -1) return false;
    var template = document.createElement("template");
    template.innerHTML = html;
    var go = template.content.querySelector("#page-go");
    var url = go ? go.dataset.url || "" : "";
    if (url.charAt(0) !== "/" || url.charAt(1) === "/") return false;
    going = true;
    say("Your table is ready: going there\u2026");
    window.location.assign(url);
    return true;
  }

  // The search ended without a table (stopped in another tab, or let go): the forms again.
  function ended() {
    disconnect();
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
    var delay = RETRY_FIRST_MS * Math.pow(2, asked) * (0.5 + Math.random() / 2);
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
    if (follow(html)) return;
    if (html.indexOf('id="pairing-ended"') !== -1) {
      ended();
      return;
    }
    var template = document.createElement("template");
    template.innerHTML = html;
    var fresh = template.content.querySelector("#pairing-waiting");
    var old = panel();
    if (fresh && old) {
      old.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      fresh.dataset.at = String(Date.now());
    }
  }

  function connect() {
    retryTimer = null;
    var found = section();
    if (socket || going || !found || !panel()) return;
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    // The search's start: a socket that finds it over goes to the table it became, if any.
    var since = panel().dataset.since ? "?since=" + encodeURIComponent(panel().dataset.since) : "";
    socket = new WebSocket(scheme + window.location.host + found.dataset.socket + since);
    socket.onopen = function () { retries = 0; restarting = false; };
    socket.onmessage = function (event) { received(event.data); };
    socket.onclose = function (event) {
      socket = null;
      if (going || !panel()) return;
      // A server restarting (a deploy, games/live/drain.py): back at once, quietly, once.
      if (event.code === RESTART && !restarting) {
        restarting = true;
        retryTimer = setTimeout(connect, Math.random() * RESTART_SPREAD_MS);
        return;
      }
      restarting = false;
      if (event.code >= 4000 && event.code < 5000) {
        say(CLOSED_WORDS[event.code] || "The search's connection closed. Reload to go on.");
        return;
      }
      var delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, retries));
      retries += 1;
      retryTimer = setTimeout(connect, delay * (0.5 + Math.random() / 2));
    };
  }

  function disconnect() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
    if (!socket) return;
    var open = socket;
    socket = null;
    open.onclose = null;
    open.close(1000);
  }

  // A search on the page has a socket; none, no socket (after a look, a cancel, a reload).
  function sync() {
    var shown = panel();
    if (shown && !shown.dataset.at) shown.dataset.at = String(Date.now());
    if (shown) connect();
    else disconnect();
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

  document.addEventListener("htmx:afterSettle", sync);
  window.addEventListener("online", function () { if (!socket) connect(); });
  sync();
})();
