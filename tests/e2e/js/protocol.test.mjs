// Wire-level checks no SDK call exposes: raw signed HTTP against the server (spec §1–§5, §8, §13).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { startServer, uniqueTableName, kDevAccount, kDevKey } from "./harness.mjs";
import { sendSigned } from "./signed_http.mjs";

let server;
let table;

before(async () => {
  server = await startServer();
  table = uniqueTableName("wire");
  const created = await send("POST", "/Tables", { body: { TableName: table } });
  assert.equal(created.status, 201, created.text);
});
after(async () => {
  await server?.stop();
});

// A SharedKeyLite-signed request to /<account><path> (signed_http.mjs).
const send = (method, path, options) => sendSigned(server, method, path, options);

function assertError(response, status, code) {
  assert.equal(response.status, status, `expected ${status} ${code}: ${response.text}`);
  assert.equal(response.json?.["odata.error"]?.code, code, response.text);
}

const entityPath = (pk, rk) => `/${table}(PartitionKey='${pk}',RowKey='${rk}')`;

test("protocol: every response carries x-ms-request-id, x-ms-version and Date, and echoes x-ms-client-request-id", async () => {
  const ok = await send("GET", "/Tables", { headers: { "x-ms-client-request-id": "my-id-1" } });
  const failed = await send("GET", entityPath("no", "no"), { headers: { "x-ms-client-request-id": "my-id-2" } });
  for (const [response, id] of [[ok, "my-id-1"], [failed, "my-id-2"]]) {
    assert.match(response.headers.get("x-ms-request-id") ?? "", /^[0-9a-f-]{36}$/);
    assert.ok(response.headers.get("x-ms-version"));
    assert.ok(!Number.isNaN(Date.parse(response.headers.get("date"))));
    assert.equal(response.headers.get("x-ms-client-request-id"), id);
  }
});

test("protocol: error bodies are odata.error JSON with RequestId and Time in the message", async () => {
  const response = await send("GET", entityPath("no", "no"));
  assertError(response, 404, "ResourceNotFound");
  const { message } = response.json["odata.error"];
  assert.equal(message.lang, "en-US");
  const requestId = response.headers.get("x-ms-request-id");
  assert.match(message.value, new RegExp(`^The specified resource does not exist\\.\\nRequestId:${requestId}\\nTime:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{7}Z$`));
});

test("protocol: Insert with Prefer return-content answers 201 with the entity, ETag and Location", async () => {
  const response = await send("POST", `/${table}`, {
    headers: { Prefer: "return-content" },
    body: { PartitionKey: "ins", RowKey: "a:1", Qty: 3 },
  });
  assert.equal(response.status, 201, response.text);
  assert.equal(response.headers.get("preference-applied"), "return-content");
  assert.match(response.headers.get("location") ?? "", new RegExp(`/${kDevAccount}/${table}\\(PartitionKey='ins',RowKey='a(%3A|:)1'\\)$`));
  assert.equal(response.json.PartitionKey, "ins");
  assert.equal(response.json.Qty, 3);
  assert.equal(response.json["odata.etag"], response.headers.get("etag"));
  assert.match(response.json["odata.metadata"], new RegExp(`/\\$metadata#${table}/@Element$`));
  assert.ok(response.json.Timestamp);
});

test("protocol: Create Table with Prefer return-no-content answers 204", async () => {
  const name = uniqueTableName("nocontent");
  const response = await send("POST", "/Tables", { headers: { Prefer: "return-no-content" }, body: { TableName: name } });
  assert.equal(response.status, 204, response.text);
  assert.equal(response.text, "");
  const got = await send("GET", `/Tables('${name}')`);
  assert.equal(got.status, 200, got.text);
  assert.equal(got.json.TableName, name);
  assert.equal((await send("DELETE", `/Tables('${name}')`)).status, 204);
  assertError(await send("GET", `/Tables('${name}')`), 404, "TableNotFound");
});

