// Talking to the server: the Table API through /-/explorer/table/<account>/... (the server runs
// each call through its own Table pipeline, so errors and plans are the service's own), and the
// emulator's JSON endpoints under /-/.
import { parseTypedJson } from "./edm.js";

const kTableBase = "/-/explorer/table/";
const kTableHeaders = {
  "x-ms-version": "2019-02-02",
  DataServiceVersion: "3.0;NetFx",
  MaxDataServiceVersion: "3.0;NetFx",
  Accept: "application/json;odata=fullmetadata",
};

// The Azure error of a failed answer: {status, code, message}.
function errorOf(status, headers, text) {
  let code = headers.get("x-ms-error-code") ?? "";
  let message = text;
  try {
    const body = JSON.parse(text);
    const error = body["odata.error"];
    if (error) {
      code = error.code ?? code;
      message = error.message?.value ?? message;
    } else if (body.error) {
      message = body.error;
    }
  } catch {
    const xml = /<Message>([\s\S]*?)<\/Message>/.exec(text);
    if (xml) message = xml[1];
  }
  return { status, code, message: String(message).split("\nRequestId:")[0] };
}

// One Table API call. `path` starts with "/" after the account (e.g. "/Tables", "/t()?$top=5").
// Resolves to {status, ok, headers, json, ms, serverMs, error}; never rejects for an HTTP error.
export async function tableApi(account, path, { method = "GET", body, headers = {} } = {}) {
  const all = { ...kTableHeaders, ...headers };
  if (body !== undefined) all["Content-Type"] = "application/json";
  const started = performance.now();
  const response = await fetch(kTableBase + account + path, { method, headers: all, body });
  const text = await response.text();
  const result = {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    ms: performance.now() - started,
    serverMs: Number(response.headers.get("x-malachite-elapsed-us") ?? NaN) / 1000,
    json: null,
    error: null,
  };
  if (response.ok) {
    result.json = text ? parseTypedJson(text) : null;
  } else {
    result.error = errorOf(response.status, response.headers, text);
  }
  return result;
}

// GET/PUT/POST/DELETE of an emulator endpoint; resolves to the parsed JSON, rejects with an
// Error carrying the server's message.
export async function admin(path, { method = "GET", body } = {}) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  const text = await response.text();
  if (!response.ok) {
    const error = errorOf(response.status, response.headers, text);
    throw new Error(`${response.status} ${error.message}`);
  }
  return text ? JSON.parse(text) : null;
}

// "'" doubled, then URL-encoded: a key inside /t(PartitionKey='…',RowKey='…').
export function keyLiteral(key) {
  return encodeURIComponent(key.replaceAll("'", "''"));
}

export function entityPath(table, pk, rk) {
  return `/${table}(PartitionKey='${keyLiteral(pk)}',RowKey='${keyLiteral(rk)}')`;
}

// The x-malachite-query-plan header, parsed: {kind, service, ranges, residual, scanned, returned}.
export function parsePlan(header) {
  if (!header) return null;
  const field = (name) => new RegExp(`(?:^| )${name}=(\\S+)`).exec(header)?.[1] ?? "";
  const ranges = /ranges=\[(.*?)\] residual=/.exec(header)?.[1] ?? "";
  const residual = / residual=(.*?) scanned=/.exec(header)?.[1] ?? "";
  return {
    kind: field("plan"),
    service: field("service"),
    ranges,
    residual,
    scanned: Number(field("scanned")),
    returned: Number(field("returned")),
    text: header,
  };
}
