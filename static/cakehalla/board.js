// Cakehalla table: picking ingredients before Take, the put-back steppers, refused taps, one card
// menu open at a time. An open menu stays open across swaps by itself: live.js morphs swaps in
// and keeps an element's "open"; this keeps the rest of what a person chose.
(function () {
  "use strict";

  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  function word(key, english) {
    return window.bakehouseWord ? window.bakehouseWord(key, english) : english;
  }
  // What this person picked in the market and chose to put back, kept while the table's version
  // is unchanged, so a live swap of the same version does not undo their taps.
  var memory = { version: null, picks: [], back: {} };

  function remember() {
    if (memory.version !== currentVersion()) {
      memory = { version: currentVersion(), picks: [], back: {} };
    }
  }

  // The board's version and a form's lists, read as the board's own script reads them
  // (static/js/board.js, on every page before this one).
  function currentVersion() { return window.bakehouseBoard.stamp("board-version"); }

  function picksOf(form) { return window.bakehouseBoard.listIn(form, "picks"); }

  function showPicks(form) {
    var picks = picksOf(form);
    var takes = window.bakehouseBoard.listIn(form, "takes").map(function (t) { return t.join(","); });
    form.querySelectorAll("[data-ing]").forEach(function (button) {
      var n = picks.filter(function (p) { return p === button.dataset.ing; }).length;
      button.setAttribute("aria-pressed", n ? "true" : "false");
      button.dataset.picked = String(n);
      button.querySelector(".picked").textContent = n ? "\u00d7" + n : "";
    });
    var words = form.querySelector("[data-picks]");
    if (words) {
      words.textContent = picks.length ? picks.map(function (p) {
        return form.querySelector('[data-ing="' + p + '"]').dataset.label;
      }).join(", ") : "nothing yet";
    }
    var take = form.querySelector("[data-take]");
    if (take) take.disabled = takes.indexOf(picks.slice().sort().join(",")) < 0;
    form.querySelector('input[name="action"]').value =
      JSON.stringify({ type: "take", ingredients: picks });
  }

  function say(form, text) {
    var why = form.querySelector("[data-pick-why]");
    if (why) why.textContent = text;
  }

  // The seed: "Tap the same one twice to take 2", whatever else is picked. A second tap on a
  // picked ingredient makes the take two of it (the other picks are put down, since a take of two
  // is of one kind only); a third tap puts it down. Without 4 in its pile, the second tap puts it
  // down and says why.
  function nextPicks(picks, ing, canTwo) {
    var count = picks.filter(function (p) { return p === ing; }).length;
    if (count === 2) return { picks: [] };
    if (count === 1 && canTwo) return { picks: [ing, ing], dropped: picks.length > 1 };
    if (count === 1) {
      return { picks: picks.filter(function (p) { return p !== ing; }), refused: true };
    }
    // A new kind: different ones from here (two of one become one of it and the new one).
    var distinct = picks.filter(function (p, i) { return picks.indexOf(p) === i; });
    if (distinct.length >= 3) return { picks: distinct, full: true };
    return { picks: distinct.concat([ing]) };
  }

  function pick(form, button) {
    say(form, "");
    var ing = button.dataset.ing;
    var next = nextPicks(picksOf(form), ing, Boolean(button.dataset.two));
    var picks = next.picks;
    var label = button.dataset.label;
    if (next.refused) {
      say(form, word("take-two-short", "Two {ingredient} need 4 or more in the pile.").replace("{ingredient}", label));
    }
    if (next.dropped) {
      say(form, word("take-two-alone", "Two {ingredient}: a take of two is of one kind.").replace("{ingredient}", label));
    }
    if (next.full) say(form, word("take-three-kinds", "Three kinds at most: Clear to pick again."));
    form.dataset.picks = JSON.stringify(picks);
    remember();
    memory.picks = picks;
    showPicks(form);
  }

  // How far the ingredients chosen to give back are from the count to give back, in words.
  function returnWords(total, excess) {
    if (total === excess) return word("return-ready", "Ready.");
    var n = Math.abs(excess - total);
    if (total < excess) {
      return n === 1 ? word("return-one-more", "Choose 1 more.") : word("return-more", "Choose {n} more.").replace("{n}", n);
    }
    return n === 1 ? word("return-one-over", "That is 1 too many.") : word("return-over", "That is {n} too many.").replace("{n}", n);
  }

  function showReturn(form) {
    var back = {};
    var total = 0;
    form.querySelectorAll("[data-back]").forEach(function (row) {
      var n = Number(row.querySelector(".back-n").textContent);
      row.dataset.n = String(n);
      if (n) back[row.dataset.back] = n;
      total += n;
    });
    var excess = Number(form.dataset.excess);
    form.querySelector('input[name="action"]').value = JSON.stringify({ type: "return", ingredients: back });
    form.querySelector("[data-return]").disabled = total !== excess;
    var left = form.querySelector("[data-left]");
    if (left) {
      left.textContent = returnWords(total, excess);
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target || !target.closest(".board-cakehalla")) return;
    var refused = target.closest('[aria-disabled="true"]');
    if (refused) {
      event.preventDefault();
      refused.focus();
      return;
    }
    // A Buy or Reserve sent from an offer closes it: a pile's offer outlives the move otherwise
    // (the morph keeps an open menu open).
    var sent = target.closest(".offer-actions button[type=submit]");
    if (sent) {
      var opened = sent.closest("details.offer");
      setTimeout(function () { if (opened) opened.open = false; }, 0);
      return;
    }
    var token = target.closest("[data-ing]");
    if (token) {
      pick(token.closest("form"), token);
      return;
    }
    if (target.closest("[data-clear]")) {
      var market = target.closest("form");
      market.dataset.picks = "[]";
      memory.picks = [];
      showPicks(market);
      return;
    }
    var step = target.closest("[data-step]");
    if (step) {
      var row = step.closest("[data-back]");
      var out = row.querySelector(".back-n");
      var n = Number(out.textContent) + Number(step.dataset.step);
      out.textContent = String(Math.max(0, Math.min(Number(row.dataset.held), n)));
      remember();
      memory.back[row.dataset.back] = Number(out.textContent);
      showReturn(step.closest("form"));
    }
  });

  // One card offer open at a time.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    if (details.open && details.classList.contains("offer")) {
      document.querySelectorAll("details.offer[open]").forEach(function (other) {
        if (other !== details) other.open = false;
      });
    }
  }, true);

  function restore() {
    var same = memory.version !== null && memory.version === currentVersion();
    var market = document.getElementById("market-form");
    if (market && same && market.dataset.picks !== JSON.stringify(memory.picks)) {
      market.dataset.picks = JSON.stringify(memory.picks);
      showPicks(market);
    }
    var ret = document.getElementById("return-form");
    if (ret) {
      if (same) {
        ret.querySelectorAll("[data-back]").forEach(function (row) {
          row.querySelector(".back-n").textContent = String(memory.back[row.dataset.back] || 0);
        });
      }
      showReturn(ret);
    }
  }
  // Every swap (an answer, a push, a poll) goes through live.js, which tells us when it is in.
  document.addEventListener("bakehouse:swapped", restore);
  document.addEventListener("DOMContentLoaded", restore);
})();
