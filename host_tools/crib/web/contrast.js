"use strict";
// Every page's high-contrast view: the system's wish (prefers-contrast: more) unless this browser's
// "High contrast" button chose otherwise; the choice is kept in localStorage for every page of the site.
(() => {
  const KEY = "crib-contrast";  // "more", "standard", or nothing: the system decides
  const root = document.documentElement;
  const wish = matchMedia("(prefers-contrast: more)");
  const buttons = document.querySelectorAll(".contrast-toggle");

  function apply() {
    const chosen = localStorage.getItem(KEY);
    const on = chosen ? chosen === "more" : wish.matches;
    root.classList.toggle("high-contrast", on);
    root.classList.toggle("standard-contrast", !on);  // overrides the stylesheet's own media query
    for (const b of buttons) b.setAttribute("aria-pressed", String(on));
  }

  for (const b of buttons) {
    b.hidden = false;  // without this script the button could do nothing, so it stays hidden
    b.addEventListener("click", () => {
      localStorage.setItem(KEY, root.classList.contains("high-contrast") ? "standard" : "more");
      apply();
    });
  }
  wish.addEventListener("change", apply);
  window.addEventListener("storage", (e) => { if (e.key === KEY) apply(); });  // another tab chose
  apply();
})();