test("protocol: fullmetadata and nometadata shape entity responses", async () => {
  await send("POST", `/${table}`, {
    body: { PartitionKey: "meta", RowKey: "r'1", Big: "12", "Big@odata.type": "Edm.Int64", N: 1 },
  });
  const full = await send("GET", `/${table}(PartitionKey='meta',RowKey='r''1')`, {
    headers: { Accept: "application/json;odata=fullmetadata" },
  });
  assert.equal(full.status, 200, full.text);
  assert.equal(full.json["odata.type"], `${kDevAccount}.${table}`);
  // The quote in the key is doubled, and may also be percent-escaped (spec §5.1, §15 #8).
  const key = `\\(PartitionKey='meta',RowKey='r(''|%27%27)1'\\)$`;
  assert.match(full.json["odata.id"], new RegExp(`/${kDevAccount}/${table}${key}`));
  assert.match(full.json["odata.editLink"], new RegExp(`^${table}${key}`));
  assert.equal(full.json["Timestamp@odata.type"], "Edm.DateTime");
  assert.equal(full.json["Big@odata.type"], "Edm.Int64");

  const none = await send("GET", `/${table}(PartitionKey='meta',RowKey='r%27%271')`, {
    headers: { Accept: "application/json;odata=nometadata" },
  });
  assert.equal(none.status, 200, none.text);
  assert.deepEqual(Object.keys(none.json).filter((k) => k.includes("odata")), []);
  assert.equal(none.json.Big, "12");
  assert.equal(none.json.RowKey, "r'1");

  const feed = await send("GET", `/${table}()?$filter=PartitionKey%20eq%20'meta'`);
  assert.match(feed.json["odata.metadata"], new RegExp(`/\\$metadata#${table}$`));
  assert.equal(feed.json.value.length, 1);
});

test("protocol: unannotated numbers are typed by the service: int32 range -> Int32, beyond -> Double", async () => {
  await send("POST", `/${table}`, { body: { PartitionKey: "num", RowKey: "r", Small: 7, Large: 5454161346626, Frac: 2.5 } });
  const got = await send("GET", entityPath("num", "r"));
  assert.match(got.text, /"Small":7[,}]/);
  assert.match(got.text, /"Large":5454161346626(\.0)?[,}]/);
  assert.ok(!("Large@odata.type" in got.json) || got.json["Large@odata.type"] === "Edm.Double", got.text);
  assert.ok(/"Large":5454161346626\.0/.test(got.text) || got.json["Large@odata.type"] === "Edm.Double",
    `Large is not rendered as a Double: ${got.text}`);
});

test("protocol: DELETE without If-Match answers 400 MissingRequiredHeader; a malformed ETag 400 InvalidInput", async () => {
  await send("POST", `/${table}`, { body: { PartitionKey: "del", RowKey: "r" } });
  assertError(await send("DELETE", entityPath("del", "r")), 400, "MissingRequiredHeader");
  assertError(await send("DELETE", entityPath("del", "r"), { headers: { "If-Match": "not-an-etag" } }), 400, "InvalidInput");
  assert.equal((await send("DELETE", entityPath("del", "r"), { headers: { "If-Match": "*" } })).status, 204);
});

test("protocol: X-HTTP-Method tunnelling and its errors", async () => {
  await send("POST", `/${table}`, { body: { PartitionKey: "x", RowKey: "r", A: 1 } });
  const merged = await send("POST", entityPath("x", "r"), { headers: { "X-HTTP-Method": "MERGE", "If-Match": "*" }, body: { B: 2 } });
  assert.equal(merged.status, 204, merged.text);
  const got = await send("GET", entityPath("x", "r"));
  assert.deepEqual([got.json.A, got.json.B], [1, 2]);
  assertError(await send("PUT", entityPath("x", "r"), { headers: { "X-HTTP-Method": "MERGE" }, body: {} }), 400, "XMethodNotUsingPost");
  assertError(await send("POST", entityPath("x", "r"), { headers: { "X-HTTP-Method": "GET" }, body: {} }), 400, "XMethodIncorrectValue");
  const deleted = await send("POST", entityPath("x", "r"), { headers: { "X-HTTP-Method": "DELETE", "If-Match": "*" } });
  assert.equal(deleted.status, 204, deleted.text);
  assertError(await send("GET", entityPath("x", "r")), 404, "ResourceNotFound");
});

