// Bakehouse's Web Push worker: shows what the site pushes, and a tap opens its page.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Bakehouse", {
      body: data.body || "",
      tag: "bakehouse",
      renotify: true,
      data: { url: data.url || "/games/inbox/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow(event.notification.data.url));
});
