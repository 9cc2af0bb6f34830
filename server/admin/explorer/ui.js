// Small DOM helpers shared by the views (no framework, no innerHTML with data).

// h("div", {class: "x", onclick: fn}, child, "text", [more]) -> an element.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) {
      element.addEventListener(name.slice(2), value);
    } else if (name === "value") {
      element.value = value;
    } else if (name === "checked") {
      element.checked = Boolean(value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) {
      append(element, child);
    } else {
      element.append(child instanceof Node ? child : String(child));
    }
  }
}

// Replaces the children of `element`.
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export function formatNumber(n) {
  return Number(n).toLocaleString("en-US");
}

export function formatBytes(bytes) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = Number(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export function formatMoney(amount, currency) {
  const digits = amount !== 0 && Math.abs(amount) < 0.01 ? 6 : 2;
  return `${Number(amount).toFixed(digits)} ${currency}`;
}

export function formatMs(ms) {
  if (!Number.isFinite(ms)) return "–";
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}

// An error box for an Azure error {status, code, message} or an Error.
export function errorBox(error) {
  if (!error) return null;
  if (error instanceof Error) return h("div", { class: "error", role: "alert" }, error.message);
  return h("div", { class: "error", role: "alert" },
    h("strong", {}, `${error.status} ${error.code}`), " ", error.message);
}

export function notice(text) {
  return h("div", { class: "notice", role: "status" }, text);
}

// A <select> of `options` ([value, label] pairs or plain values) with `selected` chosen.
export function select(attributes, options, selected) {
  return h("select", attributes, options.map((option) => {
    const [value, label] = Array.isArray(option) ? option : [option, option];
    return h("option", { value, selected: value === selected }, label);
  }));
}
