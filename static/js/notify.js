// Bakehouse table: the favicon shows when the table waits for this person's move, and an
// optional short sound plays when it starts to (off by default; the account's settings turn it
// on). The tab title's cue is board.js's. Read from #board-live after every swap (live.js).
(function () {
  "use strict";
  var settings = document.getElementById("notify");
  var icon = document.getElementById("favicon");
  if (!settings || !icon) return;
  var plainIcon = icon.getAttribute("href");
  var moveIcon = settings.dataset.iconMove;
  var soundOn = settings.dataset.sound === "on";
  var audio = null;
  var waited = null;

  function yourMove() {
    var live = document.getElementById("board-live");
    return !!live && live.dataset.yourMove === "yes";
  }

  // Browsers let a page make sound only after a tap on it: the context is made on the first one.
  function unlock() {
    if (!soundOn || audio) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (Context) audio = new Context();
  }
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });

  function chime() {
    if (!audio) return;
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  }

  function update() {
    var waits = yourMove();
    var href = waits ? moveIcon : plainIcon;
    if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);  // each set refetches it
    document.body.dataset.yourMove = waits ? "yes" : "no";
    if (waits && waited === false && soundOn) chime();
    waited = waits;
  }

  document.addEventListener("bakehouse:swapped", update);
  update();
})();
