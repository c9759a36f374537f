// The service worker: shows the server's Web Push notices and opens the game on a click.
// A notice says what happened and where, never what was played (service/services/notices.py).
self.addEventListener("push", (event) => {
  let notice = { title: "Boardroom", body: "", url: "/" };
  try { notice = { ...notice, ...event.data.json() }; } catch (e) { /* an empty or foreign push */ }
  event.waitUntil(self.registration.showNotification(notice.title, { body: notice.body, data: { url: notice.url }, tag: "boardroom" }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;  // only this site's own pages
  event.waitUntil(self.clients.openWindow(url.pathname));
});
