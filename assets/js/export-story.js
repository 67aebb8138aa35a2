/* A story exported: its first step drawn anew, then each step in turn as presenting shows it, each taken as an image;
   all of them in one zip of PNGs (JSZip) or one PDF handout (jsPDF), both vendored in assets/vendor/ and loaded on
   first use. The same story gives the same file, whatever was shown, hovered or exported before: the images leave
   out what the map shows only for the moment (export-image.js), the zip's entries and the PDF carry a fixed date,
   and the PDF's file id is made from the story. The page comes back to the step it was on. */

import { legendLayout, polygon } from "./logic/colour-key.js";
import { drawings, forgetMap, viewMeta } from "./draw.js";
import { legendOf, mapBox, mapCanvas, mapImage } from "./export-image.js";
import { PDF, STORY_DATE, hash, rgbOf, stepImageName, storyFileName, storyStem } from "./logic/export-files.js";
import { placeNow } from "./labels.js";
import { save, setProps, sleep, vendorScript } from "./page.js";
import { plainCaption, stepImageTitle } from "./logic/story-steps.js";
import { goToStep, presentedStep } from "./story.js";
import { refit } from "./viewport.js";

let busy = false;
/* Whether a story is being exported now. */
export function exporting() {
  return busy;
}

/* Resolves once step ``index`` of ``n`` is drawn and at rest: a drawing begun after ``mark`` (draw.js drawings) has
   ended, the rendered query is no longer ``before`` (when given), the frame shows the step's number and no paper
   glides, at two looks a frame or more apart (an animation starts at the frame after it is asked for). Then the map
   is fitted to the step's caption as it is now and its titles are placed for where the papers came to rest
   (presenting, they were placed while the papers glided). */
async function stepDrawn(mark, index, n, before) {
  const count = index + 1 + " / " + n;
  let still = 0;
  for (let t = 0; t < 200 && still < 2; t++) {
    await sleep(100);
    const g = document.getElementById("div-rendered-graph"),
      c = document.getElementById("span-present-count");
    const cy = window.cy;
    const drawn =
      drawings() > mark &&
      cy &&
      cy.nodes(".paper").nonempty() &&
      (before === undefined || (g && g.textContent !== before)) &&
      c &&
      c.textContent === count &&
      cy
        .nodes()
        .filter((e) => e.animated())
        .empty() &&
      !document.querySelector('[data-dash-is-loading="true"]');
    still = drawn ? still + 1 : 0;
  }
  if (window.cy) {
    refit(window.cy);
  }
  await sleep(300); /* the titles placed after the fit */
  if (window.cy) {
    placeNow(window.cy);
  }
}

/* The story's first step drawn as if the page had just opened on it: no paper kept in the place it had in the view
   shown before, none marked new, no camera moved by hand. Forgetting what the drawing remembers of the map makes the
   next drawing a first one; moving to the first step, or on it already setting the library filter's value again,
   runs the map's callback (loadGraph), which draws it. */
async function redrawAnew(n) {
  const mark = drawings(),
    filter = document.getElementById("radio-library");
  forgetMap();
  if (presentedStep().index !== 0) {
    goToStep(0);
  } else {
    setProps("radio-library", { "data-value": filter.getAttribute("data-value") });
  }
  await stepDrawn(mark, 0, n);
}

/* Export the story presented now as a zip of PNGs (``kind`` "zip") or a PDF handout ("pdf"). */
export async function exportStory(kind) {
  const cur = presentedStep(),
    cy = window.cy;
  if (!cur || !cy || busy) {
    return;
  }
  busy = true;
  const story = cur.story,
    start = cur.index,
    n = story.steps.length;
  const stem = storyStem(story);
  try {
    const out =
      kind === "zip"
        ? storyZip(await vendorScript("jszip.min.js", "JSZip"), story, stem)
        : storyPdf((await vendorScript("jspdf.umd.min.js", "jspdf")).jsPDF, story);
    for (let i = 0; i < n; i++) {
      if (i === 0) {
        await redrawAnew(n);
      } else {
        const mark = drawings();
        const before = (document.getElementById("div-rendered-graph") || {}).textContent;
        goToStep(i);
        await stepDrawn(mark, i, n, before);
      }
      await out.add(cy, i);
    }
    save(await out.file(), storyFileName(stem, kind));
  } finally {
    busy = false;
    if (presentedStep() && presentedStep().index !== start) {
      goToStep(start);
    }
  }
}

/* A story's PNGs: each step's map with the story's title, the step's number, title and caption above it and its
   legend below (export-image.js mapImage), in one zip. */
function storyZip(JSZip, story, stem) {
  const zip = new JSZip();
  return {
    add: async (cy, i) => {
      const meta = Object.assign({}, viewMeta(), { title: stepImageTitle(story, i) }); /* the step's colours */
      const image = await mapImage(cy, "png", meta);
      zip.file(stepImageName(stem, i), image.blob, { date: STORY_DATE });
    },
    file: () => zip.generateAsync({ type: "blob" }),
  };
}

