// Fault rules (/-/faults): make matching requests fail as the service does under load (503
// ServerBusy, 500 OperationTimedOut), answer late, or lose their connection.
import { admin } from "./api.js";
import { h, fill, errorBox, notice, select } from "./ui.js";

const kOperations = ["", "QueryTables", "CreateTable", "DeleteTable", "QueryEntities", "GetEntity",
  "InsertEntity", "UpdateEntity", "MergeEntity", "InsertOrReplaceEntity", "InsertOrMergeEntity",
  "DeleteEntity", "EntityGroupTransaction", "GetTable", "GetTableACL", "SetTableACL"];

function ruleText(rule) {
  const scope = ["account", "table", "partition", "operation"].filter((k) => rule[k]).map((k) => `${k}=${rule[k]}`);
  const when = rule.every ? `every ${rule.every}` : `p=${rule.probability ?? 1}`;
  return `${rule.fault}${rule.delay_ms ? ` ${rule.delay_ms} ms` : ""} · ${when} · ${scope.join(" ") || "all requests"}` +
    `${rule.count ? ` · at most ${rule.count}` : ""} · matched ${rule.matched}, fired ${rule.fired}`;
}

function ruleForm(onAdded) {
  const status = h("div");
  const input = (name, label, attributes = {}) => h("label", {}, label, h("input", { name, "aria-label": label, ...attributes }));
  return h("form", { class: "fault-form", id: "fault-form", onsubmit: async (event) => {
    event.preventDefault();
    const data = Object.fromEntries([...new FormData(event.target)].filter(([, v]) => v !== ""));
    for (const k of ["delay_ms", "every", "count", "after_ms", "for_ms"]) if (k in data) data[k] = Number(data[k]);
    if ("probability" in data) data.probability = Number(data.probability);
    try {
      await admin("/-/faults", { method: "POST", body: data });
      onAdded();
    } catch (error) {
      fill(status, errorBox(error));
    }
  } },
  h("label", {}, "Fault", select({ name: "fault", "aria-label": "Fault" }, ["ServerBusy", "OperationTimedOut", "Delay", "DropConnection"], "ServerBusy")),
  input("delay_ms", "Delay ms (Delay)", { type: "number", min: 1 }),
  input("probability", "Probability", { type: "number", step: "any", min: 0, max: 1, placeholder: "1" }),
  input("every", "or every Nth", { type: "number", min: 1 }),
  input("count", "At most", { type: "number", min: 1 }),
  input("after_ms", "After ms", { type: "number", min: 0 }),
  input("for_ms", "For ms", { type: "number", min: 1 }),
  input("account", "Account"), input("table", "Table"), input("partition", "Partition"),
  h("label", {}, "Operation", select({ name: "operation", "aria-label": "Operation" }, kOperations.map((o) => [o, o || "any"]), "")),
  h("button", { type: "submit", id: "add-fault" }, "Add rule"), status);
}

export async function show(main) {
  const render = async (message) => {
    const rules = await admin("/-/faults");
    const remove = async (id) => { await admin(`/-/faults/${id}`, { method: "DELETE" }); render(`Removed rule ${id}.`); };
    fill(main, h("section", { class: "card" },
      h("div", { class: "title-row" }, h("h2", {}, "Fault rules"),
        h("button", { class: "secondary", onclick: async () => { await admin("/-/faults", { method: "DELETE" }); render("Removed every rule."); } }, "Remove all")),
      message ? notice(message) : null,
      rules.length === 0 ? h("p", { class: "muted" }, "No fault rules: every request is served normally.")
        : h("ul", { class: "rules", id: "rules" }, rules.map((rule) => h("li", {}, h("code", {}, `#${rule.id}`), " ", ruleText(rule), " ",
          h("button", { class: "small danger", onclick: () => remove(rule.id) }, "Remove")))),
      h("h3", {}, "Add a rule"), ruleForm(() => render("Rule added."))));
  };
  await render("");
}
