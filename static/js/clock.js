// Bakehouse move clocks: each running clock on the board counts down from the deadline the server
// stored (data-deadline, data-move-ends: milliseconds since the epoch), corrected by how far this
// browser's clock is from the server's when the page loaded; the last 10 seconds warn. A rematch's
// first clocks wait for its people to arrive from the finished table (data-starts): "starts in";
// a turn-based clock stands still through its person's vacation (data-held="vacation").
// A turn-based clock (an hour or more left) says days and hours: "2 d 3 h left + bank 2 d".
(function () {
  "use strict";
  var WARN_MS = 10000;
  var live = document.getElementById("live");
  var skew = live && live.dataset.serverNow ? Number(live.dataset.serverNow) - Date.now() : 0;

  function minutes(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var rest = s % 60;
    return Math.floor(s / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  var HOUR_MS = 3600000;
  var DAY_MS = 24 * HOUR_MS;

  function long(ms) {
    var m = Math.max(0, Math.ceil(ms / 60000));
    var days = Math.floor(m / 1440), hours = Math.floor((m % 1440) / 60), mins = m % 60;
    if (ms >= DAY_MS) return days + " d" + (hours ? " " + hours + " h" : "");
    return hours + " h" + (mins ? " " + mins + " min" : "");
  }

  function span(ms) {
    return ms >= HOUR_MS ? long(ms) : minutes(ms);
  }

  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll("[data-deadline]").forEach(function (clock) {
      var deadline = Number(clock.dataset.deadline);
      var moveEnds = Number(clock.dataset.moveEnds || deadline);
      var starts = Number(clock.dataset.starts || 0);
      var left = deadline - now;
      var text;
      if (now < starts) {
        text = (clock.dataset.held === "vacation" ? "stopped, resumes in " : "starts in ") + span(starts - now);
      } else if (left <= 0) text = "time is up";
      else if (left >= HOUR_MS && now < moveEnds) {
        text = span(moveEnds - now) + " left" + (deadline > moveEnds ? " + bank " + span(deadline - moveEnds) : "");
      } else if (left >= HOUR_MS) text = "bank " + long(left) + " left";
      else if (now < moveEnds) {
        text = minutes(moveEnds - now) + (deadline > moveEnds ? " + bank " + minutes(deadline - moveEnds) : "");
      } else text = "bank " + minutes(left);
      if (clock.textContent !== text) clock.textContent = text;
      clock.classList.toggle("warning", left <= WARN_MS);
    });
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("bakehouse:swapped", tick);
})();
