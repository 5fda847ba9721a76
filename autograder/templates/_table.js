// resumen.html's learner × criterion table: sort by any column, filter by name or «con problemas».
// Inline and dependency-free, so the page works opened from a folder; without it the table still reads.
(function () {
  "use strict";
  var table = document.getElementById("matrix");
  if (!table) return;
  var controls = document.getElementById("matrix-controls");
  var search = document.getElementById("matrix-filter");
  var problems = document.getElementById("matrix-problems");
  var count = document.getElementById("matrix-count");
  var body = table.tBodies[0];
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var lang = document.documentElement.lang || "es";

  function value(row, col) {
    var cell = row.cells[col];
    var sort = cell.getAttribute("data-sort");
    return sort === null ? cell.textContent.trim() : sort;
  }

  function sortBy(col) {
    var th = headers[col];
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var numeric = th.getAttribute("data-type") === "number";
    headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, col), y = value(b, col);
      // Rows without a value (not graded) stay last whichever the direction.
      if (x === "" || y === "") return (x === "") - (y === "");
      var d = numeric ? parseFloat(x) - parseFloat(y) : x.localeCompare(y, lang, { sensitivity: "base" });
      return ascending ? d : -d;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  headers.forEach(function (th, col) {
    var button = document.createElement("button");
    button.type = "button";
    while (th.firstChild) button.appendChild(th.firstChild);
    th.appendChild(button);
    button.addEventListener("click", function () { sortBy(col); });
  });

  function filter() {
    // As report.folded writes data-name: lower case, no accents, so «nunez» finds «Núñez» and an id finds its row.
    var words = search.value.trim().toLocaleLowerCase(lang).normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    var shown = 0;
    Array.prototype.forEach.call(body.rows, function (row) {
      var visible = (!words || row.getAttribute("data-name").indexOf(words) !== -1) &&
        (!problems.checked || row.getAttribute("data-problem") === "1");
      row.hidden = !visible;
      if (visible) shown += 1;
    });
    count.textContent = count.getAttribute("data-template")
      .replace("{shown}", shown).replace("{total}", body.rows.length);
  }

  search.addEventListener("input", filter);
  problems.addEventListener("change", filter);
  controls.hidden = false;
  filter();
})();
