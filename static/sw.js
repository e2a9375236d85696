/* Carson City Online's service worker: shows the pushes, opens (or focuses) their game on a click, and caches the
   static shell only (SHELL and its VERSION, put in front of this script by
   the server), never a page or an API answer. */
"use strict";

const CACHE = "shell-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("shell-") && key !== CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin
      || !SHELL.includes(url.pathname + url.search)) {
    return; // pages, API answers and everything else: the network, as without a worker
  }
  event.respondWith(caches.match(event.request).then((hit) => hit || fetch(event.request)));
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = {};
  }
  const options = {
    body: notice.body || "",
    icon: ICON,
    data: {url: notice.url || "/", gameId: notice.game_id ?? null},
  };
  if (notice.tag) {
    options.tag = notice.tag; // a turn notice replaces the one shown ("Your turn in 3 games")
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(notice.title || "Carson City Online", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const given = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  const target = new URL(given.pathname + given.search, self.location.origin); // only ever a page of this site
  event.waitUntil(
    self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
      const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
      if (open) {
        return open.focus();
      }
      return self.clients.openWindow(target.href);
    })
  );
});
