// Bakehouse: the header's menus (the account's and the languages', each a <details>) close on a
// tap elsewhere and on Escape, as a menu does; without this script each opens and closes on its
// own summary.
(function () {
  "use strict";
  var menus = document.querySelectorAll(
    "header.site details.account-menu, header.site details.language-menu"
  );
  if (!menus.length) return;
  document.addEventListener("click", function (event) {
    menus.forEach(function (menu) {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    menus.forEach(function (menu) {
      if (!menu.open) return;
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  });
})();
