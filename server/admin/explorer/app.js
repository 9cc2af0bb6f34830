// The explorer's shell: the account picker, the tabs and hash routing (#/tables, #/table/<name>,
// #/traffic, #/advisor, #/bill, #/faults). Each view is a module with show(main, state).
import { admin } from "./api.js";
import { h, fill, errorBox } from "./ui.js";
import * as tables from "./tables.js";
import * as table from "./table.js";
import * as traffic from "./traffic.js";
import * as advisor from "./advisor.js";
import * as bill from "./bill.js";
import * as faults from "./faults.js";

const state = { server: null, account: "" };
let current = null;  // the shown view, for its stop()

function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  const name = parts[0] || "tables";
  return { name, arg: decodeURIComponent(parts.slice(1).join("/")) };
}

async function show() {
  const main = document.getElementById("main");
  current?.stop?.();
  current = null;
  const { name, arg } = route();
  for (const tab of document.querySelectorAll("#tabs a")) {
    const active = tab.dataset.tab === name || (name === "table" && tab.dataset.tab === "tables");
    tab.classList.toggle("active", active);
  }
  const views = { tables, table, traffic, advisor, bill, faults };
  const view = views[name] ?? tables;
  current = view;
  fill(main, h("p", { class: "muted" }, "Loading…"));
  try {
    await view.show(main, state, arg);
  } catch (error) {
    fill(main, errorBox(error));
  }
}

async function start() {
  try {
    state.server = await admin("/-/explorer/api/server");
  } catch (error) {
    fill(document.getElementById("main"), errorBox(error));
    return;
  }
  const picker = document.getElementById("account");
  state.account = localStorage.getItem("malachite.account") ?? "";
  if (!state.server.accounts.includes(state.account)) state.account = state.server.accounts[0];
  fill(picker, state.server.accounts.map((a) => h("option", { value: a, selected: a === state.account }, a)));
  picker.addEventListener("change", () => {
    state.account = picker.value;
    localStorage.setItem("malachite.account", state.account);
    if (route().name === "table") location.hash = "#/tables"; else show();
  });
  const info = state.server;
  document.getElementById("server-info").textContent =
    `v${info.version} · throttling ${info.throttling ? "on" : "off"} · ` +
    `${info.partition_target.toLocaleString("en-US")} entities/s per partition`;
  window.addEventListener("hashchange", show);
  await show();
}

start();
