/* The years slider's range in words, shown beside its label while it is dragged and after: its first position
   means "that year and every earlier one" (dashboard/view/years.py). Pure. */

/* "2018–2021", "≤2010–2025" (``floor``: the slider's first position, which reaches back to ``oldest``), "2020"
   for one year; "" for no range. */
export function yearsRange(value, floor, oldest) {
  if (!Array.isArray(value) || value.length !== 2 || !value.every(Number.isFinite)) {
    return "";
  }
  const lo = Math.min(value[0], value[1]),
    hi = Math.max(value[0], value[1]);
  const from = lo <= floor && oldest < floor ? "≤" + floor : String(lo);
  return lo === hi ? from : from + "–" + hi;
}
