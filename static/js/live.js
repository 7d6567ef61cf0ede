// Bakehouse live table: the socket, swaps that never go backwards, a slow poll as the last
// resort, and words for every tap that failed.
//
// Every piece of board HTML (the answer to a tap, a socket push, a poll) goes through apply():
// it carries the version it was rendered at (#board-live[data-version]), and the regions-only
// pieces also the version they lead from (#board-diff); a piece that does not fit the board on
// screen is dropped (see fits()). Pieces are morphed into place (idiomorph), so a control that did
// not change stays the same element: a click on it is never lost, and an open menu stays open.
// The socket's life (reconnects, restarts, the words while away) is static/js/socket.js's.
(function () {
  "use strict";

  // A word of this script in the page's language (templates/games/table.html's #live-words), or
  // the English it falls back to.
  function word(key, english) {
    var held = document.getElementById("live-words");
    var found = held && held.content.querySelector('[data-word="' + key + '"]');
    return found ? found.textContent : english;
  }
  var root = document.getElementById("live");
  if (!root) return;

  var POLL_OFFLINE_MS = 3000;   // while the socket is down
  var POLL_LIVE_MS = 20000;     // while it is up: channel layers deliver at most once

  window.bakehouseLive = false;
  var link = null;  // the table's socket (static/js/socket.js), opened at the end
  var lastPoll = 0;

  // The page no longer follows this table: a final close, or gone to another table.
  function over() {
    var state = link ? link.state() : "";
    return state === "ended" || state === "going";
  }

  function shownVersion() {
    var live = document.getElementById("board-live");
    return live ? Number(live.dataset.version) : -1;
  }

  function say(text, kind) {
    var line = document.getElementById("board-message");
    if (!line) return;
    line.textContent = text;
    line.className = "message" + (kind ? " " + kind : "");
    if (kind === "error" && text) announce(text, true);
  }

  // ---- What a screen reader hears, without moving focus ----
  // The board marks what may be said with data-news (its key, rendered once per version and
  // language on the server: a log line, "your turn", a bake's or the game's end); each key is said
  // once in #news (polite), in the order data-news-at gives (log lines: oldest first), however
  // many versions a swap jumped. The keys heard are kept per table in localStorage, so a page
  // opened again says what happened since the last visit; a first visit says only what stands
  // now (your turn), not the whole log. Refusals and little time left go to #news-urgent.
  var NEWS_KEPT = 40;      // lines each live region keeps (a screen reader reads only additions)
  var SINCE_SAID = 15;     // the most log lines said at once on coming back to a table
  var saidKey = "bakehouse-said:" + location.pathname;
  var saidKeys = null;  // key -> true, read from localStorage on the first look

  function announce(text, urgent) {
    var region = document.getElementById(urgent ? "news-urgent" : "news");
    if (!region || !text) return;
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.children.length > NEWS_KEPT) region.removeChild(region.firstChild);
  }
  window.bakehouseAnnounce = announce;

  function readSaid() {
    try {
      var kept = window.localStorage.getItem(saidKey);
      return kept ? JSON.parse(kept) : null;
    } catch (e) { return null; }
  }

  function keepSaid(items) {
    // Only the keys the board still shows are kept: the others never come back.
    var kept = {};
    items.forEach(function (item) { kept[item.getAttribute("data-news")] = true; });
    try { window.localStorage.setItem(saidKey, JSON.stringify(kept)); } catch (e) { /* full */ }
  }

  function newsOrder(item) {
    var at = item.getAttribute("data-news-at");
    return at === null ? Infinity : Number(at);
  }

  function sayNews() {
    var items = Array.prototype.slice.call(root.querySelectorAll("[data-news]"));
    var first = saidKeys === null;
    if (first) saidKeys = readSaid();
    var fresh = saidKeys === null;  // never here before: the log so far is not news
    if (saidKeys === null) saidKeys = {};
    var unheard = items.filter(function (item) { return !saidKeys[item.getAttribute("data-news")]; });
    unheard.sort(function (a, b) { return newsOrder(a) - newsOrder(b); });
    var logLines = unheard.filter(function (item) { return item.hasAttribute("data-news-at"); });
    var skipped = fresh ? logLines.length : (first ? Math.max(0, logLines.length - SINCE_SAID) : 0);
    unheard.forEach(function (item) {
      saidKeys[item.getAttribute("data-news")] = true;
      if (item.hasAttribute("data-news-at") && skipped > 0) { skipped -= 1; return; }
      announce(item.textContent.replace(/\s+/g, " ").trim(), false);
    });
    if (unheard.length || first) keepSaid(items);
  }

  // ---- Focus kept where it was when the board changes ----
  // The element focused in the board is found again after a swap by its id, its data-key, or a
  // control's name and value; if it is gone, the heading of the region it was in (or the board's
  // heading, or a control the new board asks to be focused) takes focus, never the page's top.
  function focusMark(node) {
    if (!node || node === document.body || !root.contains(node)) return null;
    var region = node.closest("[id^='region-']");
    var mark = { region: region ? region.id : "" };
    if (node.id) mark.selector = "#" + CSS.escape(node.id);
    else if (node.dataset.key) mark.selector = "[data-key='" + CSS.escape(node.dataset.key) + "']";
    else if (node.dataset.ing) mark.selector = node.tagName.toLowerCase() + "[data-ing='" + CSS.escape(node.dataset.ing) + "']";
    else if (node.name && node.value) {
      mark.selector = node.tagName.toLowerCase() + "[name='" + CSS.escape(node.name) + "'][value='" + CSS.escape(node.value) + "']";
    } else if (node.tagName === "SUMMARY" && node.parentNode.querySelector("button[value]")) {
      var inner = node.parentNode.querySelector("button[value]");
      mark.summaryOf = "button[value='" + CSS.escape(inner.value) + "']";
    }
    return mark;
  }

  // The control last focused in the board: a move's own script may hide it before the board
  // comes (an offer's menu closes as its Buy is sent), and focus falls to the page meanwhile. A
  // press of the pointer elsewhere forgets it (the person chose to leave it).
  var lastMark = null;
  document.addEventListener("focusin", function (event) { lastMark = focusMark(event.target); });
  document.addEventListener("pointerdown", function () { lastMark = null; }, true);

  // Focus moved onto a node (made focusable if it is a heading); false if the browser would not
  // (a control inside a closed menu is laid out but cannot hold focus).
  function focusable(node, parked) {
    if (!node || !usable(node)) return false;
    if (!node.matches("a[href], button, input, select, textarea, summary, [tabindex]")) {
      node.setAttribute("tabindex", "-1");
    }
    if (parked) node.setAttribute("data-parked", "");
    node.focus({ preventScroll: true });
    return document.activeElement === node;
  }

  // Whether a control can hold focus: on the page, shown, not disabled (the swap may have
  // disabled it: "Keep one" with no pastry chosen any more, and the browser drops its focus).
  function usable(node) {
    var shown = node.checkVisibility ? node.checkVisibility({ contentVisibilityAuto: true })
      : node.offsetParent !== null;
    return node.isConnected && !node.disabled && shown;
  }

  function restoreFocus(mark) {
    var now = document.activeElement;
    if (!mark || (now && now !== document.body && usable(now))) return;
    var found = mark.selector ? root.querySelector(mark.selector) : null;
    if (!found && mark.summaryOf) {
      var inner = root.querySelector(mark.summaryOf);
      var details = inner && inner.closest("details");
      found = details ? details.querySelector("summary") : null;
    }
    if (focusable(found) || focusable(root.querySelector("[autofocus]"))) return;
    var region = mark.region ? document.getElementById(mark.region) : null;
    if (focusable(region && region.querySelector("h1, h2, h3"), true)) return;
    focusable(root.querySelector("#board h1, #board h2"), true);
  }

  function status(text) {
    var line = document.getElementById("live-status");
    if (line) line.textContent = text;
  }

  // What belongs to this person's screen and not to the server: an open menu stays open, and a
  // heading focus was parked on stays focusable (restoreFocus below).
  function keepLocal(attribute, node) {
    if ((attribute === "tabindex" || attribute === "data-parked") && node.hasAttribute("data-parked")) {
      return false;
    }
    // The message line's refusals are said in #news-urgent: its own role (for a page without
    // scripts) would say them twice.
    if (attribute === "role" && node.id === "board-message") return false;
    return !(attribute === "open" && node.tagName === "DETAILS");
  }

  // What the page wrote itself stays through a redraw: a hint given into a sheet on the board
  // (#sheet-hint; hint.js clears it once the board is past it), and the invite link's
  // "Copied." line (invite.js), which a push landing just after the tap would otherwise empty.
  function keepOwn(node) {
    if (node.nodeType !== 1) return true;
    if (node.id === "sheet-hint" && node.dataset.version) return false;
    return !(node.hasAttribute("data-copied") && node.textContent);
  }

  function morph(old, node) {
    node.removeAttribute("hx-swap-oob");
    window.Idiomorph.morph(old, node, {
      callbacks: { beforeAttributeUpdated: keepLocal, beforeNodeMorphed: keepOwn }
    });
    var placed = document.getElementById(node.id);
    if (placed) window.htmx.process(placed);
  }

  // The version each region on screen was last swapped in at: a whole board sets them all
  // (wholeAt), a regions-only piece only its own (regionAt).
  var wholeAt = shownVersion();
  var regionAt = {};

  function setAt(id) {
    return Object.prototype.hasOwnProperty.call(regionAt, id) ? regionAt[id] : wholeAt;
  }

  // Whether a regions-only piece from `base` to a newer version than shown brings every region
  // this page changed since `base` (the answer to this person's own tap moves the page past the
  // socket's base): then each region ends as the newer version has it, and nothing is fetched.
  function covers(fragment, base) {
    var brought = {};
    Array.prototype.slice.call(fragment.children).forEach(function (node) {
      if (node.id) brought[node.id] = true;
    });
    var regions = document.querySelectorAll("#board [id^='region-'], #board-live");
    for (var i = 0; i < regions.length; i++) {
      var id = regions[i].id;
      if (setAt(id) > base && !brought[id]) return false;
    }
    return true;
  }

  // Whether a piece fits the board shown: a whole board if it is not older; the regions that
  // changed from version `base` on top of that very version, or on a newer one it covers. A
  // piece made for another board is dropped, and if it is newer the whole board is fetched:
  // nothing is ever left half-updated.
  function fits(fragment) {
    var shown = shownVersion();
    var diff = fragment.querySelector("#board-diff");
    if (diff) {
      var base = Number(diff.dataset.base);
      var version = Number(diff.dataset.version);
      if (base === shown) return true;
      if (base < shown && version > shown && covers(fragment, base)) return true;
      if (version > shown) resync(true);
      return false;
    }
    var live = fragment.querySelector("#board-live");
    return !live || rewound || Number(live.dataset.version) >= shown;
  }

  // A new socket's first board is older than the one shown: a board that crossed it on its way,
  // or a site restored from a backup taken before it. The board is asked for once more; if the
  // site's is still older, that is the table as it stands now, and it is shown.
  var rewound = false;
  function confirmOlder() {
    var url = root.dataset.board;
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) { return response.status === 200 ? response.text() : ""; })
      .then(function (html) {
        if (!html || url !== root.dataset.board || apply(html)) return;
        rewound = true;
        try { apply(html); } finally { rewound = false; }
      })
      .catch(function () { return false; });
  }

  // Note the version the regions just swapped in were rendered at.
  function noteSwapped(fragment) {
    var live = fragment.querySelector("#board-live");
    if (!live) return;
    var version = Number(live.dataset.version);
    if (!fragment.querySelector("#board-diff")) {
      wholeAt = version;
      regionAt = {};
      return;
    }
    Array.prototype.slice.call(fragment.children).forEach(function (node) {
      if (node.id) regionAt[node.id] = version;
    });
  }

  // The answer to the move sent on the socket, if this piece is it (socket.js sends a move a
  // restart left unanswered once more): the move sent again and refused was made already (the
  // table moved on, or the pick is locked), so its refusal is not said: the board shows the move.
  function heard(fragment) {
    var made = fragment.querySelector("#move-made");
    var refusal = fragment.querySelector("#board-message.error");
    if (!link || !link.waiting() || !(made || refusal)) return;
    if (link.answered() && refusal) {
      refusal.textContent = "";
      refusal.classList.remove("error");
      refusal.removeAttribute("role");
      awaited = 0;
      root.classList.remove("awaiting-push");
    }
  }

  // Swap in a piece of board HTML if it fits the board shown; true if swapped.
  function apply(html) {
    var fragment = window.bakehouseSocket.parse(html);
    heard(fragment);
    var stale = !fits(fragment);
    var diff = !!fragment.querySelector("#board-diff");
    var missing = false;
    var mark = focusMark(document.activeElement) ||
      (document.activeElement === document.body ? lastMark : null);
    var refusal = fragment.querySelector("#board-message.error");
    var refused = refusal ? refusal.textContent.trim() : "";
    Array.prototype.slice.call(fragment.children).forEach(function (node) {
      var old = node.id ? document.getElementById(node.id) : null;
      // A stale piece still brings its message (why a tap was refused), never its board.
      if (old && (!stale || node.id === "board-message")) morph(old, node);
      if (!old && diff && node.id && node.id.indexOf("region-") === 0) missing = true;
    });
    if (!stale) noteSwapped(fragment);
    restoreFocus(mark);
    if (refused) announce(refused, true);
    if (!stale) sayNews();
    // A board piece that fits shows the board in step with the table: it counts as the slow
    // poll, so a busy table is never polled (a quiet one is, 20 s after its last piece).
    if (!stale && (diff || fragment.querySelector("#board-live"))) lastPoll = Date.now();
    answered(fragment);
    settle();
    // A region this board has no place for: the page shows another layout, fetch the whole.
    if (missing && !stale) resync(true);
    // The version the board holds after its last swap, whatever brought it (browser tests wait on it).
    document.body.dataset.liveVersion = String(shownVersion());
    document.dispatchEvent(new CustomEvent("bakehouse:swapped", { detail: { stale: stale } }));
    return !stale;
  }
  window.bakehouseApply = apply;

  // The board as the server has it now (after a failed tap, a reconnect, or on the slow poll).
  function resync(whole) {
    lastPoll = Date.now();
    var board = root.dataset.board;
    var url = board + (whole ? "" : "?version=" + shownVersion());
    return fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        // The answer of a table this page has left since (swapTo) is not this board's.
        if (response.status === 200 && board === root.dataset.board) return response.text().then(apply);
        return false;
      })
      .catch(function () { return false; });
  }

  setInterval(function () {
    // A restart's board comes with its new socket.
    if (over() || (link && link.state() === "restarting") || document.hidden) return;
    var every = window.bakehouseLive ? POLL_LIVE_MS : POLL_OFFLINE_MS;
    if (Date.now() - lastPoll >= every) resync(false);
  }, 1000);

  // Answers to taps: boards go through apply(); refusals and failures are told in words.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "board" || !event.detail.shouldSwap) return;
    event.detail.shouldSwap = false;
    var asked = event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (asked && asked.indexOf(location.pathname) !== 0) return;  // a table left since (swapTo)
    apply(event.detail.serverResponse);
  });

  function messageIn(html) {
    var line = window.bakehouseSocket.parse(html).querySelector("#board-message, [role=alert]");
    return line ? line.textContent.trim() : "";
  }

  // Taps outside the table (the chat) tell their own failures.
  function onTable(event) {
    var elt = event.detail && event.detail.elt;
    return !(elt && elt.closest && !elt.closest("#live"));
  }

  document.addEventListener("htmx:responseError", function (event) {
    if (!onTable(event)) return;
    var xhr = event.detail.xhr;
    var words = messageIn(xhr.responseText);
    if (!words) {
      words = xhr.status >= 500
        ? word("failed", "Something went wrong on our side (error {status}); your tap was not taken.")
        : word("refused", "That was refused ({status}).");
      words = words.replace("{status}", String(xhr.status));
    }
    // A 503 is the database away for a moment (games/outages.py): the board cannot be fetched
    // either, so the page does not claim it was; the slow poll brings it once it is back.
    say(xhr.status === 503 ? words : words + " " + word("refreshed", "The board has been refreshed."), "error");
    resync(true);
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (!onTable(event)) return;
    say(word("unreached", "The bakery could not be reached, so your tap was not sent. Check your " +
      "connection: the board refreshes when it is back."), "error");
    resync(true);
  });
  document.addEventListener("htmx:timeout", function () {
    say(word("slow", "The bakery took too long to answer; the board has been refreshed."), "error");
    resync(true);
  });
  // A move sent while the socket is up (on the socket, or posted and answered with an empty
  // 204) is followed by its board on the socket. Should that not come, the board is fetched.
  var PUSH_AWAITED_MS = 3000;
  var awaited = 0;

  // Another baker's move makes the version this page's move waits for too (picks are
  // simultaneous): the wait ends with the move's own answer on the socket, not at that version, so
  // a board drawn before the move is taken offers no second press.
  function unanswered() { return !!(link && link.waiting()); }

  function settle() {
    if (awaited && shownVersion() >= awaited && !unanswered()) {
      awaited = 0;
      root.classList.remove("awaiting-push");
    }
  }
  function awaitMove(made) {
    awaited = Math.max(awaited, made);
    root.classList.add("awaiting-push");
    settle();
    setTimeout(function () {
      if (over() || (shownVersion() >= made && !unanswered())) return;
      resync(false).then(function () {
        awaited = 0;
        root.classList.remove("awaiting-push");
      });
    }, PUSH_AWAITED_MS);
  }

  // The socket's answer to this page's own move: the version it made (its board comes with it),
  // or the words why it was refused with the board as it stands (the table takes taps again).
  function answered(fragment) {
    var made = fragment.querySelector("#move-made");
    if (made) {
      awaitMove(Number(made.dataset.version));
    } else if (awaited && fragment.querySelector("#board-message.error")) {
      awaited = 0;
      root.classList.remove("awaiting-push");
    }
  }

  // A move, or the closing of a round's results, tapped while the socket is up goes on the
  // socket, as the fields its form would post (no request of its own for the server to serve);
  // other taps, and any tap while the socket is down (or the browser says it is offline), are
  // posted.

  function socketType(path) {
    if (path === root.dataset.play) return "play";
    if (path === root.dataset.closeResults) return "close_results";
    return "";
  }

  function sentOnSocket(event) {
    var detail = event.detail;
    if (navigator.onLine === false) return false;
    var type = detail.verb === "post" ? socketType(detail.path) : "";
    if (!type) return false;
    // A key pressed on a board still waiting for this page's move (a pointer's tap is held back
    // by board.js and site.css) is the same press again: it is not sent.
    if (type === "play" && root.classList.contains("awaiting-push")) return true;
    var fields = {};
    detail.formData.forEach(function (value, key) {
      if (typeof value === "string") fields[key] = value;
    });
    // A move is sent again on the next socket should a restart leave it unanswered.
    if (!link.send(JSON.stringify({ type: type, fields: fields }), type === "play")) return false;
    say("", "");
    // A move makes a version (closing results does too, but it is answered with its board).
    if (type === "play") awaitMove(shownVersion() + 1);
    return true;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (!(elt && elt.closest && elt.closest("#live"))) return;
    if (sentOnSocket(event)) {
      event.preventDefault();
    } else if (window.bakehouseLive) {
      event.detail.headers["X-Bakehouse-Live"] = "1";
    }
  });
  // Until the board of the move arrives, the table takes no second tap (it would land on a
  // board the person has not seen, and come back refused).
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!onTable(event) || !xhr || xhr.status !== 204) return;
    var made = Number(xhr.getResponseHeader("X-Bakehouse-Version"));
    if (made) awaitMove(made);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#live")) say("", "");
  });

  // The socket: its pieces go through apply(); a new socket's first piece older than the board
  // shown is asked for again (confirmOlder). A close that is no restart's leaves a move sent on
  // it maybe unmade: the page says so, and takes taps again once the board is fetched.
  function firstLook() {
    sayNews();
    var refusedFirst = document.getElementById("board-message");
    if (refusedFirst) refusedFirst.removeAttribute("role");
    refusedFirst = document.querySelector("#board-message.error");
    if (refusedFirst && refusedFirst.textContent.trim()) announce(refusedFirst.textContent.trim(), true);
  }
  firstLook();

  // ---- The page taken to its person's next table in place ----
  // A tournament seats its people at their next tables at once and tells each of their pages
  // (#page-go). A page of the same game takes the new table's part from that very message
  // (#page-swap: drawn on the server for this person, their own view in their language; the
  // CSRF token is the page's own) instead of asking for the page, then follows that table as if
  // it had just loaded it: its socket, its address in the history (Back loads the table left),
  // what a screen reader hears there, and focus at the top of the page, as after a navigation.
  function withToken(part) {
    var token = "";
    try {
      token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { token = ""; }
    if (!token) return;
    part.querySelectorAll("form[method=post]").forEach(function (form) {
      if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.insertBefore(input, form.firstChild);
    });
  }

  function toTop() {
    window.scrollTo(0, 0);
    var body = document.body;
    body.setAttribute("tabindex", "-1");
    body.focus({ preventScroll: true });
    body.removeAttribute("tabindex");
  }

  var swapped = "";  // the address of the table last swapped in
  function swapTo(html, url) {
    var swap = window.bakehouseSocket.parse(html).querySelector("#page-swap");
    var part = swap && swap.content.querySelector("#table-page");
    var here = document.getElementById("table-page");
    var fresh = part && part.querySelector("#live");
    if (!fresh || !here || swap.dataset.url !== url || fresh.dataset.kind !== root.dataset.kind) {
      return false;
    }
    awaited = 0;  // a move in flight there is that table's (its close says nothing of it)
    link.close();  // nothing more of the table left lands here
    withToken(part);
    here.replaceWith(part);
    document.title = swap.dataset.title;
    window.history.pushState({ table: url }, "", url);
    if (!swapped) {  // Back (or Forward) to another table's address loads that table
      window.addEventListener("popstate", function () {
        if (location.pathname !== swapped) window.location.reload();
      });
    }
    swapped = location.pathname;
    root = document.getElementById("live");
    saidKey = "bakehouse-said:" + location.pathname;
    saidKeys = null;
    lastMark = null;
    wholeAt = shownVersion();
    regionAt = {};
    rewound = false;
    lastPoll = Date.now();
    window.htmx.process(part);
    toTop();
    announce(document.title, false);
    firstLook();
    document.body.dataset.liveVersion = String(shownVersion());
    document.dispatchEvent(new CustomEvent("bakehouse:swapped", { detail: { stale: false, page: true } }));
    link.open();
    return true;
  }

  link = window.bakehouseSocket({
    path: function () { return root.dataset.socket; },
    say: status,
    live: word("live", "Live."),
    away: word("away", "Reconnecting\u2026 the table refreshes every 3 seconds meanwhile."),
    what: "table",
    words: {
      4403: word("4403", "The host lets only some people watch this game, and you are not one of them."),
      4404: word("4404", "You can no longer watch this table.")
    },
    closed: word("closed", "The table closed this connection. Reload to go on."),
    going: word("going", "Your new table is ready: going there\u2026"),
    message: function (data, first) {
      if (!apply(data) && first) confirmOlder();
    },
    swap: swapTo,
    changed: function (state) {
      window.bakehouseLive = state === "live";
      if (state === "live" || state === "restarting" || state === "going" || !awaited) return;
      say(word("dropped", "The connection dropped as you tapped; look at the board again before you tap."), "error");
      resync(false).then(function () {
        awaited = 0;
        root.classList.remove("awaiting-push");
      });
    }
  });
})();
