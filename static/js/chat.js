// Bakehouse chat: how a chat form's post is answered, for the table's chat and a tournament's
// (window.bakehouseChatAnswers, called by tournament.js); then the table chat: its lines arrive
// over the table's socket (live.js swaps #chat-log by its id), and this script fetches them while
// the socket is down and when it is back.
(function () {
  "use strict";

  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  function word(key, english) {
    return window.bakehouseWord ? window.bakehouseWord(key, english) : english;
  }

  // The answers to the posts of the chat whose panel, message line and form have these ids: a
  // line taken clears the box and the message (then calls `taken`, if given); a refused one
  // keeps the text to fix it and says why.
  function answers(ids, taken) {
    function say(text, kind) {
      var line = document.getElementById(ids.message);
      if (!line) return;
      line.textContent = text;
      line.className = "message" + (kind ? " " + kind : "");
    }

    function inChat(event) {
      var elt = event.detail && event.detail.elt;
      return !!(elt && elt.closest && elt.closest("#" + ids.panel));
    }

    document.addEventListener("htmx:afterRequest", function (event) {
      if (!inChat(event) || !event.detail.successful) return;
      var form = event.detail.elt.closest("form");
      if (form && form.id === ids.form) form.reset();
      say("", "");
      if (taken) taken();
    });

    document.addEventListener("htmx:responseError", function (event) {
      if (!inChat(event)) return;
      var template = document.createElement("template");
      template.innerHTML = event.detail.xhr.responseText || "";
      var line = template.content.querySelector("[role=alert]");
      say(line ? line.textContent.trim()
        : word("chat-refused", "Your message was refused ({status}).").replace("{status}", event.detail.xhr.status),
        "error");
    });

    document.addEventListener("htmx:sendError", function (event) {
      if (inChat(event)) {
        say(word("chat-unreached", "The bakery could not be reached; your message was not sent."), "error");
      }
    });
  }
  window.bakehouseChatAnswers = answers;

  if (!document.getElementById("chat")) return;
  var POLL_OFFLINE_MS = 5000;
  answers({ panel: "chat", message: "chat-message", form: "chat-form" });

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
    var panel = document.getElementById("chat");
    if (panel.hidden) return;
    fetch(panel.dataset.chatUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) return response.text().then(window.bakehouseApply);
      })
      .catch(function () { return null; });
  }, 1000);

  // Sitting down (or leaving) changes who reads the chat, and a table called off or stopped by a
  // moderator closes it: the panel is fetched again.
  document.addEventListener("bakehouse:swapped", function () {
    var panel = document.getElementById("chat");
    var live = document.getElementById("board-live");
    if (!panel || !live) return;
    if (live.dataset.seated === panel.dataset.seated && live.dataset.chat === panel.dataset.chat) {
      return;
    }
    panel.dataset.seated = live.dataset.seated;
    panel.dataset.chat = live.dataset.chat;
    fetch(panel.dataset.chatUrl + "?panel=1", { credentials: "same-origin" })
      .then(function (response) { return response.status === 200 ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var template = document.createElement("template");
        template.innerHTML = html;
        var fresh = template.content.querySelector("#chat");
        var old = document.getElementById("chat");
        if (!fresh || !old) return;
        old.replaceWith(fresh);
        window.htmx.process(fresh);
      })
      .catch(function () { return null; });
  });
})();
