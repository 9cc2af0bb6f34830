// Raw SharedKeyLite-signed HTTP for wire-level checks no SDK call can make (a trailing slash, a
// percent-encoded table name, a malformed escape, a hand-written XML body). The target is sent
// exactly as given: fetch does not re-encode a '%' that starts no valid escape.
import { createHmac } from "node:crypto";
import { kDevAccount, kDevKey } from "./harness.mjs";

// Sends `method` to /<account><path> on `server`; `path` may carry a query string and is signed
// as sent (spec §10.3–10.4: the path, plus ?comp= when present). options: headers (extra or
// overriding; null deletes one), body (a string is sent as is, anything else as JSON; either way
// with Content-Type application/json unless the headers say otherwise), date (the
// signed x-ms-date, default now). Returns { status, headers, text, json } (json undefined when
// the body is not JSON).
export async function sendSigned(server, method, path, options = {}) {
  const { headers = {}, body, date = new Date().toUTCString() } = options;
  const target = `/${kDevAccount}${path}`;
  const [pathname, query = ""] = target.split("?");
  const comp = new URLSearchParams(query).get("comp");
  const toSign = `${date}\n/${kDevAccount}${pathname}${comp !== null ? `?comp=${comp}` : ""}`;
  const signature = createHmac("sha256", Buffer.from(kDevKey, "base64"))
    .update(toSign, "utf8")
    .digest("base64");
  const json = body !== undefined && typeof body !== "string";
  const all = {
    "x-ms-date": date,
    "x-ms-version": "2019-02-02",
    Accept: "application/json;odata=minimalmetadata",
    DataServiceVersion: "3.0",
    Authorization: `SharedKeyLite ${kDevAccount}:${signature}`,
    ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    ...headers,
  };
  for (const [k, v] of Object.entries(all)) if (v === null) delete all[k];
  const response = await fetch(`http://127.0.0.1:${server.port}${target}`, {
    method,
    headers: all,
    body: body === undefined ? undefined : json ? JSON.stringify(body) : body,
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, text, json: parsed };
}

// The Azure error code of a response: x-ms-error-code (present on JSON and XML error bodies).
export function wireErrorCode(response) {
  return response.headers.get("x-ms-error-code");
}
