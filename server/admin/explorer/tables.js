// The Tables view: the account's tables (Query Tables through the Table API) with their entity
// counts and billable sizes (/-/capacity, measured on demand: its cost is shown), a form to
// create a table and a button to delete one.
import { admin, tableApi } from "./api.js";
import { h, fill, errorBox, notice, formatBytes, formatNumber, formatMs } from "./ui.js";

// Every table name of `account`, following NextTableName continuations.
async function listTables(account) {
  const names = [];
  let next = "";
  do {
    const query = next ? `?NextTableName=${encodeURIComponent(next)}` : "";
    const answer = await tableApi(account, `/Tables${query}`);
    if (!answer.ok) throw Object.assign(new Error(answer.error.message), { azure: answer.error });
    for (const row of answer.json.value) names.push(row.TableName);
    next = answer.headers.get("x-ms-continuation-NextTableName") ?? "";
  } while (next);
  return names;
}

function capacityRow(capacity, name) {
  return capacity?.tables.find((t) => t.table.toLowerCase() === name.toLowerCase());
}

function tableRows(state, names, capacity, onDelete) {
  return names.map((name) => {
    const c = capacityRow(capacity, name);
    return h("tr", {},
      h("td", {}, h("a", { href: `#/table/${encodeURIComponent(name)}`, class: "table-link" }, name)),
      h("td", { class: "num" }, c ? formatNumber(c.entities) : "…"),
      h("td", { class: "num" }, c ? formatBytes(c.bytes) : "…"),
      h("td", { class: "actions" },
        h("button", { class: "danger small", onclick: () => onDelete(name),
          "aria-label": `Delete table ${name}` }, "Delete")));
  });
}

function createForm(state, onDone) {
  const input = h("input", { id: "new-table", placeholder: "newtable", required: true,
    pattern: "[A-Za-z][A-Za-z0-9]{2,62}", "aria-label": "New table name" });
  const status = h("div");
  const form = h("form", { class: "inline", onsubmit: async (event) => {
    event.preventDefault();
    const answer = await tableApi(state.account, "/Tables", {
      method: "POST", body: JSON.stringify({ TableName: input.value }),
      headers: { Prefer: "return-no-content" },
    });
    if (!answer.ok) return fill(status, errorBox(answer.error));
    onDone(`Created table ${input.value}.`);
  } }, h("label", {}, "New table ", input), h("button", { type: "submit" }, "Create table"));
  return h("div", {}, form, status);
}

export async function show(main, state) {
  const render = async (message) => {
    const [names, capacity] = await Promise.all([
      listTables(state.account),
      admin(`/-/capacity?account=${encodeURIComponent(state.account)}`).catch(() => null),
    ]);
    const onDelete = async (name) => {
      if (!confirm(`Delete table ${name} and all its entities?`)) return;
      const answer = await tableApi(state.account, `/Tables('${name}')`, { method: "DELETE" });
      if (!answer.ok) return fill(status, errorBox(answer.error));
      await render(`Deleted table ${name}.`);
    };
    const status = h("div", {}, message ? notice(message) : null);
    const cost = capacity
      ? `Counts and sizes measured now by reading ${formatNumber(capacity.entities)} entities ` +
        `in ${formatMs(capacity.elapsed_ms)}${capacity.complete ? "" : " (stopped early: lower bounds)"}; ` +
        `sizes use the service's billable entity-size formula.`
      : "Counts unavailable.";
    fill(main,
      h("section", { class: "card" },
        h("h2", {}, `Tables of ${state.account}`),
        createForm(state, (text) => render(text)),
        status,
        names.length === 0
          ? h("p", { class: "muted" }, "No tables yet.")
          : h("table", { class: "grid", id: "tables" },
            h("thead", {}, h("tr", {}, h("th", {}, "Table"), h("th", { class: "num" }, "Entities"),
              h("th", { class: "num" }, "Size"), h("th", {}))),
            h("tbody", {}, tableRows(state, names, capacity, onDelete))),
        h("p", { class: "muted small" }, cost)));
  };
  await render("");
}
