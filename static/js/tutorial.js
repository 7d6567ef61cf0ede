// A tutorial table: the step above the board names the controls of one move, pressed in turn
// (data-presses: [[target, done], ...]; a tap is made once its "done" selector matches, e.g. a
// picked ingredient or an opened card); this outlines the next one still to press and sets a
// "Press here" tag above it. The board is morphed by live.js on every push, which resets the
// control's classes, so after each swap ("bakehouse:swapped") the pointer is set again at once
// and the step is asked for again (the table may have moved on: a bot's move, a reveal).
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

  function panel() {
    return document.getElementById("tutorial-step");
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

  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  // The tag above the control, or, where that would cover a line of the board, below it, or
  // astride its top edge, or else on the control itself.
  function place(element) {
    var rect = element.getBoundingClientRect();
    pointer.hidden = false;
    var width = pointer.offsetWidth;
    var height = pointer.offsetHeight;
    var left = rect.left + rect.width / 2 - width / 2;
    left = Math.max(4, Math.min(left, document.documentElement.clientWidth - width - 4));
    var lines = [];
    Array.prototype.forEach.call(root.querySelectorAll(KEEP_CLEAR), function (line) {
      if (element.contains(line)) return;
      var words = document.createRange();  // the text's own boxes, not the line's full width
      words.selectNodeContents(line);
      Array.prototype.push.apply(lines, words.getClientRects());
    });
    var spots = [
      ["above", rect.top - height - 10],
      ["below", rect.bottom + 10],
      ["edge", rect.top - height / 2],
      ["on", rect.top + 2],
    ];
    var spot = spots.find(function (candidate) {
      var box = { left: left, right: left + width, top: candidate[1], bottom: candidate[1] + height };
      return !lines.some(function (line) { return overlaps(box, line); });
    }) || spots[0];
    pointer.dataset.spot = spot[0];
    pointer.style.left = left + window.scrollX + "px";
    pointer.style.top = spot[1] + window.scrollY + "px";
  }

  function point() {
    var tap = next();
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
  // leaves in sight (the scoring on a phone), its top just under the step and the tag.
  function bringIntoSight(element, step) {
    var rect = element.getBoundingClientRect();
    var below = step.offsetHeight + 40;  // the step sticks to the top once scrolled
    var middle = (window.innerHeight - rect.height) / 2;
    window.scrollTo(0, window.scrollY + rect.top - Math.max(below, middle));
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

  // The step as the table stands now; an answer older than one asked since is dropped.
  function ask() {
    var step = panel();
    if (!step) return;
    asked += 1;
    var mine = asked;
    fetch(step.dataset.url, { credentials: "same-origin" })
      .then(function (response) {
        if (mine !== asked) return;
        if (response.status === 204) {
          panel().remove();
          point();
          return;
        }
        if (response.status !== 200) return;
        return response.text().then(function (html) {
          if (mine !== asked || !panel()) return;
          var holder = document.createElement("template");
          holder.innerHTML = html.trim();
          var fresh = holder.content.firstElementChild;
          if (fresh) renew(panel(), fresh);
          point();
        });
      })
      .catch(function () {});
  }

  document.addEventListener("bakehouse:swapped", function (event) {
    point();
    if (!event.detail || !event.detail.stale) ask();
  });
  // A tap inside a move (an ingredient picked, a card opened) moves the pointer on at once; the
  // board's own handlers run first.
  root.addEventListener("click", function () { setTimeout(point, 0); });
  root.addEventListener("toggle", function () { setTimeout(point, 0); }, true);
  window.addEventListener("resize", point);
  point();
})();
