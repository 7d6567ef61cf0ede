// Bakehouse tournaments: countdowns to a start or an end (the time stands in the text as well),
// the create form's start read in this browser's zone (its times: static/js/local-time.js),
// and on a tournament's page its socket: the standings and tables as they move, your own line,
// the chat, and the way to your table once you are seated (the socket's life and its words:
// static/js/socket.js). While the socket is down the page asks for the same parts every few
// seconds.
(function () {
  "use strict";

  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  function word(key, english) {
    return window.bakehouseWord ? window.bakehouseWord(key, english) : english;
  }
  var POLL_OFFLINE_MS = 10000;
  var HOUR_S = 3600;

  var holder = document.getElementById("tournament") || document.getElementById("tournaments");
  var skew = holder && holder.dataset.serverNow ? Number(holder.dataset.serverNow) - Date.now() : 0;

  // The units of time in the page's language (seconds, minutes, hours, days: base.html's
  // <meta name="units-of-time">, the words games/services/clocks/paces.py says them in).
  var unitsMeta = document.querySelector('meta[name="units-of-time"]');
  var UNITS = ((unitsMeta && unitsMeta.content) || "s min h d").split(" ");
  var U_S = UNITS[0], U_MIN = UNITS[1], U_H = UNITS[2], U_D = UNITS[3];

  // A span as the countdown says it, in words so it never reads as a time of day: "54 s",
  // "41 min 54 s" under an hour, else "2 h 5 min" or "3 d 4 h".
  function span(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    if (s < HOUR_S) {
      var rest = s % 60;
      if (s < 60) return s + " " + U_S;
      return Math.floor(s / 60) + " " + U_MIN + (rest ? " " + rest + " " + U_S : "");
    }
    var m = Math.ceil(s / 60);
    var days = Math.floor(m / 1440), hours = Math.floor((m % 1440) / 60), mins = m % 60;
    if (days) return days + " " + U_D + (hours ? " " + hours + " " + U_H : "");
    return hours + " " + U_H + (mins ? " " + mins + " " + U_MIN : "");
  }

  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll(".countdown[data-at]").forEach(function (clock) {
      var at = Number(clock.dataset.at);
      if (!at) return;
      var left = at - now;
      var text = left > 0 ? (clock.dataset.prefix || "in ") + span(left) : clock.dataset.done || "now";
      if (clock.textContent !== text) clock.textContent = text;
    });
  }
  setInterval(tick, 1000);
  tick();

  // This browser's zone ("America/New_York"), or "" if it does not say.
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }

  // Its times in this browser's zone (static/js/local-time.js, on every page).
  function localTimes() {
    if (window.bakehouseLocalTimes) window.bakehouseLocalTimes();
  }

  // The create form's exact start is read in this zone (the server reads it in UTC without it).
  var zoneField = document.querySelector("input[name=zone][data-browser-zone]");
  var startLabel = document.querySelector("label[for=id_starts_at]");
  if (zoneField && zone) {
    zoneField.value = zone;
    // The label names the zone, in the page's words (the zone field's data-label: "{zone}" stands
    // where the zone goes).
    var words = zoneField.dataset.label || "Or starts at (your time, {zone})";
    if (startLabel) startLabel.textContent = words.replace("{zone}", zone.replace(/_/g, " "));
  }

  var root = document.getElementById("tournament");
  if (!root) return;

  var link = null;  // the tournament's socket (static/js/socket.js), opened at the end
  var lastPoll = Date.now();

  function shownVersion() {
    var live = document.getElementById("tournament-live");
    return live ? Number(live.dataset.version) : -1;
  }

  function status(text) {
    var line = document.getElementById("live-status");
    if (line) line.textContent = text;
  }

  // Your own line in the standings stands out.
  function markMe() {
    var me = root.dataset.me;
    if (!me) return;
    document.querySelectorAll("#standings tr[data-user]").forEach(function (row) {
      row.classList.toggle("me", row.dataset.user === me);
    });
  }

  function chatToEnd() {
    var lines = document.querySelector("#tournament-chat-log .chat-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }

  // Your panel (its buttons) changes when the tournament starts or ends: asked for anew, each
  // page at its own moment within two seconds so a thousand pages do not ask at once.
  function refreshYou() {
    setTimeout(function () {
      fetch(root.dataset.you, { credentials: "same-origin" })
        .then(function (response) { return response.status === 200 ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = window.bakehouseSocket.parse(html).querySelector("#tournament-you");
          var old = document.getElementById("tournament-you");
          if (fresh && old) old.replaceWith(fresh);
        })
        .catch(function () { return null; });
    }, Math.random() * 2000);
  }

  // Swap in the parts a push (or a poll) brings, by id; the live part never goes backwards.
  function apply(html) {
    Array.prototype.slice.call(window.bakehouseSocket.parse(html).children).forEach(function (node) {
      var old = node.id ? document.getElementById(node.id) : null;
      if (!old) return;
      if (node.id === "tournament-live") {
        if (Number(node.dataset.version) < shownVersion()) return;
        var was = root.dataset.status;
        old.replaceWith(node);
        if (node.dataset.status !== was) {
          root.dataset.status = node.dataset.status;
          refreshYou();
        }
      } else {
        old.replaceWith(node);
      }
      if (window.htmx) window.htmx.process(node);
      if (node.id === "tournament-chat-log") chatToEnd();
    });
    markMe();
    tick();
    localTimes();
    // The version on screen, whatever brought it (browser tests wait on it).
    document.body.dataset.tournamentVersion = String(shownVersion());
  }

  function poll() {
    lastPoll = Date.now();
    fetch(root.dataset.live, { credentials: "same-origin" })
      .then(function (response) { return response.status === 200 ? response.text() : null; })
      .then(function (html) { if (html) apply(html); })
      .catch(function () { return null; });
  }

  // While the socket is not open (and not closed for good), the parts are asked for every few
  // seconds.
  setInterval(function () {
    var state = link ? link.state() : "opening";
    if (document.hidden || state === "live" || state === "ended" || state === "going") return;
    if (Date.now() - lastPoll >= POLL_OFFLINE_MS) poll();
  }, 1000);

  // The chat's posts answered as the table's are (static/js/chat.js); a line taken also
  // scrolls the chat to its end.
  window.bakehouseChatAnswers(
    { panel: "tournament-chat", message: "tournament-chat-message", form: "tournament-chat-form" },
    chatToEnd
  );

  markMe();
  chatToEnd();
  document.body.dataset.tournamentVersion = String(shownVersion());
  link = window.bakehouseSocket({
    path: function () { return root.dataset.socket; },
    say: status,
    live: "",
    away: word("standings-away", "Reconnecting\u2026 the standings refresh every 10 seconds meanwhile."),
    what: "tournament",
    message: apply,
    changed: function (state) {
      document.body.dataset.tournamentLive = state === "live" ? "yes" : "no";
    }
  });
})();
