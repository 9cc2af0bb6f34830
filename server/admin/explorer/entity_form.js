// The entity view (every property with its EDM type) and the insert/edit form with type-aware
// inputs. Edits are Update (replace) or Merge with If-Match: the ETag the entity was read with,
// so a concurrent change answers the service's 412.
import { tableApi, entityPath } from "./api.js";
import { kTypes, checkValue, entityToJson, nowDateTime, newGuid, fileToBase64, shortType } from "./edm.js";
import { h, fill, errorBox, select } from "./ui.js";

export function entityPanel(state, table, entity, { onEdit, onDeleted }) {
  const status = h("div");
  const remove = async () => {
    if (!confirm(`Delete entity (${entity.PartitionKey}, ${entity.RowKey})?`)) return;
    const answer = await tableApi(state.account, entityPath(table, entity.PartitionKey, entity.RowKey),
      { method: "DELETE", headers: { "If-Match": entity.etag || "*" } });
    if (!answer.ok) return fill(status, errorBox(answer.error));
    onDeleted();
  };
  const row = (name, type, value) => h("tr", {}, h("th", {}, name),
    h("td", { class: "type" }, type), h("td", { class: `t-${shortType(type).toLowerCase()} value` }, String(value)));
  return h("div", { class: "card", id: "entity" },
    h("h3", {}, "Entity"),
    h("table", { class: "props" }, h("tbody", {},
      row("PartitionKey", "Edm.String", entity.PartitionKey), row("RowKey", "Edm.String", entity.RowKey),
      row("Timestamp", "Edm.DateTime", entity.Timestamp),
      entity.properties.map((p) => row(p.name, p.type, p.value)))),
    h("p", { class: "muted small" }, `ETag ${entity.etag}`),
    h("div", { class: "buttons" }, h("button", { id: "edit", onclick: onEdit }, "Edit"),
      h("button", { class: "danger", id: "delete-entity", onclick: remove }, "Delete")),
    status);
}

// The value input of one property row, by type.
function valueInput(row) {
  const set = (value) => { row.value = value; };
  const hint = h("span", { class: "hint" });
  const check = () => { hint.textContent = checkValue(row.type, row.value) ? `expects ${checkValue(row.type, row.value)}` : ""; };
  const text = (attributes) => h("input", { ...attributes, value: row.value,
    oninput: (event) => { set(event.target.value); check(); } });
  let control;
  switch (row.type) {
    case "Edm.Boolean":
      control = h("input", { type: "checkbox", checked: row.value === true || row.value === "true",
        onchange: (event) => set(event.target.checked), "aria-label": `${row.name} value` });
      break;
    case "Edm.String":
      control = h("textarea", { rows: 1, oninput: (event) => set(event.target.value), "aria-label": `${row.name} value` });
      control.value = row.value;
      break;
    case "Edm.DateTime":
      control = [text({ placeholder: "2024-05-01T12:30:00.1234567Z", "aria-label": `${row.name} value` }),
        h("button", { type: "button", class: "small", onclick: (e) => { set(nowDateTime()); e.target.previousSibling.value = row.value; check(); } }, "now")];
      break;
    case "Edm.Guid":
      control = [text({ placeholder: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", "aria-label": `${row.name} value` }),
        h("button", { type: "button", class: "small", onclick: (e) => { set(newGuid()); e.target.previousSibling.value = row.value; check(); } }, "new")];
      break;
    case "Edm.Binary":
      control = [text({ placeholder: "base64", "aria-label": `${row.name} value` }),
        h("input", { type: "file", class: "small", onchange: async (e) => {
          set(await fileToBase64(e.target.files[0])); e.target.previousSibling.value = row.value; check();
        } })];
      break;
    default:
      control = text({ inputmode: row.type === "Edm.Double" ? "decimal" : "numeric",
        placeholder: row.type === "Edm.Int64" ? "any 64-bit integer" : shortType(row.type),
        "aria-label": `${row.name} value` });
  }
  check();
  return [control, hint];
}

function propertyRows(rows, container) {
  const redraw = () => fill(container, rows.map((row, index) => h("div", { class: "prop-row" },
    h("input", { class: "name", value: row.name, placeholder: "Name", "aria-label": "Property name",
      oninput: (event) => { row.name = event.target.value; } }),
    select({ "aria-label": "Property type", onchange: (event) => {
      row.type = event.target.value;
      row.value = row.type === "Edm.Boolean" ? false : "";
      redraw();
    } }, kTypes, row.type),
    h("span", { class: "value-cell" }, valueInput(row)),
    h("button", { type: "button", class: "small", "aria-label": "Remove property",
      onclick: () => { rows.splice(index, 1); redraw(); } }, "✕"))));
  redraw();
  return redraw;
}

// Insert (entity null) or edit `entity`.
export function entityForm(state, table, entity, { onSaved }) {
  const editing = entity !== null;
  const rows = editing ? entity.properties.map((p) => ({ ...p })) : [{ name: "", type: "Edm.String", value: "" }];
  const pk = h("input", { id: "pk", value: editing ? entity.PartitionKey : "", readonly: editing, "aria-label": "PartitionKey" });
  const rk = h("input", { id: "rk", value: editing ? entity.RowKey : "", readonly: editing, "aria-label": "RowKey" });
  const mode = select({ id: "mode", "aria-label": "Write mode" },
    [["replace", "Replace (Update Entity)"], ["merge", "Merge (Merge Entity)"]], "replace");
  const ifMatch = h("input", { type: "checkbox", id: "if-match", checked: true });
  const container = h("div", { class: "props-edit" });
  const redraw = propertyRows(rows, container);
  const status = h("div");
  const submit = async (event) => {
    event.preventDefault();
    let body;
    try {
      body = entityToJson({ PartitionKey: pk.value, RowKey: rk.value, properties: rows.filter((r) => r.name) });
    } catch (error) {
      return fill(status, errorBox(error));
    }
    const answer = editing
      ? await tableApi(state.account, entityPath(table, entity.PartitionKey, entity.RowKey), {
        method: mode.value === "merge" ? "PATCH" : "PUT", body,
        headers: { "If-Match": ifMatch.checked ? entity.etag : "*" } })
      : await tableApi(state.account, `/${table}`, { method: "POST", body, headers: { Prefer: "return-no-content" } });
    if (!answer.ok) return fill(status, errorBox(answer.error));
    onSaved(`${editing ? (mode.value === "merge" ? "Merged" : "Replaced") : "Inserted"} (${pk.value}, ${rk.value}).`);
  };
  return h("form", { class: "card entity-form", id: "entity-form", onsubmit: submit },
    h("h3", {}, editing ? "Edit entity" : "Insert entity"),
    h("label", {}, "PartitionKey ", pk), h("label", {}, "RowKey ", rk),
    container,
    h("button", { type: "button", id: "add-property", onclick: () => { rows.push({ name: "", type: "Edm.String", value: "" }); redraw(); } }, "+ Property"),
    editing ? h("div", { class: "edit-options" }, mode,
      h("label", {}, ifMatch, ` If-Match: ${entity.etag} (uncheck for *)`)) : null,
    h("div", { class: "buttons" }, h("button", { type: "submit", id: "save" }, editing ? "Save" : "Insert")),
    status);
}
