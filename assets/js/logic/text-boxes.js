/* Text and boxes for the map's titles: text widths (measured by a function given: a canvas in the page), titles
   wrapped to lines and cut with an ellipsis, and a grid of boxes to ask what a box would overlap. Pure. */

export const FONT = "Helvetica, Arial, sans-serif"; /* the stylesheet's font-family (dashboard/web/layout.py) */

/* textWidth(text, bold): a text's width at 100 px (widths scale with the font size), from ``measure(font, text)``
   (px), each text measured once. */
export function makeTextWidth(measure) {
  const widths = new Map();
  return function textWidth(text, bold) {
    const key = (bold ? "b" : "n") + text;
    let w = widths.get(key);
    if (w === undefined) {
      w = measure((bold ? "bold " : "normal ") + "100px " + FONT, text);
      if (widths.size > 50000) {
        widths.clear();
      }
      widths.set(key, w);
    }
    return w;
  };
}

/* wrap(title, bold, px, maxW, lines): a title in at most ``lines`` lines of at most ``maxW`` px at ``px`` px, cut with
   an ellipsis where it does not fit: {text (lines joined by newlines), w (widest line, px), lines}. */
export function makeWrap(textWidth) {
  const wraps = new Map();
  return function wrap(title, bold, px, maxW, lines) {
    const key = [title, bold, px, maxW, lines].join("|");
    let got = wraps.get(key);
    if (got) {
      return got;
    }
    const unit = px / 100,
      words = title.split(" "),
      out = [];
    let line = "",
      i = 0;
    const fits = (t) => textWidth(t, bold) * unit <= maxW;
    while (i < words.length && out.length < lines) {
      const next = line ? line + " " + words[i] : words[i];
      if (fits(next)) {
        line = next;
        i++;
        continue;
      }
      if (!line) {
        /* one word wider than a line: cut below */
        line = words[i];
        i++;
      }
      out.push(line);
      line = "";
    }
    if (line && out.length < lines) {
      out.push(line);
    }
    if (i < words.length || !fits(out[out.length - 1])) {
      /* more than fits: the last line ends with an ellipsis, the longest start of the rest that fits with one (at
         least one character): widths grow with the characters, so a binary search finds it */
      const last = [out[out.length - 1]].concat(words.slice(i)).join(" ");
      let lo = 1,
        hi = last.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(last.slice(0, mid) + "…")) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      let cut = last.slice(0, lo);
      const word = cut.lastIndexOf(" "); /* at a word's end, unless that leaves the line less than two thirds full */
      if (word > 0 && textWidth(cut.slice(0, word), bold) * unit >= (maxW * 2) / 3) {
        cut = cut.slice(0, word);
      }
      out[out.length - 1] = cut.replace(/[\s,:;.-]+$/, "") + "…";
    }
    let w = 0;
    out.forEach((t) => {
      w = Math.max(w, textWidth(t, bold) * unit);
    });
    got = { text: out.join("\n"), w: w, lines: out.length };
    if (wraps.size > 20000) {
      wraps.clear();
    }
    wraps.set(key, got);
    return got;
  };
}

export function overlaps(a, b) {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/* A grid of boxes in model coordinates (cells ``cell`` wide): add a box, ask whether a box hits one (boxes with an
   ``id`` equal to ``except`` left aside: a paper's own body). Cells are keyed by a number (a cell's column and row,
   each well within 2^20 of zero). */
function cellKey(gx, gy) {
  return (gx + 1048576) * 2097152 + (gy + 1048576);
}
export class Grid {
  constructor(cell) {
    this.cell = cell;
    this.cells = new Map();
  }
  add(b) {
    const c = this.cell;
    for (let gx = Math.floor(b.x1 / c), gx2 = Math.floor(b.x2 / c); gx <= gx2; gx++) {
      for (let gy = Math.floor(b.y1 / c), gy2 = Math.floor(b.y2 / c); gy <= gy2; gy++) {
        const k = cellKey(gx, gy);
        let list = this.cells.get(k);
        if (!list) {
          list = [];
          this.cells.set(k, list);
        }
        list.push(b);
      }
    }
  }
  hits(b, except) {
    const c = this.cell;
    for (let gx = Math.floor(b.x1 / c), gx2 = Math.floor(b.x2 / c); gx <= gx2; gx++) {
      for (let gy = Math.floor(b.y1 / c), gy2 = Math.floor(b.y2 / c); gy <= gy2; gy++) {
        const list = this.cells.get(cellKey(gx, gy));
        if (!list) {
          continue;
        }
        for (let i = 0; i < list.length; i++) {
          const o = list[i];
          if (b.x1 < o.x2 && o.x1 < b.x2 && b.y1 < o.y2 && o.y1 < b.y2 && (except === undefined || o.id !== except)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
