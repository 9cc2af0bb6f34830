// One table: the query bar ($filter, $select, $top), the query plan the server reports, a grid
// with typed columns, pages that follow the continuation tokens, and the entity view and forms
// (entity_form.js).
import { tableApi, parsePlan } from "./api.js";
import { entityFromJson, shortType } from "./edm.js";
import { h, fill, errorBox, formatMs, formatNumber } from "./ui.js";
import { entityPanel, entityForm } from "./entity_form.js";

// One query's pages: tokens[i] is the continuation that starts page i (null for the first).
function newQuery(filter, select, top) {
  return { filter, select, top, tokens: [null], page: 0 };
}

function queryPath(table, query) {
  const params = [];
  if (query.filter) params.push(`$filter=${encodeURIComponent(query.filter)}`);
  if (query.select) params.push(`$select=${encodeURIComponent(query.select)}`);
  if (query.top) params.push(`$top=${encodeURIComponent(query.top)}`);
  const token = query.tokens[query.page];
  if (token) {
    params.push(`NextPartitionKey=${encodeURIComponent(token.pk)}`);
    if (token.rk) params.push(`NextRowKey=${encodeURIComponent(token.rk)}`);
  }
  return `/${table}()${params.length ? "?" + params.join("&") : ""}`;
}

// The columns: keys first, then every property in order of first appearance with its type(s).
function columns(entities) {
  const types = new Map();
  for (const entity of entities) {
    for (const p of entity.properties) {
      if (!types.has(p.name)) types.set(p.name, new Set());
      types.get(p.name).add(p.type);
    }
  }
  return [...types].map(([name, set]) => ({ name, type: set.size === 1 ? [...set][0] : "mixed" }));
}

function cell(entity, column) {
  const p = entity.properties.find((x) => x.name === column.name);
  if (!p) return h("td", { class: "absent" }, "");
  const text = String(p.value);
  return h("td", { class: `t-${shortType(p.type).toLowerCase()}`, title: `${p.type}: ${text}` },
    text.length > 80 ? text.slice(0, 77) + "…" : text);
}

function grid(entities, onOpen) {
  const cols = columns(entities);
  return h("table", { class: "grid entities", id: "entities" },
    h("thead", {}, h("tr", {},
      h("th", {}, "PartitionKey"), h("th", {}, "RowKey"), h("th", {}, "Timestamp"),
      cols.map((c) => h("th", {}, c.name, h("span", { class: "type" }, shortType(c.type)))))),
    h("tbody", {}, entities.map((e) => h("tr", { class: "row", onclick: () => onOpen(e) },
      h("td", { class: "key" }, e.PartitionKey), h("td", { class: "key" }, e.RowKey),
      h("td", { class: "t-datetime" }, e.Timestamp), cols.map((c) => cell(e, c))))));
}

function planBox(answer) {
  const plan = parsePlan(answer.headers.get("x-malachite-query-plan"));
  if (!plan) return null;
  const scanClass = plan.service === "table-scan" ? "bad" : plan.service === "partition-scan" ? "warn" : "good";
  return h("div", { class: "plan", id: "plan" },
    h("span", { class: "pill" }, "Malachite ", h("strong", {}, plan.kind)),
    h("span", { class: `pill ${scanClass}` }, "Azure ", h("strong", { id: "plan-service" }, plan.service)),
    h("span", { class: "pill" }, `scanned ${formatNumber(plan.scanned)} · returned ${formatNumber(plan.returned)}`),
    h("span", { class: "pill" }, `${formatMs(answer.serverMs)} server · ${formatMs(answer.ms)} round trip`),
    h("details", {}, h("summary", {}, "plan details"),
      h("code", {}, `ranges: ${plan.ranges}`), h("br"), h("code", {}, `residual: ${plan.residual}`)));
}

function queryBar(query, onRun) {
  const filter = h("input", { id: "filter", class: "wide", value: query.filter,
    placeholder: "PartitionKey eq 'p1' and RowKey ge '100'", "aria-label": "$filter" });
  const select = h("input", { id: "select", value: query.select, placeholder: "Name,Price",
    "aria-label": "$select" });
  const top = h("input", { id: "top", type: "number", min: 1, max: 1000, value: query.top,
    "aria-label": "$top" });
  return h("form", { class: "querybar", onsubmit: (event) => {
    event.preventDefault();
    onRun(newQuery(filter.value.trim(), select.value.trim(), top.value.trim()));
  } },
  h("label", { class: "grow" }, "$filter ", filter), h("label", {}, "$select ", select),
  h("label", {}, "$top ", top), h("button", { type: "submit", id: "run" }, "Run query"));
}

export async function show(main, state, table) {
  let query = newQuery("", "", "100");
  const results = h("div", { id: "results" });
  const side = h("aside", { id: "side", class: "side" });
  // data-busy counts the pages loading (tests wait for it to go).
  let loading = 0;
  const run = async () => {
    results.dataset.busy = String(++loading);
    try {
      await load();
    } finally {
      if (--loading === 0) delete results.dataset.busy;
    }
  };
  const load = async () => {
    const answer = await tableApi(state.account, queryPath(table, query));
    if (!answer.ok) return fill(results, errorBox(answer.error));
    const entities = answer.json.value.map(entityFromJson);
    const npk = answer.headers.get("x-ms-continuation-NextPartitionKey");
    const next = npk ? { pk: npk, rk: answer.headers.get("x-ms-continuation-NextRowKey") } : null;
    query.tokens.length = query.page + 1;
    if (next) query.tokens.push(next);
    const pager = h("div", { class: "pager" },
      h("button", { id: "prev", disabled: query.page === 0, onclick: () => { query.page -= 1; run(); } }, "◀ Previous"),
      h("span", { id: "page-info" }, `Page ${query.page + 1} · ${entities.length} entities` +
        (next ? " · more pages" : " · last page")),
      h("button", { id: "next", disabled: !next, onclick: () => { query.page += 1; run(); } }, "Next ▶"));
    fill(results, planBox(answer), pager,
      entities.length ? h("div", { class: "grid-wrap" }, grid(entities, open))
        : h("p", { class: "muted" }, "No entities."));
  };
  const open = (entity) => fill(side, entityPanel(state, table, entity, {
    onEdit: () => fill(side, entityForm(state, table, entity, { onSaved: saved })),
    onDeleted: () => { fill(side); run(); },
  }));
  const saved = (message) => { fill(side, h("div", { class: "notice" }, message)); run(); };
  fill(main, h("section", { class: "card" },
    h("div", { class: "title-row" },
      h("h2", {}, h("a", { href: "#/tables" }, "Tables"), " / ", table),
      h("button", { id: "insert", onclick: () => fill(side, entityForm(state, table, null, { onSaved: saved })) },
        "Insert entity")),
    queryBar(query, (q) => { query = q; run(); })),
  h("div", { class: "split" }, h("section", { class: "card grow" }, results), side));
  await run();
}