/* A story's PDF handout: A4 landscape, a page a step (export-files.js PDF). Its words are text, sharp at any size: the
   story's title and the step's number, the step's title, its caption, the legend of the map's colours and shapes. */
function storyPdf(jsPDF, story) {
  const doc = new jsPDF({ orientation: "landscape", unit: "pt", format: "a4" });
  doc.setCreationDate(PDF.date);
  doc.setFileId(hash(JSON.stringify([story.title, story.steps])));
  doc.setProperties({ title: String(story.title || ""), creator: "citemap" });
  return {
    add: async (cy, i) => {
      if (i) {
        doc.addPage();
      }
      await pdfPage(doc, cy, story, i);
    },
    file: () => doc.output("blob"),
  };
}

/* A CSS colour as [r, g, b] (0-255), as a canvas reads it. */
function rgb(colour) {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.fillStyle = "#000000";
  ctx.fillStyle = colour;
  return rgbOf(ctx.fillStyle);
}

async function pdfPage(doc, cy, story, i) {
  const P = PDF,
    M = P.margin,
    width = doc.internal.pageSize.getWidth() - 2 * M;
  const bottom = doc.internal.pageSize.getHeight() - M,
    step = story.steps[i];
  let y = M;
  const caption = plainCaption(step.caption);
  function write(text, size, style, colour, lead) {
    /* in lines of the page's width, each ``lead`` below the last */
    doc.setFont("helvetica", style);
    doc.setFontSize(size);
    doc.setTextColor(colour[0], colour[1], colour[2]);
    doc.splitTextToSize(text, width).forEach((line) => {
      y += lead;
      doc.text(line, M, y);
    });
  }
  write(story.title + " · step " + (i + 1) + " of " + story.steps.length, 10, "normal", P.grey, 8);
  write(step.title || "", 16, "bold", P.ink, 21);
  if (caption) {
    write(caption, 11, "normal", P.ink, 15);
  }
  y += 12;
  const meta = Object.assign({}, viewMeta());
  doc.setFont("helvetica", "normal");
  doc.setFontSize(9);
  const legend = legendLayout((t) => doc.getTextWidth(t), legendOf(cy, meta), 0, width, 0.75);
  const rows = legend.length ? legend[legend.length - 1].row + 1 : 0;
  /* the map as large as the room left lets it be, at the map's shape */
  const box = mapBox(cy),
    room = Math.max(72, bottom - y - (rows ? 10 + 14 * rows : 0));
  const k = Math.min(width / box.w, room / box.h),
    w = box.w * k,
    h = box.h * k,
    x = M + (width - w) / 2;
  const image = await pdfImage(cy, box, Math.min(3, Math.max(0.5, ((w / 72) * P.dpi) / box.w)));
  doc.addImage(image.data, image.format, x, y, w, h, "map-" + (i + 1), "FAST");
  doc.setDrawColor(P.frame[0], P.frame[1], P.frame[2]);
  doc.setLineWidth(0.5);
  doc.rect(x, y, w, h, "S");
  y += h + 17;
  doc.setTextColor(P.ink[0], P.ink[1], P.ink[2]);
  legend.forEach((p) => {
    const it = p.item,
      lx = M + p.x,
      ly = y + 14 * p.row,
      c = rgb(it.color || "#9aa3af");
    doc.setFillColor(c[0], c[1], c[2]);
    const poly = polygon(it.shape, lx + 4.5, ly - 3, 5.25);
    if (poly) {
      const steps = poly.slice(1).map((q, j) => [q[0] - poly[j][0], q[1] - poly[j][1]]);
      doc.lines(steps, poly[0][0], poly[0][1], [1, 1], "F", true);
    } else if (it.shape === "square") {
      doc.roundedRect(lx, ly - 7.5, 9, 9, 1.5, 1.5, "F");
    } else {
      doc.circle(lx + 4.5, ly - 3, 4.5, "F");
    }
    doc.text(it.label, lx + 13.5, ly);
  });
}

/* The part of the map a page shows (mapBox), ``scale`` times its CSS pixels: {data: bytes, format}. */
async function pdfImage(cy, box, scale) {
  const map = mapCanvas(cy, scale),
    canvas = document.createElement("canvas");
  canvas.width = map.width;
  canvas.height = Math.round((map.height * box.h) / box.full);
  canvas.getContext("2d", { alpha: false }).drawImage(map, 0, 0);
  const encode = (type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality));
  let blob = await encode("image/png"),
    format = "PNG";
  if (blob.size > PDF.budget) {
    blob = await encode("image/jpeg", PDF.jpeg);
    format = "JPEG";
  }
  return { data: new Uint8Array(await blob.arrayBuffer()), format: format };
}

/* The presenting frame's PNGs and PDF buttons. */
export function installStoryExport() {
  document.addEventListener("click", (event) => {
    const b = event.target && event.target.closest && event.target.closest(".present-button");
    if (!b || !presentedStep()) {
      return;
    }
    if (b.id === "button-present-zip") {
      exportStory("zip");
    }
    if (b.id === "button-present-pdf") {
      exportStory("pdf");
    }
  });
}
