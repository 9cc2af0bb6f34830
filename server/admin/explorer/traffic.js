// Live traffic: requests per second by operation, errors by Azure code, throttled requests and
// injected faults, and each hot partition's rate against the per-partition target, over the
// last five minutes (the server samples once a second: /-/traffic).
import { admin } from "./api.js";
import { h, fill, errorBox } from "./ui.js";
import { lineChart } from "./charts.js";

const kWindowMs = 300 * 1000;
let timer = null;

// {name: [[t, v]...]} from samples, for a per-sample map such as sample.requests.
function seriesOf(samples, pick) {
  const names = new Set();
  for (const s of samples) for (const name of Object.keys(pick(s))) names.add(name);
  return [...names].sort().map((name) => ({
    name, points: samples.map((s) => [s.t, pick(s)[name] ?? 0]),
  }));
}

function partitionSeries(samples) {
  const keys = new Map();
  for (const s of samples) {
    for (const p of s.partitions) {
      const key = `${p.table}/${p.partition}`;
      if (!keys.has(key)) keys.set(key, new Map());
      keys.get(key).set(s.t, p.rate);
    }
  }
  // The 8 partitions with the highest rate seen.
  const ranked = [...keys].map(([name, points]) => [name, points, Math.max(...points.values())])
    .sort((a, b) => b[2] - a[2]).slice(0, 8);
  return ranked.map(([name, points]) => ({ name, points: samples.map((s) => [s.t, points.get(s.t) ?? 0]) }));
}

export async function show(main, state) {
  const samples = [];
  let since = 0;
  let target = state.server.partition_target;
  const boxes = ["requests", "errors", "throttled", "partitions"].map((id) => h("div", { class: "chart-box", id: `chart-${id}` }));
  const status = h("div");
  fill(main, h("section", { class: "card" }, h("h2", {}, "Live traffic"),
    h("p", { class: "muted small" }, "Requests of your application (not the explorer's own), sampled each second; the last five minutes."),
    status, h("div", { class: "charts" }, boxes)));
  const draw = () => {
    const nowMs = samples.length ? samples[samples.length - 1].t : Date.now();
    const common = { windowMs: kWindowMs, nowMs, unit: "/s" };
    lineChart(boxes[0], { ...common, title: "Requests per second by operation", series: seriesOf(samples, (s) => s.requests) });
    lineChart(boxes[1], { ...common, title: "Errors per second by code", series: seriesOf(samples, (s) => s.errors) });
    lineChart(boxes[2], { ...common, title: "Throttled (503) and injected faults per second", series: [
      { name: "throttled 503", color: "#c0392b", points: samples.map((s) => [s.t, s.throttled]) },
      { name: "fault rules fired", color: "#8e44ad", points: samples.map((s) => [s.t, s.faults]) }] });
    lineChart(boxes[3], { ...common, title: "Hot partitions: entities per second", series: partitionSeries(samples),
      target: { value: target, label: `target ${target.toLocaleString("en-US")}/s` } });
  };
  const poll = async () => {
    try {
      const answer = await admin(`/-/traffic${since ? `?since=${since}` : ""}`);
      target = answer.target;
      for (const sample of answer.samples) samples.push(sample);
      while (samples.length && samples[0].t < samples[samples.length - 1].t - kWindowMs) samples.shift();
      if (samples.length) since = samples[samples.length - 1].t;
      fill(status);
      draw();
    } catch (error) {
      fill(status, errorBox(error));
    }
  };
  await poll();
  timer = setInterval(poll, 1000);
}

export function stop() {
  clearInterval(timer);
  timer = null;
}
