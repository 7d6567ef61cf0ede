// Bakehouse live table: the socket, swaps that never go backwards, a slow poll as the last
// resort, and words for every tap that failed.
//
// Every piece of board HTML (the answer to a tap, a socket push, a poll) goes through apply():
// it carries the version it was rendered at (#board-live[data-version]), and the regions-only
// pieces also the version they lead from (#board-diff); a piece that does not fit the board on
// screen is dropped (see fits()). Pieces are morphed into place (idiomorph), so a control that did
// not change stays the same element: a click on it is never lost, and an open menu stays open.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) return;

  var POLL_OFFLINE_MS = 3000;   // while the socket is down
  var POLL_LIVE_MS = 20000;     // while it is up: channel layers deliver at most once
  var RETRY_FIRST_MS = 500;
  var RETRY_MAX_MS = 15000;
  var RESTART = 3012;           // service restart (games/live/protocol.py: SERVICE_RESTART)
  // A restart's reconnects spread over this: a stopping process already closes its sockets one
  // after another (games/live/drain.py); this parts those closed in one instant (a lost layer).
  var RESTART_SPREAD_MS = 100;
  // Closes the server means as final (4000-4999): reconnecting would not help.
  var FINAL = {
    4401: "Your session ended (you logged out, or your password changed). Reload to go on.",
    4402: "A moderator closed your account, so you can no longer play or chat here.",
    4403: "The host lets only some people watch this game, and you are not one of them.",
    4404: "You can no longer watch this table.",
    4408: "This table is open in too many of your tabs: close one, then reload this one.",
    4409: "You have too many Bakehouse tables open in your tabs: close some, then reload this one.",
    4429: "Too many messages from this page. Reload to go on."
  };

  window.bakehouseLive = false;
  var socket = null;
  var retries = 0;
  var retryTimer = null;
  var stopped = false;
  var lastPoll = 0;
  var restarting = false;

  // The move this page sent on its socket whose answer has not come (see sentOnSocket). A frame
  // sent as a restart's close frame arrives is dropped by the browser: the page's socket still
  // says OPEN until the close event runs, and a busy page taps first. So a move a restart left
  // unanswered is sent once more on the next socket. The fields carry the version the move was
  // chosen at, so it is never made twice: made already by the stopping process, the second is
  // refused (the table moved on, or the pick is locked), and that refusal is not said, as the
  // board it comes with shows the move (lichess resends unacknowledged moves so).
  var unanswered = null;
  var resent = false;

  function shownVersion() {
    var live = document.getElementById("board-live");
    return live ? Number(live.dataset.version) : -1;
  }

  function say(text, kind) {
    var line = document.getElementById("board-message");
    if (!line) return;
    line.textContent = text;
    line.className = "message" + (kind ? " " + kind : "");
  }

  function status(text) {
    var line = document.getElementById("live-status");
    if (line) line.textContent = text;
  }

  function setLive(on) {
    window.bakehouseLive = on;
    if (!stopped) {
      status(on ? "Live." : "Reconnecting\u2026 the table refreshes every 3 seconds meanwhile.");
    }
  }

  // What belongs to this person's screen and not to the server: an open menu stays open.
  function keepLocal(attribute, node) {
    return !(attribute === "open" && node.tagName === "DETAILS");
  }

  // What the page wrote itself stays through a redraw: a hint given into a sheet on the board
  // (#sheet-hint; clearPassedHint() clears it once the board is past it), and the invite link's
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
        if (!html || apply(html)) return;
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

  // The answer to the move sent on the socket, if this piece is it (see unanswered): the move
  // sent again after a restart and refused was made already, so its refusal is not said.
  function heard(fragment) {
    var made = fragment.querySelector("#move-made");
    var refusal = fragment.querySelector("#board-message.error");
    if (!unanswered || !(made || refusal)) return;
    if (resent && refusal) {
      refusal.textContent = "";
      refusal.classList.remove("error");
      refusal.removeAttribute("role");
      awaited = 0;
      root.classList.remove("awaiting-push");
    }
    unanswered = null;
    resent = false;
  }

  // Swap in a piece of board HTML if it fits the board shown; true if swapped.
  function apply(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var fragment = template.content;
    heard(fragment);
    var stale = !fits(fragment);
    var diff = !!fragment.querySelector("#board-diff");
    var missing = false;
    Array.prototype.slice.call(fragment.children).forEach(function (node) {
      var old = node.id ? document.getElementById(node.id) : null;
      // A stale piece still brings its message (why a tap was refused), never its board.
      if (old && (!stale || node.id === "board-message")) morph(old, node);
      if (!old && diff && node.id && node.id.indexOf("region-") === 0) missing = true;
    });
    if (!stale) noteSwapped(fragment);
    // A board piece that fits shows the board in step with the table: it counts as the slow
    // poll, so a busy table is never polled (a quiet one is, 20 s after its last piece).
    if (!stale && (diff || fragment.querySelector("#board-live"))) lastPoll = Date.now();
    answered(fragment);
    settle();
    clearPassedHint();
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
    var url = root.dataset.board + (whole ? "" : "?version=" + shownVersion());
    return fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) return response.text().then(apply);
        return false;
      })
      .catch(function () { return false; });
  }

  setInterval(function () {
    if (stopped || restarting || document.hidden) return;  // a restart's board comes with its socket
    var every = window.bakehouseLive ? POLL_LIVE_MS : POLL_OFFLINE_MS;
    if (Date.now() - lastPoll >= every) resync(false);
  }, 1000);

  // This person was seated at another table (quick pairing, games.groups.go_to): go there.
  function follow(html) {
    if (html.indexOf('id="page-go"') === -1) return false;
    var template = document.createElement("template");
    template.innerHTML = html;
    var go = template.content.querySelector("#page-go");
    var url = go ? go.dataset.url || "" : "";
    if (url.charAt(0) !== "/" || url.charAt(1) === "/") return false;
    stopped = true;
    status("Your new table is ready: going there\u2026");
    window.location.assign(url);
    return true;
  }

  function connect() {
    retryTimer = null;
    if (stopped || socket) return;
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + root.dataset.socket);
    socket.onopen = function () {
      retries = 0;
      restarting = false;
      setLive(true);
      if (unanswered) {
        resent = true;
        socket.send(unanswered);
      }
    };
    var first = true;
    socket.onmessage = function (event) {
      if (follow(event.data)) return;
      if (!apply(event.data) && first) confirmOlder();
      first = false;
    };
    socket.onclose = function (event) {
      socket = null;
      // The server is restarting (a deploy): come back at once, to another process, with a
      // little jitter so its pages do not all arrive together. The page says nothing and keeps
      // its taps: the new socket brings the board as stored, a move sent and not yet answered
      // is sent again on it (see unanswered), and taps meanwhile are posted. Should that
      // reconnect fail, the usual back-off takes over.
      if (event.code === RESTART && !restarting) {
        restarting = true;
        window.bakehouseLive = false;
        retryTimer = setTimeout(connect, Math.random() * RESTART_SPREAD_MS);
        return;
      }
      restarting = false;
      unanswered = null;
      setLive(false);
      if (awaited) {
        // A move sent on this socket may not have reached the table: say so, and take taps again
        // once the board is fetched (a move that was made shows on it).
        say("The connection dropped as you tapped; look at the board again before you tap.", "error");
        resync(false).then(function () {
          awaited = 0;
          root.classList.remove("awaiting-push");
        });
      }
      if (FINAL[event.code] || (event.code >= 4000 && event.code < 5000)) {
        stopped = true;
        status(FINAL[event.code] || "The table closed this connection. Reload to go on.");
        return;
      }
      // Any other close (a restart, a network drop, a normal close) is retried with backoff.
      var delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, retries));
      retries += 1;
      retryTimer = setTimeout(connect, delay * (0.5 + Math.random() / 2));
    };
  }

  function reconnectNow() {
    if (stopped || socket) return;
    if (retryTimer) clearTimeout(retryTimer);
    retries = 0;
    connect();
  }
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) reconnectNow();
  });

  // A practice table's "Suggest a move" shows while the board says hints are on (a running
  // table against bots), and its hint is for the board it was given at: a newer board clears it.
  // A Cakehalla sheet (put back down to 10, a customer to choose) holds its own button and line.
  var HINT_LINES = ["board-hint", "sheet-hint"];

  function clearPassedHint() {
    var live = document.getElementById("board-live");
    var form = document.querySelector(".board-hint-form");
    if (form && live) form.hidden = live.dataset.hints !== "on";
    HINT_LINES.forEach(function (id) {
      var hint = document.getElementById(id);
      if (hint && hint.dataset.version && shownVersion() > Number(hint.dataset.version)) {
        hint.textContent = "";
        delete hint.dataset.version;
      }
    });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && HINT_LINES.indexOf(event.detail.target.id) >= 0) clearPassedHint();
  });

  // Answers to taps: boards go through apply(); refusals and failures are told in words.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    // A refused hint (a rated table, not your move) says why in its own line.
    if (target && HINT_LINES.indexOf(target.id) >= 0 && event.detail.xhr.status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
      return;
    }
    if (!target || target.id !== "board" || !event.detail.shouldSwap) return;
    event.detail.shouldSwap = false;
    apply(event.detail.serverResponse);
  });

  function messageIn(html) {
    var template = document.createElement("template");
    template.innerHTML = html || "";
    var line = template.content.querySelector("#board-message, [role=alert]");
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
        ? "Something went wrong on our side (error " + xhr.status + "); your tap was not taken."
        : "That was refused (" + xhr.status + ").";
    }
    // A 503 is the database away for a moment (games/outages.py): the board cannot be fetched
    // either, so the page does not claim it was; the slow poll brings it once it is back.
    say(xhr.status === 503 ? words : words + " The board has been refreshed.", "error");
    resync(true);
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (!onTable(event)) return;
    say("The bakery could not be reached, so your tap was not sent. Check your connection: " +
      "the board refreshes when it is back.", "error");
    resync(true);
  });
  document.addEventListener("htmx:timeout", function () {
    say("The bakery took too long to answer; the board has been refreshed.", "error");
    resync(true);
  });
  // A move sent while the socket is up (on the socket, or posted and answered with an empty
  // 204) is followed by its board on the socket. Should that not come, the board is fetched.
  var PUSH_AWAITED_MS = 3000;
  var awaited = 0;

  function settle() {
    if (awaited && shownVersion() >= awaited) {
      awaited = 0;
      root.classList.remove("awaiting-push");
    }
  }
  function awaitMove(made) {
    awaited = Math.max(awaited, made);
    root.classList.add("awaiting-push");
    settle();
    setTimeout(function () {
      if (stopped || shownVersion() >= made) return;
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
    if (!socket || socket.readyState !== WebSocket.OPEN || !window.bakehouseLive) return false;
    var type = detail.verb === "post" ? socketType(detail.path) : "";
    if (!type) return false;
    var fields = {};
    detail.formData.forEach(function (value, key) {
      if (typeof value === "string") fields[key] = value;
    });
    var message = JSON.stringify({ type: type, fields: fields });
    try {
      socket.send(message);
    } catch (error) {
      return false;
    }
    if (type === "play") {
      unanswered = message;
      resent = false;
    }
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

  connect();
})();
