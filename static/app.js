// Live refresh of the table and the "your turn" marks. The stream (htmx SSE extension) only says which seq
// the game is at; while the board shows an older one, the board fragment is fetched again (no reload).
(function () {
  "use strict";

  function board() {
    return document.getElementById("board");
  }

  function markTurn() {
    var b = board();
    if (!b) return;
    var viewer = b.dataset.viewer;
    var toAct = (b.dataset.toAct || "").split(" ").filter(Boolean);
    var mine = viewer !== undefined && viewer !== "" && toAct.indexOf(viewer) >= 0;
    document.title = (mine ? "\u25B6 Your turn \u2014 " : "") + (b.dataset.title || document.title);
    var icon = document.getElementById("favicon");
    if (icon) icon.href = mine ? icon.dataset.turn : icon.dataset.idle;
  }

  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    evt.preventDefault(); // nothing is swapped from the stream itself
    if (evt.detail.type === "chat") {
      // A new message in the table chat: read the chat log again.
      var chat = document.getElementById("chat-log");
      if (chat) htmx.ajax("GET", chat.dataset.url, { target: "#chat-log", swap: "outerHTML" });
      markUnread();
      return;
    }
    if (evt.detail.type === "table") {
      // Who sits at this open table changed: the waiting page reads its seats again (the chat stays as it is).
      if (document.getElementById("waiting")) {
        htmx.ajax("GET", window.location.pathname, { target: "#waiting", select: "#waiting", swap: "outerHTML" });
      }
      return;
    }
    var data;
    try {
      data = JSON.parse(evt.detail.data);
    } catch (e) {
      return;
    }
    latest = Math.max(latest, Number(data.seq) || 0);
    follow();
    // A table waiting for players has no board: once the game starts, the page becomes the table.
    if (!board() && document.getElementById("waiting") && data.status && data.status !== "open") {
      window.location.reload();
    }
  });

  // The board follows the stream: it is fetched again until it shows the newest seq the stream announced. One
  // fetch at a time, made here rather than by a trigger sent to the board: a board swapped in moments ago is set
  // up by htmx only when it settles (some 20 ms later), and a trigger sent to it before is lost.
  var latest = 0; // the newest seq the stream announced
  var fetching = false;

  function seqOf(b) {
    return Number(b.dataset.seq);
  }

  function follow() {
    var b = board();
    if (!b || fetching || latest <= seqOf(b)) return;
    // While a move of this page is on its way, its answer is the new board: fetching the board as well would
    // replace it twice, and a click landing in between would be lost. The answer's settling calls this again.
    if (b.querySelector(".htmx-request")) return;
    var from = seqOf(b);
    fetching = true;
    htmx.ajax("GET", b.dataset.url, { target: "#board", swap: "outerHTML" }).then(
      function () {
        fetching = false;
        var now = board();
        if (now && seqOf(now) > from) follow(); // a fetch that brought nothing newer is not repeated at once
      },
      function () {
        fetching = false;
      }
    );
  }

  document.addEventListener("htmx:afterSettle", follow);
  document.addEventListener("htmx:afterRequest", function () {
    setTimeout(follow, 0); // a refused move swaps nothing: its request's end is the last word
  });

  // A chat message sent: empty the field for the next one.
  document.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt;
    if (form && form.id === "chat-form" && evt.detail.successful && !document.getElementById("chat-error")) form.reset();
  });

  document.addEventListener("htmx:afterSettle", markTurn);
  document.addEventListener("DOMContentLoaded", markTurn);

  // The table's tabs (templates/pages/game.html): one panel at a time below the track. The choice is the page's
  // (`data-tab` on .table-page, outside the live board), so it survives every refresh of the board's panels, and
  // it is remembered for the next visit of the tab.
  function tabs() {
    return document.querySelector(".tabs[role=tablist]");
  }

  // A chat message while another tab is shown marks the chat's tab until it is opened.
  function markUnread() {
    var page = document.querySelector(".table-page");
    var mark = document.querySelector("#tab-chat .unread");
    if (page && mark && page.dataset.tab && page.dataset.tab !== "chat") mark.hidden = false;
  }

  function showTab(name, focus) {
    var page = document.querySelector(".table-page");
    var list = tabs();
    if (!page || !list) return;
    var buttons = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
    if (!buttons.some(function (b) { return b.dataset.panel === name; })) name = buttons[0].dataset.panel;
    page.dataset.tab = name;
    var unread = document.querySelector("#tab-chat .unread");
    if (unread && name === "chat") unread.hidden = true;
    buttons.forEach(function (b) {
      var on = b.dataset.panel === name;
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    });
    try {
      sessionStorage.setItem("table-tab", name);
    } catch (e) {
      // no storage: the tab is forgotten with the page
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var list = tabs();
    if (!list) return;
    var saved = null;
    try {
      saved = sessionStorage.getItem("table-tab");
    } catch (e) {
      saved = null;
    }
    list.hidden = false;
    // A table with other players' moves since the viewer's last one opens on them: the log, where they are marked.
    var b = board();
    var since = b && Number(b.dataset.since) > 0;
    showTab(since ? "log" : saved || "players", false);
    list.addEventListener("click", function (evt) {
      var tab = evt.target.closest("[role=tab]");
      if (tab) showTab(tab.dataset.panel, false);
    });
    list.addEventListener("keydown", function (evt) {
      var buttons = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
      var at = buttons.indexOf(document.activeElement);
      if (at < 0) return;
      var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: buttons.length - 1 }[evt.key];
      if (to === undefined) return;
      evt.preventDefault();
      showTab(buttons[(to + buttons.length) % buttons.length].dataset.panel, true);
    });
  });

  // A link to a part of a tab's panel (the heading's "Since your last move") shows that tab first, then the part.
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest ? evt.target.closest("a[data-panel]") : null;
    if (!link || !tabs()) return;
    showTab(link.dataset.panel, false);
    var part = document.getElementById(link.hash.slice(1));
    if (part) {
      evt.preventDefault();
      part.scrollIntoView({ block: "nearest" });
      var log = part.closest("[tabindex]");
      if (log) log.focus({ preventScroll: true });
    }
  });

  // Board spots are SVG elements with role="button": Enter and Space click them, as they would a button.
  document.addEventListener("keydown", function (evt) {
    var t = evt.target;
    if ((evt.key === "Enter" || evt.key === " ") && t instanceof SVGElement && t.getAttribute("role") === "button") {
      evt.preventDefault();
      t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });
})();

// The service worker (an installable site; it shows push notices and caches the static shell, never a page).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(function () {});
}
