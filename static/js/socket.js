// Bakehouse's one socket client: a page's socket from its open to its end. It connects, comes back
// after a close with a growing back-off (at once, with a little jitter, after a restart's 3012),
// sends a move once more on the next socket if a restart left it unanswered, follows the server
// to another page (#page-go), and says in the page's own line what a close means. The page keeps
// only what it does with the messages (the table: live.js; the pairing panel: pairing.js; a
// tournament: tournament.js). The codes are games/live/protocol.py's and games/live/sessions.py's.
//
//   var link = window.bakehouseSocket({
//     path: function () { return "/ws/..."; },  // asked anew at each connect
//     say: function (words) {},                 // the page's line for what the client says
//     live: "Live.", away: "Reconnecting...",   // said once up, and while down (optional)
//     what: "table",                            // the page, in the words of a tab cap
//     words: { 4404: "..." }, closed: "...",    // the page's own words for final closes
//     going: "Your table is ready: going there...",
//     wanted: function () { return true; },     // whether the page still wants its socket
//     message: function (data, first) {},       // each message (first: the socket's first)
//     swap: function (data, url) {},            // a #page-go taken in place (true), or not
//     changed: function (state) {}              // each new state (below)
//   });
//   link.send(text, keep)  link.answered()  link.open()  link.close()  link.state()
//
// Its state, also on body[data-socket] for the page's other scripts and the browser tests:
// "opening" (the first socket not open yet), "live", "restarting" (a 3012: back at once),
// "away" (back after the back-off), "closed" (the page let it go; open() opens it again),
// "going" (to another page) and "ended" (closed for good, said why).
(function () {
  "use strict";
  if (window.bakehouseSocket) return;

  var RETRY_FIRST_MS = 500;
  var RETRY_MAX_MS = 15000;
  var RESTART = 3012;  // SERVICE_RESTART (a process stopping, games/live/drain.py) and LAYER_LOST
  // A restart's reconnects spread over this: a stopping process already closes its sockets one
  // after another (games/live/drain.py); this parts those closed in one instant (a lost layer).
  var RESTART_SPREAD_MS = 100;
  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  function word(key, english) {
    return window.bakehouseWord ? window.bakehouseWord(key, english) : english;
  }
  // Closes the server means as final (4000-4999): reconnecting would not help. "{what}" is the
  // page (a table, the search, a tournament); a page may say its own words for any code.
  var FINAL = {
    4401: "Your session ended (you logged out, or your password changed). Reload to go on.",
    4402: "A moderator closed your account, so you can no longer play or chat here.",
    4403: "You may not see this {what}.",
    4404: "This {what} is no longer there for you.",
    4408: "This {what} is open in too many of your tabs: close one, then reload this one.",
    4409: "You have too many Bakehouse pages open in your tabs: close some, then reload this one.",
    4429: "Too many messages from this page. Reload to go on."
  };

  // The wait before the next try, after `tries` failed ones: doubling, capped, and jittered so
  // that pages cut off together do not come back together.
  function backoff(tries) {
    var delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * Math.pow(2, tries));
    return delay * (0.5 + Math.random() / 2);
  }

  // A piece of HTML as a fragment to read (nothing in it runs, and nothing is fetched).
  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html || "";
    return template.content;
  }

  // The path a #page-go in this message sends the page to (games.groups.go_to), or "": only a
  // path of this site, and not the page shown.
  function goesTo(html) {
    if (html.indexOf('id="page-go"') === -1) return "";
    var go = parse(html).querySelector("#page-go");
    var url = go ? go.dataset.url || "" : "";
    if (url.charAt(0) !== "/" || url.charAt(1) === "/" || url === window.location.pathname) return "";
    return url;
  }

  function connectSocket(page) {
    var socket = null;
    var tries = 0;
    var timer = null;
    var state = "opening";
    var restarting = false;
    // The move this page sent on its socket whose answer has not come (send(text, true)). A frame
    // sent as a restart's close frame arrives is dropped by the browser: the page's socket still
    // says OPEN until the close event runs, and a busy page taps first. So a move a restart left
    // unanswered is sent once more on the next socket. Its fields carry the version it was chosen
    // at, so it is never made twice: made already by the stopping process, the second is refused,
    // and the page need not say so (answered(): lichess resends unacknowledged moves so).
    var unanswered = null;
    var resent = false;

    function say(words) {
      if (typeof words === "string" && page.say) page.say(words);
    }

    function become(next, words) {
      state = next;
      document.body.dataset.socket = next;
      if (page.changed) page.changed(next);
      say(words);
    }

    // A final close in words: the page's own, else the site's in the page's language (by the
    // code and what the page is), else its English.
    function finalWords(code) {
      var own = page.words && page.words[code];
      if (own) return own;
      var what = page.what || "page";
      var english = FINAL[code] ? FINAL[code].replace("{what}", what) : "";
      if (english) return word("close-" + code + (FINAL[code].indexOf("{what}") < 0 ? "" : "-" + what), english);
      return page.closed || word("close-other", "This page's connection closed. Reload to go on.");
    }

    function over() {
      return state === "ended" || state === "going";
    }

    function wanted() {
      return !over() && (!page.wanted || page.wanted());
    }

    function open() {
      timer = null;
      if (socket || !wanted()) return;
      var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      var first = true;
      socket = new WebSocket(scheme + window.location.host + page.path());
      socket.onopen = function () {
        tries = 0;
        restarting = false;
        become("live", page.live);
        if (unanswered) {
          resent = true;
          socket.send(unanswered);
        }
      };
      socket.onmessage = function (event) {
        var url = goesTo(event.data);
        // A page that can take its new table in place (live.js: a table of the same game, its
        // part in the message) swaps it and opens that table's socket; any other goes there.
        if (url && page.swap && page.swap(event.data, url)) return;
        if (url) {
          become("going", page.going || word("going", "Your table is ready: going there\u2026"));
          window.location.assign(url);
          return;
        }
        page.message(event.data, first);
        first = false;
      };
      socket.onclose = closed;
    }

    function closed(event) {
      socket = null;
      if (over()) return;
      if (!wanted()) {
        become("closed");
        return;
      }
      // The server is restarting (a deploy): come back at once, to another process, with a
      // little jitter. The page says nothing: the new socket brings the state as stored, and a
      // move sent and not yet answered is sent again on it. Should that reconnect fail, the
      // usual back-off takes over.
      if (event.code === RESTART && !restarting) {
        restarting = true;
        become("restarting");
        timer = setTimeout(open, Math.random() * RESTART_SPREAD_MS);
        return;
      }
      restarting = false;
      unanswered = null;
      if (event.code >= 4000 && event.code < 5000) {
        become("ended", finalWords(event.code));
        return;
      }
      // Any other close (a network drop, a normal close, the database away) is retried.
      if (state !== "away") become("away", page.away);
      timer = setTimeout(open, backoff(tries));
      tries += 1;
    }

    // Back at once when the browser is online again or the page shown again.
    function now() {
      if (socket || !wanted()) return;
      if (timer) clearTimeout(timer);
      tries = 0;
      open();
    }
    window.addEventListener("online", now);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) now();
    });

    open();
    return {
      // Send on the socket if it is up; false if not sent. `keep`: a move, sent again on the
      // next socket should a restart leave it unanswered (until answered() is called).
      send: function (text, keep) {
        if (!socket || socket.readyState !== WebSocket.OPEN || state !== "live") return false;
        try {
          socket.send(text);
        } catch (error) {
          return false;
        }
        if (keep) {
          unanswered = text;
          resent = false;
        }
        return true;
      },
      // The kept move is answered: true if its answer is to it sent again after a restart.
      answered: function () {
        var again = !!unanswered && resent;
        unanswered = null;
        resent = false;
        return again;
      },
      waiting: function () { return !!unanswered; },
      state: function () { return state; },
      // Open it if it is not (a try already due keeps its back-off).
      open: function () {
        if (!timer) open();
      },
      // Close without coming back (the page no longer wants it); open() opens it again.
      close: function () {
        if (timer) clearTimeout(timer);
        timer = null;
        tries = 0;
        if (!over() && state !== "closed") become("closed");
        if (!socket) return;
        var was = socket;
        socket = null;
        was.onclose = null;
        was.onmessage = null;  // a message still on its way is no longer the page's
        was.close(1000);
      }
    };
  }

  connectSocket.backoff = backoff;
  connectSocket.parse = parse;
  window.bakehouseSocket = connectSocket;
})();
