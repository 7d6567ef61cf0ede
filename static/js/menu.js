// Bakehouse: the account menu (a <details> in the header) closes on a tap elsewhere and on
// Escape, as a menu does; without this script it opens and closes on its own summary.
(function () {
  "use strict";
  var menu = document.querySelector("header.site details.account-menu");
  if (!menu) return;
  document.addEventListener("click", function (event) {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });
})();
