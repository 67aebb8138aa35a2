/* citemap: clientside functions (namespace "citemap") and keyboard shortcuts. */
window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: {
    hoverCard: function (data) {
      if (!data || !data.title) { return ""; }
      var year = data.year === null || data.year === undefined ? "?" : data.year;
      var areas = (data.areas || []).join(", ");
      return data.title + "\n" + year + " · cited by " + Number(data.citations || 0).toLocaleString("en") +
        " · " + areas;
    }
  }
});

document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") { return; }
  var results = document.getElementById("div-search-results");
  if (results) { results.classList.add("closed"); }
  if (window.dash_clientside && window.dash_clientside.set_props) {
    window.dash_clientside.set_props("store-escape", {data: Date.now()});
  }
});

document.addEventListener("input", function (event) {
  if (event.target && event.target.id === "input-search") {
    var results = document.getElementById("div-search-results");
    if (results) { results.classList.remove("closed"); }
  }
});
