/* ESLint (scripts/lint-js) for the page's own code, the ES modules of assets/js/ (not assets/vendor/: published
   libraries), and their unit tests, tests/js/. A module names what it takes from another in its imports: there are
   no globals of the page's own. The modules of assets/js/logic/ are pure (plain data in and out, run in node by the
   unit tests): they may use only what browsers and node both have, not the page (document, window). ESLint and these
   packages are installed into .test-tools/ by scripts/install-test-tools; formatting is prettier's
   (.prettierrc.json, checked by scripts/lint-js). */
const path = require("node:path");
const { createRequire } = require("node:module");

const need = createRequire(path.join(__dirname, ".test-tools", "package.json"));
const js = need("@eslint/js");
const globals = need("globals");

function modules(files, known) {
  return {
    files: files,
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: known },
  };
}

module.exports = [
  { ignores: ["assets/vendor/"] },
  modules(["assets/js/*.js"], globals.browser),
  modules(["assets/js/logic/*.js"], globals["shared-node-browser"]),
  modules(["tests/js/*.mjs"], globals.node),
  {
    files: ["eslint.config.js"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "commonjs", globals: globals.node },
  },
];
