// Behaviour every page shares. No inline handlers: the Content-Security-Policy allows scripts from this site only.
(function () {
  "use strict";
  document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
