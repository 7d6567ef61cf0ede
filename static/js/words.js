// Bakehouse scripts' words in the page's language: a page that loads the scripts carries them in
// one <template id="script-words"> (templates/_script_words.html, included beside its script
// tags; base.html loads this file on every page), each a [data-word] element the
// scripts ask for by key; a page without it (or an old cached one) gets the English each script
// passes. "{n}", "{span}" and the like are filled in by the script that says the words.
(function () {
  "use strict";
  if (window.bakehouseWord) return;
  window.bakehouseWord = function (key, english) {
    var held = document.getElementById("script-words");
    var found = held && held.content.querySelector('[data-word="' + key + '"]');
    return found ? found.textContent : english;
  };
})();
