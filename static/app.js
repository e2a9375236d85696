// Live refresh of the table and the "your turn" marks. The stream (htmx SSE extension) only says which seq
// the game is at; when it differs from the board's, the board fragment is fetched again (no reload).
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
      if (chat) refresh(chat);
      return;
    }
    var data;
    try {
      data = JSON.parse(evt.detail.data);
    } catch (e) {
      return;
    }
    var b = board();
    if (b && String(data.seq) !== b.dataset.seq) {
      // While a move of this page is on its way, its answer brings the board up to date: fetching the board
      // as well would replace it twice, and a click landing in between would be lost. Look again once it is in.
      if (b.querySelector(".htmx-request")) announced = String(data.seq);
      else refresh(b);
    }
    // A table waiting for players has no board: once the game starts, the page becomes the table.
    if (!b && document.getElementById("waiting") && data.status && data.status !== "open") window.location.reload();
  });

  // The seq the stream announced while a move of this page was on its way (see above).
  var announced = null;

  function catchUp() {
    var b = board();
    if (announced === null || !b || b.querySelector(".htmx-request")) return;
    if (announced !== b.dataset.seq) refresh(b);
    announced = null;
  }

  // Fetch a part of the page (the board, the chat) again. A part swapped in moments ago gets its listeners only
  // when htmx settles it (some 20 ms later): processing it first makes sure the "refresh" it is sent is heard
  // (htmx processes a node once).
  function refresh(elt) {
    htmx.process(elt);
    htmx.trigger(elt, "refresh");
  }

  document.addEventListener("htmx:afterSettle", catchUp);
  document.addEventListener("htmx:afterRequest", function () {
    setTimeout(catchUp, 0); // a refused move swaps nothing: its request's end is the last word
  });

  // A chat message sent: empty the field for the next one.
  document.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt;
    if (form && form.id === "chat-form" && evt.detail.successful && !document.getElementById("chat-error")) form.reset();
  });

  document.addEventListener("htmx:afterSettle", markTurn);
  document.addEventListener("DOMContentLoaded", markTurn);

  // Board spots are SVG elements with role="button": Enter and Space click them, as they would a button.
  document.addEventListener("keydown", function (evt) {
    var t = evt.target;
    if ((evt.key === "Enter" || evt.key === " ") && t instanceof SVGElement && t.getAttribute("role") === "button") {
      evt.preventDefault();
      t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });
})();
