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
    var data;
    try {
      data = JSON.parse(evt.detail.data);
    } catch (e) {
      return;
    }
    var b = board();
    if (b && String(data.seq) !== b.dataset.seq) htmx.trigger(b, "refresh");
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
