// The history's controls (templates/partials/history.html): the arrow keys step back and forward, and the
// slider goes to its position once let go. The page is a past position: no "your turn" mark in the title.
(function () {
  "use strict";

  function go(id) {
    var link = document.getElementById(id);
    if (link) window.location.href = link.href;
  }

  document.addEventListener("keydown", function (evt) {
    if (evt.altKey || evt.ctrlKey || evt.metaKey || evt.shiftKey) return;
    var t = evt.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    if (evt.key === "ArrowLeft") {
      evt.preventDefault();
      go("history-back");
    } else if (evt.key === "ArrowRight") {
      evt.preventDefault();
      go("history-forward");
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.getElementById("history");
    var board = document.getElementById("board");
    if (nav && board) {
      document.title = "Position " + nav.dataset.at + " of " + nav.dataset.last + " \u2014 " + (board.dataset.title || "");
      var icon = document.getElementById("favicon");
      if (icon) icon.href = icon.dataset.idle;
    }
    var slider = document.getElementById("history-slider");
    var shown = document.getElementById("history-slider-value");
    if (!slider) return;
    slider.addEventListener("input", function () {
      if (shown) shown.textContent = slider.value;
    });
    slider.addEventListener("change", function () {
      slider.form.submit();
    });
  });
})();
