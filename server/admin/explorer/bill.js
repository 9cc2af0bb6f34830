// The bill (/-/bill): billable transactions by table and operation, capacity by the service's
// entity-size formula, and the estimated monthly cost at a price table you can change.
import { admin } from "./api.js";
import { h, fill, errorBox, notice, formatNumber, formatBytes, formatMoney, formatMs } from "./ui.js";

function transactionsTable(account) {
  const ops = [...new Set(account.tables.flatMap((t) => Object.keys(t.operations)))].sort();
  if (account.tables.length === 0) return h("p", { class: "muted" }, "No billable transactions in this window.");
  return h("table", { class: "grid", id: "bill-transactions" },
    h("thead", {}, h("tr", {}, h("th", {}, "Table"), ops.map((op) => h("th", { class: "num" }, op)), h("th", { class: "num" }, "Total"))),
    h("tbody", {}, account.tables.map((t) => h("tr", {}, h("td", {}, t.table || "(account)"),
      ops.map((op) => h("td", { class: "num" }, formatNumber(t.operations[op] ?? 0))),
      h("td", { class: "num" }, h("strong", {}, formatNumber(t.transactions)))))));
}

function priceForm(prices, onSaved) {
  const field = (name, label, type = "text") => h("label", {}, label,
    h("input", { name, type, step: "any", value: prices[name], "aria-label": label }));
  const status = h("div");
  return h("form", { class: "prices", id: "prices", onsubmit: async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.target));
    data.per_gib_month = Number(data.per_gib_month);
    data.per_10k_transactions = Number(data.per_10k_transactions);
    try {
      await admin("/-/bill/prices", { method: "PUT", body: data });
      onSaved();
    } catch (error) {
      fill(status, errorBox(error));
    }
  } },
  h("h3", {}, "Price table"),
  field("currency", "Currency"), field("per_gib_month", "Capacity per GiB-month", "number"),
  field("per_10k_transactions", "Per 10,000 transactions", "number"),
  field("source", "Source"), field("as_of", "As of"),
  h("button", { type: "submit" }, "Save prices"), status);
}

export async function show(main, state) {
  const render = async (message) => {
    const bill = await admin("/-/bill");
    const account = bill.accounts.find((a) => a.account === state.account) ?? bill.accounts[0];
    const e = account.estimate;
    const c = account.capacity;
    const p = bill.prices;
    fill(main, h("section", { class: "card", id: "bill" },
      h("div", { class: "title-row" }, h("h2", {}, `Bill of ${account.account}`),
        h("button", { class: "secondary", onclick: async () => { await admin("/-/bill", { method: "DELETE" }); render("Started a new window."); } }, "Start a new window")),
      message ? notice(message) : null,
      h("div", { class: "kpis" },
        h("div", { class: "kpi" }, h("span", {}, "Billable transactions"), h("strong", { id: "bill-total" }, formatNumber(account.transactions)),
          h("small", {}, `in ${bill.window_seconds.toFixed(0)} s`)),
        h("div", { class: "kpi" }, h("span", {}, "Capacity"), h("strong", {}, c ? formatBytes(c.bytes) : "–"),
          h("small", {}, c ? `${formatNumber(c.entities)} entities, measured in ${formatMs(c.elapsed_ms)}` : "")),
        h("div", { class: "kpi" }, h("span", {}, "Estimated per month"), h("strong", { id: "bill-month" }, formatMoney(e.total, p.currency)),
          h("small", {}, `${formatNumber(Math.round(e.transactions_per_month))} transactions: ${formatMoney(e.transactions_cost, p.currency)}; capacity ${formatMoney(e.capacity_cost, p.currency)}`))),
      h("p", { class: "muted small" }, "Every REST request is one transaction ($batch: one; each query page: one); 503 throttling, other 5xx and unauthenticated requests are not billed. The month extrapolates this window's rate over 730 hours."),
      transactionsTable(account)),
    h("section", { class: "card" }, priceForm(p, () => render("Prices saved.")),
      h("p", { class: "muted small" }, `Defaults: ${p.source}, as of ${p.as_of}. Prices change: set your region's.`)));
  };
  await render("");
}
