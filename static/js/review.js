// Bakehouse reviews: while a review is worked, a socket draws its part anew as each decision is
// weighed, and once it is whole (the socket's life and its closing words: static/js/socket.js).
// The part's own htmx poll is the page's way without a socket: the first part the socket sends
// has none, and replaces the polling one.
(function () {
  "use strict";
  var live = document.getElementById("review-live");
  if (!live || !window.bakehouseSocket) return;

  function review() { return document.getElementById("review"); }
  function over(part) {
    return !!part && (!!part.querySelector(".review-decisions") || !!part.querySelector(".message.error"));
  }

  window.bakehouseSocket({
    path: function () { return live.dataset.socket; },
    say: function (words) {
      var line = document.getElementById("review-line");
      if (line) line.textContent = words;
    },
    what: "review",
    wanted: function () { return !over(review()); },
    message: function (html) {
      var fresh = window.bakehouseSocket.parse(html).querySelector("#review");
      var old = review();
      if (fresh && old) {
        old.replaceWith(fresh);
        if (window.htmx) window.htmx.process(fresh);
      }
    }
  });
})();
