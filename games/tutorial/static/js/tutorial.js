// A tutorial table: the step above the board names the controls of one move, pressed in turn
// (data-presses: [[target, done], ...]; a tap is made once its "done" selector matches, e.g. a
// picked ingredient or an opened card); this outlines the next one still to press and sets a
// "Press here" tag by it, where it hides none of that control's words (place). The board is
// morphed by live.js on every push, which resets the control's classes, so after each swap
// ("bakehouse:swapped") the pointer is set again at once and the step is asked for again (the
// table may have moved on: a bot's move, a reveal).
//
// A step belongs to the board it was read at (data-version). Once the learner sends a move, the
// step shown is of the board before it: from that moment until a step read after the move is
// in, the pointer is hidden and the board takes no tap (#live.tutorial-waiting), since the old
// step's control may still be on the new board and a quick tap there would make a move no step
// asked for. So too while a step that names nothing to press ("Your rival is choosing") is
// shown on a board that moved on (the learner's move may have come). A rival's move alone
// leaves a step that names a control pointed at (it still holds) until the new one is in. A
// learner may tap something else while a step is shown: the next step follows the board as it
// is, and the server takes any legal move.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root || !document.getElementById("tutorial-step")) return;

  var pointer = document.createElement("div");
  pointer.id = "tutorial-pointer";
  pointer.className = "tutorial-pointer";
  pointer.setAttribute("aria-hidden", "true");
  pointer.hidden = true;
  document.body.appendChild(pointer);

  var shownSelector = null;
  var asked = 0;
  var asking = false;   // a step is on its way
  var sent = false;     // a move was sent and its board is not in yet
  var posting = false;  // ... posted, and its answer not in yet (else it went on the socket)
  var movedAt = -1;     // the board's version when the learner last sent a move

  function panel() {
    return document.getElementById("tutorial-step");
  }

  function shownVersion() {
    var live = document.getElementById("board-live");
    return live ? Number(live.dataset.version) : -1;
  }

  // The version the step shown was read at (none: a page without it, taken as current).
  function stepVersion() {
    var step = panel();
    return step && step.dataset.version ? Number(step.dataset.version) : shownVersion();
  }

  // Whether the step shown was read before the learner's last move: it asks for what is done.
  function overtaken() {
    return sent || stepVersion() <= movedAt;
  }

  // Whether the step shown names nothing to press.
  function idle() {
    var step = panel();
    return !step || (!step.dataset.target && (step.dataset.presses || "[]") === "[]");
  }

  // Taps wait while a step for the board shown is on its way and the one shown is no guide.
  function waiting() {
    var stale = stepVersion() !== shownVersion();
    return sent || (asking && stale && (overtaken() || idle()));
  }

  function matches(selector) {
    try {
      return root.querySelector(selector);
    } catch (error) {
      return null;
    }
  }

  // The next tap still to make: [target selector, its element], or null.
  function next() {
    var step = panel();
    if (!step) return null;
    var presses;
    try {
      presses = JSON.parse(step.dataset.presses || "[]");
    } catch (error) {
      presses = [];
    }
    if (!presses.length && step.dataset.target) presses = [[step.dataset.target, ""]];
    for (var i = 0; i < presses.length; i += 1) {
      if (presses[i][1] && matches(presses[i][1])) continue;
      return [presses[i][0], matches(presses[i][0])];
    }
    return null;
  }

  // The board's lines the tag must leave readable ("Press a pastry to keep it.", what is picked).
  var KEEP_CLEAR = ".hint, .picks, h2";
  var GAP = 8;  // between the tag's arrow tip and the control's outline

  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  function area(a, b) {
    var wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    var high = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return wide > 0 && high > 0 ? wide * high : 0;
  }

  // Whether an element is out of sight though it has boxes: inside a closed menu (a <details>
  // keeps its content's layout), or for screen readers only (.sr: clipped to a 1 px box).
  function unseen(element) {
    if (element.checkVisibility && !element.checkVisibility({ visibilityProperty: true })) {
      return true;
    }
    var box = element.getBoundingClientRect();
    return box.width <= 1 || box.height <= 1;
  }

  // What a person reads in an element: its words' boxes and its icons' (a count, a cost).
  function ink(element) {
    var boxes = [];
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      if (!walker.currentNode.data.trim() || unseen(walker.currentNode.parentElement)) continue;
      var words = document.createRange();
      words.selectNodeContents(walker.currentNode);
      Array.prototype.push.apply(boxes, words.getClientRects());
    }
    Array.prototype.forEach.call(element.querySelectorAll("svg, img"), function (icon) {
      if (!unseen(icon)) boxes.push(icon.getBoundingClientRect());
    });
    return boxes.filter(function (box) { return box.width && box.height; });
  }

  // What the tag must never cover: the control's own words and icons, and for a card's Buy or
  // Reserve the card's (its cost); the board's lines; the step, which would hide the tag.
  function mustShow(element) {
    var boxes = ink(element);
    var card = element.closest("details.offer");
    var face = card && card.querySelector(":scope > summary");
    if (face && face !== element) boxes = boxes.concat(ink(face));
    Array.prototype.forEach.call(root.querySelectorAll(KEEP_CLEAR), function (line) {
      if (element.contains(line)) return;
      var words = document.createRange();  // the text's own boxes, not the line's full width
      words.selectNodeContents(line);
      Array.prototype.push.apply(boxes, words.getClientRects());
    });
    var step = panel();
    if (step) boxes.push(step.getBoundingClientRect());
    return boxes;
  }

  // Where the tag may go, best first: above the control, below it, beside it, each centred on it
  // or shifted along it, always inside the screen's width, then the same closer in, on the
  // outline (a phone's board is tight); [spot, left, top].
  function spots(rect, width, height, screen) {
    var centre = rect.left + rect.width / 2 - width / 2;
    var middle = rect.top + rect.height / 2 - height / 2;
    var list = [];
    [GAP, GAP / 2, 0].forEach(function (gap) {
      [centre, rect.left, rect.right - width].forEach(function (left) {
        left = Math.max(4, Math.min(left, screen - width - 4));
        list.push(["above", left, rect.top - height - gap]);
        list.push(["below", left, rect.bottom + gap]);
      });
      list.push(["right", rect.right + gap, middle]);
      list.push(["left", rect.left - gap - width, middle]);
    });
    list.push(["edge", Math.max(4, Math.min(centre, screen - width - 4)), rect.top - height / 2]);
    return list.filter(function (spot) {
      return spot[1] >= 4 && spot[1] + width <= screen - 4;
    });
  }

  // The tag by the control where it hides none of what the learner must read there (see
  // mustShow) and, of those spots, where it hides least of the rest of the board (a neighbour's
  // cost), in sight on the screen.
  function place(element) {
    var rect = element.getBoundingClientRect();
    pointer.hidden = false;
    var width = pointer.offsetWidth;
    var height = pointer.offsetHeight;
    var screen = document.documentElement.clientWidth;
    var must = mustShow(element);
    var rest = ink(root);
    var best = null;
    spots(rect, width, height, screen).forEach(function (spot, order) {
      var box = { left: spot[1], right: spot[1] + width, top: spot[2], bottom: spot[2] + height };
      var hidden = 0;
      must.forEach(function (line) { if (overlaps(box, line)) hidden += 1; });
      var cost = 0;
      rest.forEach(function (line) { cost += area(box, line); });
      if (box.top < 0 || box.bottom > window.innerHeight) cost += 1e6;
      var score = [hidden, cost, order];
      if (!best || better(score, best.score)) best = { spot: spot, score: score };
    });
    var spot = best ? best.spot : ["above", 4, rect.top - height - GAP];
    pointer.dataset.spot = spot[0];
    var aim = rect.left + rect.width / 2 - spot[1];  // the arrow under the control's middle
    pointer.style.setProperty("--aim", Math.max(10, Math.min(aim, width - 10)) + "px");
    pointer.style.left = spot[1] + window.scrollX + "px";
    pointer.style.top = spot[2] + window.scrollY + "px";
  }

  // Scores compare field by field: fewer things hidden, then less of the board covered, then
  // the earlier spot.
  function better(a, b) {
    for (var i = 0; i < a.length; i += 1) {
      if (a[i] !== b[i]) return a[i] < b[i];
    }
    return false;
  }

  function point() {
    var hold = waiting();
    root.classList.toggle("tutorial-waiting", hold);
    // The step's words are of an older board until the new step is in: shown as such.
    if (panel()) panel().setAttribute("aria-busy", hold || overtaken() ? "true" : "false");
    var tap = overtaken() ? null : next();
    var element = tap ? tap[1] : null;
    Array.prototype.forEach.call(root.querySelectorAll(".tutorial-target"), function (old) {
      if (old !== element) old.classList.remove("tutorial-target");
    });
    if (!element) {
      pointer.hidden = true;
      return;
    }
    element.classList.add("tutorial-target");
    var step = panel();
    pointer.textContent = step.classList.contains("done") ? "The scoring" : "Press here";
    var selector = tap[0];
    if (selector !== shownSelector) {
      shownSelector = selector;
      bringIntoSight(element, step);
      // Keys follow the pointer (Enter presses it), unless the person is busy elsewhere (chat).
      var busy = document.activeElement;
      if (!busy || busy === document.body || root.contains(busy)) {
        element.focus({ preventScroll: true });
      }
    }
    place(element);
  }

  // Scroll the control to the middle of the screen, or, if it is taller than what the step
  // leaves in sight (the scoring on a phone), its top just under the step and the tag; lower
  // still, where the screen holds it, so its section's heading shows under the step (a phone).
  function bringIntoSight(element, step) {
    var rect = element.getBoundingClientRect();
    var below = step.offsetHeight + 40;  // the step sticks to the top once scrolled
    var middle = (window.innerHeight - rect.height) / 2;
    var top = Math.max(below, middle);
    var section = element.closest("section");
    var heading = section && section.querySelector("h2");
    if (heading) {
      var under = step.offsetHeight + 8 + rect.top - heading.getBoundingClientRect().top;
      if (under > top && under + rect.height + 40 <= window.innerHeight) top = under;
    }
    window.scrollTo(0, window.scrollY + rect.top - top);
  }

  // The new step into the same element (a live region a screen reader keeps reading), and only
  // when it says something new.
  function renew(step, fresh) {
    if (
      step.innerHTML === fresh.innerHTML &&
      step.dataset.target === fresh.dataset.target &&
      step.dataset.presses === fresh.dataset.presses
    ) return;
    step.className = fresh.className;
    step.dataset.target = fresh.dataset.target;
    step.dataset.presses = fresh.dataset.presses;
    step.innerHTML = fresh.innerHTML;
  }

  // The version the step was read at, whether or not it says anything new.
  function renewVersion(step, fresh) {
    if (fresh.dataset.version) step.dataset.version = fresh.dataset.version;
  }

  // The step as the table stands now; an answer older than one asked since is dropped.
  function ask() {
    var step = panel();
    if (!step) return;
    asked += 1;
    asking = true;
    var mine = asked;
    // A step that cannot be had leaves the pointer hidden but the board free to tap.
    function failed() {
      if (mine !== asked) return;
      asking = false;
      point();
    }
    fetch(step.dataset.url, { credentials: "same-origin" })
      .then(function (response) {
        if (mine !== asked) return;
        if (response.status === 204) {
          asking = false;
          panel().remove();
          point();
          return;
        }
        if (response.status !== 200) return failed();
        return response.text().then(function (html) {
          if (mine !== asked) return;
          asking = false;
          if (!panel()) return point();
          var holder = document.createElement("template");
          holder.innerHTML = html.trim();
          var fresh = holder.content.firstElementChild;
          if (fresh) {
            renew(panel(), fresh);
            renewVersion(panel(), fresh);
          }
          point();
        });
      })
      .catch(failed);
  }

  function sentFromBoard(event) {
    var elt = event.detail.elt;
    var path = event.detail.requestConfig ? event.detail.requestConfig.path : event.detail.path;
    if (!(elt && elt.closest && elt.closest("#live"))) return false;
    return path === root.dataset.play || path === root.dataset.closeResults;
  }

  // A move (or the closing of a round's results) sent from the board: the pointer goes at once.
  // live.js sends it on the socket, or lets htmx post it (then its request starts).
  document.addEventListener("htmx:configRequest", function (event) {
    if (!sentFromBoard(event)) return;
    sent = true;
    movedAt = Math.max(movedAt, shownVersion());
    point();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (sentFromBoard(event)) posting = true;
  });

  // The move's fate is known once no answer is awaited (live.js's awaiting-push is off): its
  // board came, or it was refused and the board stayed (then the step shown holds again).
  function settleSent() {
    if (!sent || posting || root.classList.contains("awaiting-push")) return;
    sent = false;
    if (shownVersion() <= movedAt) movedAt = -1;
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!sentFromBoard(event)) return;
    posting = false;
    settleSent();
    point();
  });
  var awaiting = root.classList.contains("awaiting-push");
  new MutationObserver(function () {
    if (root.classList.contains("awaiting-push") === awaiting) return;
    awaiting = !awaiting;
    settleSent();
    point();
  }).observe(root, { attributes: true, attributeFilter: ["class"] });
  // No tap reaches the board's controls while the step is out of date (a tap, or a key). Held
  // on the way down at #live, so board.js (listening on the document) still sees the click was
  // made and does not make it again for a tap it thinks was lost.
  function hold(event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || !waiting()) return;
    if (event.type === "click" && !target.closest("button, summary, input")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }
  root.addEventListener("click", hold, true);
  root.addEventListener("submit", hold, true);

  document.addEventListener("bakehouse:swapped", function (event) {
    settleSent();
    if (!event.detail || !event.detail.stale) ask();
    point();
  });
  // A tap inside a move (an ingredient picked, a card opened) moves the pointer on at once; the
  // board's own handlers run first.
  root.addEventListener("click", function () { setTimeout(point, 0); });
  root.addEventListener("toggle", function () { setTimeout(point, 0); }, true);
  window.addEventListener("resize", point);
  point();
})();
