// Bakehouse times in this browser's zone and language: each <time datetime data-local> the
// server wrote in UTC ("6 December 2026, 21:00 UTC", what a page without scripts reads) is
// written again in the browser's own ("Sun, Dec 6, 4:00 PM EST"), its zone named, the UTC words
// kept as its title. data-local says how much: "day" (weekday, day, month, time), "date" (day,
// month, year, time) or "time". Run at load, after an htmx swap, and when a page's own script
// swaps parts in (window.bakehouseLocalTimes).
(function () {
  "use strict";
  var SHOWN = {
    day: { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" },
    date: { day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" },
    time: { hour: "2-digit", minute: "2-digit" }
  };

  function localTimes() {
    document.querySelectorAll("time[datetime][data-local]").forEach(function (node) {
      var at = new Date(node.getAttribute("datetime"));
      var shown = SHOWN[node.dataset.local];
      if (!shown || isNaN(at.getTime())) return;
      var options = Object.assign({ timeZoneName: "short" }, shown);
      var text;
      try { text = new Intl.DateTimeFormat(undefined, options).format(at); } catch (e) { return; }
      if (node.textContent === text) return;
      if (!node.title) node.title = node.textContent;
      node.textContent = text;
    });
  }

  window.bakehouseLocalTimes = localTimes;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", localTimes);
  else localTimes();
  document.addEventListener("htmx:afterSettle", localTimes);
  document.addEventListener("bakehouse:swapped", localTimes);
})();
