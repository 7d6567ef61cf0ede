// Bakehouse move clocks: each running clock on the board counts down from the deadline the server
// stored (data-deadline, data-move-ends: milliseconds since the epoch), corrected by how far this
// browser's clock is from the server's when the page loaded; the last 10 seconds warn. A rematch's
// first clocks wait for its people to arrive from the finished table (data-starts): "starts in";
// a turn-based clock stands still through its person's vacation (data-held="vacation").
// A turn-based clock (an hour or more left) says days and hours: "2 d 3 h left + bank 2 d".
(function () {
  "use strict";
  var WARN_MS = 10000;
  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  function word(key, english) {
    return window.bakehouseWord ? window.bakehouseWord(key, english) : english;
  }
  var live = document.getElementById("live");
  var skew = live && live.dataset.serverNow ? Number(live.dataset.serverNow) - Date.now() : 0;

  var HOUR_S = 3600;
  // The units of time in the page's language (seconds, minutes, hours, days: base.html's
  // <meta name="units-of-time">, the words games/services/clocks/paces.py says them in).
  var unitsMeta = document.querySelector('meta[name="units-of-time"]');
  var UNITS = ((unitsMeta && unitsMeta.content) || "s min h d").split(" ");
  var U_MIN = UNITS[1], U_H = UNITS[2], U_D = UNITS[3];

  // A span as the clock says it, rounded up (a clock never shows less time than is left): to the
  // second under an hour ("59:59"), to the minute from an hour on ("23 h 59 min", "1 d 3 h":
  // minutes dropped beside days). Units are taken from the rounded span, so 23 h 59 min 59.5 s
  // is "1 d", never "0 h" (games/services/clocks.py span_words says the same from an hour on).
  function span(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    if (s < HOUR_S) {
      var rest = s % 60;
      return Math.floor(s / 60) + ":" + (rest < 10 ? "0" : "") + rest;
    }
    var m = Math.ceil(s / 60);
    var days = Math.floor(m / 1440), hours = Math.floor((m % 1440) / 60), mins = m % 60;
    if (days) return days + " " + U_D + (hours ? " " + hours + " " + U_H : "");
    return hours + " " + U_H + (mins ? " " + mins + " " + U_MIN : "");
  }

  // Whether a span is said in hours and days (an hour or more, once rounded up).
  function long(ms) {
    return Math.ceil(ms / 1000) >= HOUR_S;
  }

  // The viewer's own clock, while the table waits for them, entering its last seconds: said once
  // a deadline in the page's assertive live region (#news-urgent; its words are the server's).
  var warned = {};
  function lowTime(clock, left) {
    var urgent = document.getElementById("news-urgent");
    var seat = clock.closest(".table-seat.mine.waited-on");
    if (!urgent || !seat || left <= 0 || left > WARN_MS || warned[clock.dataset.deadline]) return;
    warned[clock.dataset.deadline] = true;
    if (window.bakehouseAnnounce) window.bakehouseAnnounce(urgent.dataset.low, true);
  }

  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll("[data-deadline]").forEach(function (clock) {
      var deadline = Number(clock.dataset.deadline);
      var moveEnds = Number(clock.dataset.moveEnds || deadline);
      var starts = Number(clock.dataset.starts || 0);
      var left = deadline - now;
      var text;
      var banked = deadline > moveEnds;
      if (now < starts) {
        text = clock.dataset.held === "vacation"
          ? word("clock-resumes", "stopped, resumes in {span}") : word("clock-starts", "starts in {span}");
        text = text.replace("{span}", span(starts - now));
      } else if (left <= 0) text = word("clock-up", "time is up");
      else if (long(left) && now < moveEnds) {
        text = banked ? word("clock-left-bank", "{span} left + bank {bank}") : word("clock-left", "{span} left");
        text = text.replace("{span}", span(moveEnds - now)).replace("{bank}", span(deadline - moveEnds));
      } else if (long(left)) text = word("clock-bank-left", "bank {span} left").replace("{span}", span(left));
      else if (now < moveEnds) {
        text = banked ? word("clock-and-bank", "{span} + bank {bank}") : "{span}";
        text = text.replace("{span}", span(moveEnds - now)).replace("{bank}", span(deadline - moveEnds));
      } else text = word("clock-bank", "bank {span}").replace("{span}", span(left));
      if (clock.textContent !== text) clock.textContent = text;
      clock.classList.toggle("warning", left <= WARN_MS);
      lowTime(clock, left);
    });
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("bakehouse:swapped", tick);
})();
