/* The page's one entry (dashboard/web/page_scripts.py puts it in the page as a module script where Dash starts its
   renderer): what runs before Dash draws anything, the clientside callbacks, the listeners of each part of the page,
   then Dash's renderer. Module scripts run once the page is parsed, after Dash's own scripts: Dash's renderer is
   started here, after the clientside callbacks exist, rather than by Dash's inline script. */

import { installPlotlyGate } from "./charts.js";
import { installChoices } from "./choices.js";
import { clientside } from "./clientside.js";
import { installControls } from "./controls.js";
import { quietDashCytoscape } from "./cytoscape-private.js";
import { skipEmptyResets } from "./dash-private.js";
import { fetchFirstView } from "./draw.js";
import { installImageExport } from "./export-image.js";
import { installStoryExport } from "./export-story.js";
import { installField } from "./field.js";
import { installLabels } from "./labels.js";
import { installMapKeys } from "./map-keys.js";
import { dropWheelWarning, installAskingAgain } from "./page.js";
import { installPageKeys } from "./page-keys.js";
import { installStoryKeys } from "./story.js";
import { installTouchTaps } from "./touch.js";
import { installWheelZoom } from "./viewport.js";

dropWheelWarning();
installAskingAgain();
quietDashCytoscape();
skipEmptyResets();
window.dash_clientside = Object.assign({}, window.dash_clientside, {
  citemap: Object.assign({}, (window.dash_clientside || {}).citemap, clientside),
});
installChoices();
installPlotlyGate();
fetchFirstView();
installWheelZoom();
installStoryKeys();
installStoryExport();
installImageExport();
installPageKeys();
installLabels();
installControls();
installField();
installMapKeys();
installTouchTaps();
if (window.DashRenderer) {
  new window.DashRenderer();
}
