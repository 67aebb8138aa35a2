/* ESLint (scripts/lint-js) for the page's own scripts, assets/*.js (not assets/vendor/: published libraries). They
   are classic scripts (Dash puts a <script> tag for each in the page, in the order of their names): their top-level
   functions and vars are globals, and some are used by another file. Those are declared here, file by file: any
   file may use them as read-only globals; in the file that declares one it is that file's own, not reported unused.
   ESLint and these packages are installed into .test-tools/ by scripts/install-test-tools. */
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

const need = createRequire(path.join(__dirname, ".test-tools", "package.json"));
const js = need("@eslint/js");
const globals = need("globals");

/* Each file's globals used by other files (assets/citemap-01-common.js says in which order the files load). */
const SHARED = {
  "assets/citemap-01-common.js": ["citemapPrefix", "citemapReducedMotion", "citemapCy", "citemapFetchGraph",
                                  "citemapAreaLabel", "citemapFigureSource"],
  "assets/citemap-02-charts.js": ["citemapPlotlyMayStart"],
  "assets/citemap-04-viewport.js": ["citemapFitPlaces", "citemapFit", "citemapCamera", "citemapCameraNow",
                                    "citemapRefit", "citemapWatchCaption", "citemapTickPx", "citemapCaptionCover"],
  "assets/citemap-06-story.js": ["citemapStoryStep", "citemapPrefetchNext", "citemapGoToStep"],
  "assets/citemap-07-export.js": ["citemapExportStory"],
};

/* a name listed above must be declared at the top level of its file (a stale list is an error, not a silent pass) */
for (const [file, names] of Object.entries(SHARED)) {
  const text = fs.readFileSync(path.join(__dirname, file), "utf8");
  for (const name of names) {
    if (!new RegExp("^(?:async function|function|var) " + name + "\\b", "m").test(text)) {
      throw new Error(`eslint.config.js: ${file} declares no ${name} at its top level`);
    }
  }
}

const ALL_SHARED = Object.fromEntries(Object.values(SHARED).flat().map(function (name) { return [name, "readonly"]; }));

module.exports = [
  {ignores: ["assets/vendor/"]},
  {
    files: ["assets/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "script",
      globals: {...globals.browser, ...ALL_SHARED},
    },
  },
  /* in the file that declares them they are its own (not globals from elsewhere), used or not by the file itself */
  ...Object.entries(SHARED).map(function ([file, names]) {
    return {
      files: [file],
      languageOptions: {globals: Object.fromEntries(names.map(function (name) { return [name, "off"]; }))},
      rules: {"no-unused-vars": ["error", {varsIgnorePattern: "^(?:" + names.join("|") + ")$"}]},
    };
  }),
];
