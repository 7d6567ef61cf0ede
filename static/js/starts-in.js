// Bakehouse countdowns to an event's start: every <time data-starts-at> (milliseconds since the
// epoch) says "starts in ..." and, once due, "starting now"; corrected by how far this browser's
// clock is from the server's when the page was drawn (data-now). Without this script the words
// the server drew stay (games/tournaments/templatetags/next_event.py).
(function () {
  "use strict";
  var loaded = Date.now();

  // A span rounded up, as clock.js says it: "4:59" under an hour, "5 h 20 min", "2 d 3 h".
  function span(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    if (s < 3600) {
      var rest = s % 60;
      return Math.floor(s / 60) + ":" + (rest < 10 ? "0" : "") + rest;
    }
    var m = Math.ceil(s / 60);
    var days = Math.floor(m / 1440), hours = Math.floor((m % 1440) / 60), mins = m % 60;
    if (days) return days + " d" + (hours ? " " + hours + " h" : "");
    return hours + " h" + (mins ? " " + mins + " min" : "");
  }

  function tick() {
    document.querySelectorAll("time[data-starts-at]").forEach(function (time) {
      var skew = time.dataset.now ? Number(time.dataset.now) - loaded : 0;
      var left = Number(time.dataset.startsAt) - (Date.now() + skew);
      var text = left > 0 ? "starts in " + span(left) : "starting now";
      if (time.textContent !== text) time.textContent = text;
    });
  }

  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();
