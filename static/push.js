/* The settings page's "Turn on notifications on this device": asks the browser only after the click (browsers
   refuse a permission prompt without a user gesture), registers the service worker, subscribes with the site's
   VAPID key and hands the subscription to the server. The sentences come from the button's data attributes, in
   the page's language. */
"use strict";

(function () {
  const button = document.getElementById("push-on");
  const status = document.getElementById("push-status");
  if (!button || !status) {
    return;
  }
  const say = (text) => { status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(button.dataset.unsupported);
    return;
  }
  button.hidden = false;

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  async function turnOn() {
    button.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        say(button.dataset.denied);
        return;
      }
      await navigator.serviceWorker.register("/sw.js");
      const registration = await navigator.serviceWorker.ready;
      const key = (await (await fetch(button.dataset.keyUrl)).json()).public_key;
      const subscription = (await registration.pushManager.getSubscription())
        || await registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(key)});
      const answer = await fetch(button.dataset.subscribeUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify(subscription.toJSON()),
      });
      if (!answer.ok) {
        const detail = (await answer.json()).detail || {};
        say(button.dataset.failed.replace("{reason}", detail.message || answer.status));
        return;
      }
      say(button.dataset.on);
      window.location.reload();
    } catch (error) {
      say(button.dataset.failed.replace("{reason}", error.message || String(error)));
    } finally {
      button.disabled = false;
    }
  }

  button.addEventListener("click", turnOn);
})();
