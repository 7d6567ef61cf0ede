// Bakehouse table chat: lines arrive over the table's socket (live.js swaps #chat-log by its
// id); this script clears the box after a line was taken, says why one was refused, and fetches
// the lines while the socket is down and when it is back.
(function () {
  "use strict";
  var panel = document.getElementById("chat");
  if (!panel) return;
  var POLL_OFFLINE_MS = 5000;

  function say(text, kind) {
    var line = document.getElementById("chat-message");
    if (!line) return;
    line.textContent = text;
    line.className = "message" + (kind ? " " + kind : "");
  }

  function inChat(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.closest && elt.closest("#chat"));
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!inChat(event) || !event.detail.successful) return;
    var form = event.detail.elt.closest("form");
    if (form && form.id === "chat-form") form.reset();
    say("", "");
  });

  document.addEventListener("htmx:responseError", function (event) {
    if (!inChat(event)) return;
    var template = document.createElement("template");
    template.innerHTML = event.detail.xhr.responseText || "";
    var line = template.content.querySelector("[role=alert]");
    say(line ? line.textContent.trim() : "Your message was refused (" + event.detail.xhr.status + ").",
      "error");
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (inChat(event)) say("The bakery could not be reached; your message was not sent.", "error");
  });

  // The socket pushes lines only while it is open: while it is down the lines are fetched every
  // few seconds, and once more when it is back (lines may have come in between).
  var wasLive = true;
  var lastFetch = 0;
  setInterval(function () {
    var live = window.bakehouseLive;
    var back = live && !wasLive;
    wasLive = live;
    if (document.hidden || !window.bakehouseApply) return;
    if (!back && (live || Date.now() - lastFetch < POLL_OFFLINE_MS)) return;
    lastFetch = Date.now();
    fetch(panel.dataset.chatUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) return response.text().then(window.bakehouseApply);
      })
      .catch(function () { return null; });
  }, 1000);
})();