test("protocol: the MERGE verb (legacy SDKs) merges", async () => {
  await send("POST", `/${table}`, { body: { PartitionKey: "m", RowKey: "r", A: 1 } });
  const merged = await send("MERGE", entityPath("m", "r"), { headers: { "If-Match": "*" }, body: { B: 2 } });
  assert.equal(merged.status, 204, merged.text);
  const got = await send("GET", entityPath("m", "r"));
  assert.deepEqual([got.json.A, got.json.B], [1, 2]);
});

test("protocol: bad payloads answer the service's codes", async () => {
  assertError(await send("POST", `/${table}`, { body: '{"PartitionKey":"p","RowKey":"dup","A":1,"A":2}' }), 400, "DuplicatePropertiesSpecified");
  assertError(await send("POST", `/${table}`, { body: '{"PartitionKey":"p","RowKey":' }), 400, "InvalidInput");
  assertError(await send("POST", `/${table}`, { body: { PartitionKey: "p", RowKey: "dec", V: "1", "V@odata.type": "Edm.Decimal" } }), 400, "InvalidInput");
  assertError(await send("POST", `/${table}`, { body: { PartitionKey: "p", RowKey: "obj", V: { a: 1 } } }), 400, "InvalidInput");
  assertError(await send("POST", `/${table}`, { body: { PartitionKey: 5, RowKey: "num" } }), 400, "InvalidInput");
  assertError(await send("POST", `/${table}`, { body: { RowKey: "r" } }), 400, "PropertiesNeedValue");
});

test("protocol: paging parameters are validated", async () => {
  assertError(await send("GET", `/${table}()?$top=1001`), 400, "InvalidInput");
  const empty = await send("GET", `/${table}()?$top=0`);  // spec §6.5: an empty page, no continuation
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(empty.json.value, []);
  assert.equal(empty.headers.get("x-ms-continuation-nextpartitionkey"), null);
  assertError(await send("GET", `/${table}()?$top=-1`), 400, "InvalidInput");
  assertError(await send("GET", `/${table}()?$top=abc`), 400, "InvalidInput");
  const page = await send("GET", `/${table}()?$top=1`);
  assert.equal(page.status, 200, page.text);
  assert.equal(page.json.value.length, 1);
  assert.ok(page.headers.get("x-ms-continuation-nextpartitionkey"), "no continuation after $top=1");
});

test("protocol: content negotiation refuses verbose JSON and Atom", async () => {
  const verbose = await send("GET", "/Tables", { headers: { Accept: "application/json;odata=verbose" } });
  assert.equal(verbose.status, 415, verbose.text);
  const atom = await send("GET", "/Tables", { headers: { Accept: "application/atom+xml" } });
  assert.equal(atom.status, 415, atom.text);
  const bare = await send("GET", "/Tables", { headers: { Accept: "application/json" } });
  assert.equal(bare.status, 200, bare.text);
  assert.ok(bare.json["odata.metadata"], "bare application/json means minimal metadata");
});

test("protocol: an unknown x-ms-version answers 400 InvalidHeaderValue", async () => {
  const response = await send("GET", "/Tables", { headers: { "x-ms-version": "not-a-version" } });
  assert.equal(response.status, 400, response.text);
  assert.equal(response.json?.["odata.error"]?.code ?? response.headers.get("x-ms-error-code"), "InvalidHeaderValue");
});

test("protocol: a signature over the wrong path answers 403 AuthenticationFailed", async () => {
  const date = new Date().toUTCString();
  const signature = createHmac("sha256", Buffer.from(kDevKey, "base64"))
    .update(`${date}\n/${kDevAccount}/${kDevAccount}/SomethingElse`, "utf8")
    .digest("base64");
  const response = await send("GET", "/Tables", {
    headers: { "x-ms-date": date, Authorization: `SharedKeyLite ${kDevAccount}:${signature}` },
  });
  assertError(response, 403, "AuthenticationFailed");
  const stale = await send("GET", "/Tables", { date: new Date(Date.now() - 3600e3).toUTCString() });
  assertError(stale, 403, "AuthenticationFailed");
});
