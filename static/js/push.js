// Settings: turn Web Push on or off in this browser (static/js/push-worker.js shows the pushes).
(() => {
  const box = document.getElementById("push-settings");
  if (!box) return;
  const status = box.querySelector("[data-status]");
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  // A word of this script in the page's language (static/js/words.js: the page's
  // #script-words), or the English it falls back to.
  const word = (key, english) => (window.bakehouseWord ? window.bakehouseWord(key, english) : english);
  const say = (text) => {
    status.textContent = text;
  };
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(word("push-unable", "This browser cannot show notifications from websites."));
    return;
  }
  const csrf = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];

  const bytes = (text) => {
    const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };

  const post = async (url, subscription) => {
    const answer = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(subscription),
      credentials: "same-origin",
    });
    if (!answer.ok) {
      const said = await answer.json().catch(() => ({}));
      throw new Error(said.error || word("push-refused", "the site refused it"));
    }
  };

  // The worker's scope is its folder, not this page, so serviceWorker.ready never comes: wait
  // for this registration's worker itself.
  const active = (registration) =>
    new Promise((resolve) => {
      if (registration.active) return resolve(registration);
      const worker = registration.installing || registration.waiting;
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated") resolve(registration);
      });
    });

  const current = async () => {
    const registration = await navigator.serviceWorker.getRegistration(box.dataset.worker);
    return registration ? registration.pushManager.getSubscription() : null;
  };

  const show = async () => {
    const subscription = await current();
    on.hidden = Boolean(subscription);
    off.hidden = !subscription;
    say(subscription
      ? word("push-shown", "This browser shows Bakehouse's notifications.")
      : word("push-not-shown", "This browser does not show Bakehouse's notifications."));
  };

  on.addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        say(word("push-not-allowed", "The browser was not allowed to show notifications: allow them in its site settings."));
        return;
      }
      const registration = await active(await navigator.serviceWorker.register(box.dataset.worker));
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(box.dataset.key),
      });
      try {
        await post(box.dataset.subscribe, subscription.toJSON());
      } catch (refused) {
        // The site keeps no subscription it refused: the browser drops it too, so this page
        // never says notifications are on when none will come.
        await subscription.unsubscribe();
        throw refused;
      }
      await show();
    } catch (error) {
      say(word("push-on-failed", "Could not turn them on: {why}.").replace("{why}", error.message.replace(/\.$/, "")));
    }
  });

  off.addEventListener("click", async () => {
    try {
      const subscription = await current();
      if (subscription) {
        await post(box.dataset.unsubscribe, subscription.toJSON());
        await subscription.unsubscribe();
      }
      await show();
    } catch (error) {
      say(word("push-off-failed", "Could not turn them off: {why}.").replace("{why}", error.message.replace(/\.$/, "")));
    }
  });

  show();
})();
