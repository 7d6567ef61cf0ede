// Bakehouse: logging out also stops this browser's notifications. The server drops the push
// subscriptions made in this log-in whatever happens (games/notifications/push.py,
// drop_on_logout); here the browser forgets its own too, and tells the site, before the log-out
// goes on. Without this script (or push), the form posts as it is.
(function () {
  "use strict";
  var form = document.querySelector("form[data-logout]");
  if (!form || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  var leaving = false;
  var csrf = function () {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  };
  var forget = function (subscription) {
    var told = fetch(form.dataset.pushUnsubscribe, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(subscription.toJSON()),
      credentials: "same-origin",
    }).catch(function () {});
    return told.then(function () {
      return subscription.unsubscribe();
    });
  };
  var unsubscribeAll = function () {
    return navigator.serviceWorker.getRegistrations().then(function (registrations) {
      return Promise.all(
        registrations.map(function (registration) {
          return registration.pushManager.getSubscription().then(function (subscription) {
            return subscription ? forget(subscription) : null;
          });
        })
      );
    });
  };
  form.addEventListener("submit", function (event) {
    if (leaving) return;
    event.preventDefault();
    leaving = true;
    // A browser that never answers does not keep the person logged in: at most 2 s.
    var bound = new Promise(function (resolve) {
      setTimeout(resolve, 2000);
    });
    Promise.race([unsubscribeAll().catch(function () {}), bound]).then(function () {
      form.submit();
    });
  });
})();
