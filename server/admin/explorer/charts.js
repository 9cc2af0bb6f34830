// Line charts drawn as SVG by hand (no chart library): time on x, a value on y, one line per
// series, an optional dashed target line, grid lines, labels and a legend.

const kSvg = "http://www.w3.org/2000/svg";
const kPalette = ["#2f7d5b", "#3367d6", "#e0822c", "#8e44ad", "#c0392b", "#16a085", "#b7950b",
  "#5d6d7e", "#d35400", "#1f618d"];

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(kSvg, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) if (child) element.append(child);
  return element;
}

export function colorOf(index) {
  return kPalette[index % kPalette.length];
}

// A tick step of 1, 2, 2.5 or 5 × 10^n giving at most 5 steps up to `value`.
function niceStep(value) {
  if (value <= 0) return 0.25;
  const rough = value / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const step of [1, 2, 2.5, 5, 10]) if (rough <= step * power) return step * power;
  return 10 * power;
}

function formatTick(value) {
  if (value >= 1000) return `${Math.round(value / 100) / 10}k`;
  return String(Math.round(value * 100) / 100);
}

// Draws into `container` (replacing its content). spec: {title, unit, series: [{name, points:
// [[timeMs, value]], color?}], target?: {value, label}, windowMs, nowMs}.
export function lineChart(container, spec) {
  const width = 560, height = 220, left = 48, right = 12, top = 28, bottom = 26;
  const plotW = width - left - right, plotH = height - top - bottom;
  const start = spec.nowMs - spec.windowMs;
  let max = spec.target ? spec.target.value : 0;
  for (const s of spec.series) for (const [, v] of s.points) max = Math.max(max, v);
  const step = niceStep(max * 1.05);
  max = Math.max(step, Math.ceil((max * 1.05) / step) * step);
  const x = (t) => left + ((t - start) / spec.windowMs) * plotW;
  const y = (v) => top + plotH - (v / max) * plotH;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-label": spec.title });
  root.append(svg("text", { x: left, y: 16, class: "chart-title" }, spec.title));
  for (let value = 0; value <= max + step / 2; value += step) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), class: "gridline" }),
      svg("text", { x: left - 6, y: y(value) + 4, class: "tick", "text-anchor": "end" }, formatTick(value)));
  }
  for (let s = 0; s <= spec.windowMs / 1000; s += 60) {
    const t = spec.nowMs - s * 1000;
    root.append(svg("text", { x: x(t), y: height - 8, class: "tick", "text-anchor": "middle" },
      s === 0 ? "now" : `-${s / 60}m`));
  }
  root.append(svg("line", { x1: left, x2: left, y1: top, y2: top + plotH, class: "axis" }),
    svg("line", { x1: left, x2: width - right, y1: top + plotH, y2: top + plotH, class: "axis" }));
  if (spec.target) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(spec.target.value), y2: y(spec.target.value),
      class: "target" }), svg("text", { x: width - right - 4, y: y(spec.target.value) - 4, class: "target-label",
      "text-anchor": "end" }, spec.target.label));
  }
  spec.series.forEach((series, index) => {
    const visible = series.points.filter(([t]) => t >= start);
    if (visible.length === 0) return;
    const color = series.color ?? colorOf(index);
    const d = visible.map(([t, v], i) => `${i ? "L" : "M"}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join("");
    root.append(svg("path", { d, fill: "none", stroke: color, "stroke-width": 2, class: "series" },
      svg("title", {}, series.name)));
  });
  const legend = document.createElement("div");
  legend.className = "legend";
  spec.series.forEach((series, index) => {
    const item = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = series.color ?? colorOf(index);
    const peak = series.points.reduce((m, [, v]) => Math.max(m, v), 0);
    item.append(swatch, `${series.name} (peak ${formatTick(peak)}${spec.unit ?? ""})`);
    legend.append(item);
  });
  if (spec.series.length === 0) legend.textContent = "no traffic yet";
  container.replaceChildren(root, legend);
}
