// The design advisor's findings (/-/advisor): what it saw in your traffic, what the Table
// design guide recommends, and a link to the guide's section; and what Azure does differently
// from Azurite with your requests (category "differs-from-azurite", with a badge of its own).
import { admin } from "./api.js";
import { h, fill, errorBox, formatNumber } from "./ui.js";

function factValue(value) {
  return typeof value === "number" ? formatNumber(value) : String(value);
}

function findingCard(f) {
  const azurite = f.category === "differs-from-azurite";
  return h("article", { class: `finding ${f.severity}`, "data-id": f.id, "data-category": f.category },
    h("header", {}, h("span", { class: `badge ${f.severity}` }, f.severity),
      azurite ? h("span", { class: "badge azurite", title: "Azurite answers this request one way, Azure (and Malachite) another" }, "differs from Azurite") : null,
      h("strong", {}, f.title)),
    h("p", { class: "where muted small" }, `${f.account} / ${f.table || "(account)"} · ${f.pattern} · ${f.id}`),
    h("p", { class: "evidence" }, f.evidence),
    h("dl", { class: "facts" }, Object.entries(f.facts).map(([k, v]) => [h("dt", {}, k), h("dd", {}, factValue(v))])),
    h("p", { class: "recommendation" }, h("strong", {}, "Recommendation: "), f.recommendation),
    h("a", { href: f.guide, target: "_blank", rel: "noopener noreferrer" }, azurite ? "REST reference ↗" : "Design guide ↗"));
}

function summary(data) {
  const queries = data.summary?.queries ?? {};
  const total = Object.values(queries).reduce((a, b) => a + b, 0);
  if (total === 0) return h("p", { class: "muted small" }, "No queries seen yet.");
  return h("div", { class: "classes" }, h("span", { class: "muted small" }, "Queries by the class Azure runs them as: "),
    Object.entries(queries).map(([name, n]) => h("span", { class: `pill ${name === "table-scan" ? "bad" : name === "partition-scan" ? "warn" : "good"}` },
      `${name} ${formatNumber(n)} (${Math.round((100 * n) / total)}%)`)));
}

export async function show(main) {
  const render = async () => {
    const data = await admin("/-/advisor");
    const findings = data.findings;
    fill(main, h("section", { class: "card" },
      h("div", { class: "title-row" }, h("h2", {}, "Design advisor"),
        h("div", {}, h("button", { id: "advisor-refresh", onclick: () => render().catch(showError) }, "Refresh"), " ",
          h("button", { class: "secondary", onclick: async () => { await admin("/-/advisor", { method: "DELETE" }); render(); } }, "Forget what was seen"))),
      h("p", { class: "muted small" }, "Patterns and anti-patterns of the Azure Table design guide, and requests Azure answers differently from Azurite, detected from the requests of your application. The same findings as JSON for CI: GET /-/advisor."),
      summary(data),
      findings.length === 0 ? h("p", { id: "no-findings" }, "No findings: nothing in the traffic so far goes against the design guide.")
        : h("div", { id: "findings" }, findings.map(findingCard))));
  };
  const showError = (error) => fill(main, errorBox(error));
  await render();
}
