// Entity operations through @azure/data-tables (spec §3, §4.5–4.12).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, expectError, capture, uniqueTableName } from "./harness.mjs";

let server;
let client;
const kEtagPattern = /^W\/"datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(\.\d{1,7})?Z'"$/;

before(async () => {
  server = await startServer();
  client = server.tableClient(uniqueTableName("entities"));
  await client.createTable();
});
after(async () => {
  await server?.stop();
});

// 100 ns ticks of an ISO-8601 UTC timestamp with 0–7 fractional digits (string order is not time order).
function ticks(iso) {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,7}))?Z$/.exec(iso);
  assert.ok(match, `not an ISO-8601 UTC timestamp: ${iso}`);
  return BigInt(Date.parse(`${match[1]}Z`)) * 10000n + BigInt((match[2] ?? "").padEnd(7, "0"));
}

// The custom properties of an SDK entity (without keys, etag, timestamp, and the `odata.metadata`
// the SDK passes through from a point read).
function custom(entity) {
  const { partitionKey, rowKey, etag, timestamp, ...rest } = entity;
  for (const key of Object.keys(rest)) if (key.startsWith("odata.")) delete rest[key];
  return rest;
}

test("entities: createEntity then getEntity returns the properties, an ETag and a Timestamp", async () => {
  const created = capture();
  const result = await client.createEntity(
    { partitionKey: "p1", rowKey: "r1", name: "bolt", qty: 40, price: 1.25, ok: true },
    created.options,
  );
  assert.equal(created.status, 204, "the JS SDK sends Prefer: return-no-content");
  assert.match(result.etag, kEtagPattern);
  assert.equal(created.header("preference-applied"), "return-no-content");

  const got = capture();
  const entity = await client.getEntity("p1", "r1", got.options);
  assert.equal(entity.partitionKey, "p1");
  assert.equal(entity.rowKey, "r1");
  assert.deepEqual(custom(entity), { name: "bolt", qty: 40, price: 1.25, ok: true });
  assert.equal(entity.etag, result.etag);
  assert.equal(got.header("etag"), result.etag);
  assert.ok(ticks(entity.timestamp) > 0n);
  const body = JSON.parse(got.body);
  assert.match(body["odata.metadata"], /\/devstoreaccount1\/\$metadata#entities\d+x\d+\/@Element$/);
  assert.equal(body["odata.etag"], result.etag);
});

test("entities: creating an existing entity answers 409 EntityAlreadyExists", async () => {
  await client.createEntity({ partitionKey: "dup", rowKey: "r", v: 1 });
  await expectError(client.createEntity({ partitionKey: "dup", rowKey: "r", v: 2 }), 409, "EntityAlreadyExists");
  assert.equal((await client.getEntity("dup", "r")).v, 1);
});

test("entities: getting, updating and deleting a missing entity answers 404 ResourceNotFound", async () => {
  await expectError(client.getEntity("none", "none"), 404, "ResourceNotFound");
  await expectError(client.updateEntity({ partitionKey: "none", rowKey: "none", v: 1 }, "Replace"), 404, "ResourceNotFound");
  await expectError(client.updateEntity({ partitionKey: "none", rowKey: "none", v: 1 }, "Merge"), 404, "ResourceNotFound");
  await expectError(client.deleteEntity("none", "none"), 404, "ResourceNotFound");
});

test("entities: updateEntity Replace with the current ETag drops the properties not sent", async () => {
  const { etag } = await client.createEntity({ partitionKey: "rep", rowKey: "r", a: "A", b: "B" });
  const updated = await client.updateEntity({ partitionKey: "rep", rowKey: "r", a: "A2" }, "Replace", { etag });
  assert.match(updated.etag, kEtagPattern);
  assert.notEqual(updated.etag, etag);
  const entity = await client.getEntity("rep", "r");
  assert.deepEqual(custom(entity), { a: "A2" });
  assert.equal(entity.etag, updated.etag);
});

test("entities: updateEntity Merge with the current ETag keeps the properties not sent", async () => {
  const { etag } = await client.createEntity({ partitionKey: "mrg", rowKey: "r", a: "A", b: "B" });
  const updated = await client.updateEntity({ partitionKey: "mrg", rowKey: "r", b: "B2", c: 3 }, "Merge", { etag });
  assert.notEqual(updated.etag, etag);
  assert.deepEqual(custom(await client.getEntity("mrg", "r")), { a: "A", b: "B2", c: 3 });
});

test("entities: updates with If-Match * succeed whatever the ETag", async () => {
  await client.createEntity({ partitionKey: "star", rowKey: "r", a: 1 });
  await client.updateEntity({ partitionKey: "star", rowKey: "r", a: 2 }, "Replace", { etag: "*" });
  await client.updateEntity({ partitionKey: "star", rowKey: "r", b: 3 }, "Merge"); // the SDK default is "*"
  assert.deepEqual(custom(await client.getEntity("star", "r")), { a: 2, b: 3 });
});

test("entities: a stale ETag answers 412 UpdateConditionNotSatisfied on replace, merge and delete", async () => {
  const { etag: stale } = await client.createEntity({ partitionKey: "stale", rowKey: "r", a: 1 });
  await client.updateEntity({ partitionKey: "stale", rowKey: "r", a: 2 }, "Merge", { etag: stale });
  const entity = { partitionKey: "stale", rowKey: "r", a: 3 };
  await expectError(client.updateEntity(entity, "Replace", { etag: stale }), 412, "UpdateConditionNotSatisfied");
  await expectError(client.updateEntity(entity, "Merge", { etag: stale }), 412, "UpdateConditionNotSatisfied");
  await expectError(client.deleteEntity("stale", "r", { etag: stale }), 412, "UpdateConditionNotSatisfied");
  assert.equal((await client.getEntity("stale", "r")).a, 2);
});

test("entities: upsertEntity Replace creates, then replaces the whole entity", async () => {
  await client.upsertEntity({ partitionKey: "ups", rowKey: "rep", a: "A", b: "B" }, "Replace");
  assert.deepEqual(custom(await client.getEntity("ups", "rep")), { a: "A", b: "B" });
  await client.upsertEntity({ partitionKey: "ups", rowKey: "rep", c: "C" }, "Replace");
  assert.deepEqual(custom(await client.getEntity("ups", "rep")), { c: "C" });
});

test("entities: upsertEntity Merge creates, then merges into the entity", async () => {
  await client.upsertEntity({ partitionKey: "ups", rowKey: "mrg", a: "A", b: "B" }, "Merge");
  assert.deepEqual(custom(await client.getEntity("ups", "mrg")), { a: "A", b: "B" });
  await client.upsertEntity({ partitionKey: "ups", rowKey: "mrg", b: "B2", c: "C" }, "Merge");
  assert.deepEqual(custom(await client.getEntity("ups", "mrg")), { a: "A", b: "B2", c: "C" });
});

test("entities: deleteEntity with the current ETag or * removes the entity", async () => {
  const { etag } = await client.createEntity({ partitionKey: "del", rowKey: "a" });
  await client.createEntity({ partitionKey: "del", rowKey: "b" });
  const deleted = capture();
  await client.deleteEntity("del", "a", { etag, ...deleted.options });
  assert.equal(deleted.status, 204);
  await client.deleteEntity("del", "b");
  await expectError(client.getEntity("del", "a"), 404, "ResourceNotFound");
  await expectError(client.getEntity("del", "b"), 404, "ResourceNotFound");
  // Deleted keys can be inserted again.
  await client.createEntity({ partitionKey: "del", rowKey: "a", again: true });
  assert.equal((await client.getEntity("del", "a")).again, true);
});

test("entities: every modification produces a new ETag and a later Timestamp", async () => {
  const first = await client.createEntity({ partitionKey: "mono", rowKey: "r", n: 0 });
  let previous = await client.getEntity("mono", "r");
  assert.equal(previous.etag, first.etag);
  for (let n = 1; n <= 5; n++) {
    await client.updateEntity({ partitionKey: "mono", rowKey: "r", n }, n % 2 ? "Merge" : "Replace");
    const current = await client.getEntity("mono", "r");
    assert.notEqual(current.etag, previous.etag);
    assert.ok(ticks(current.timestamp) > ticks(previous.timestamp),
      `timestamp did not advance: ${previous.timestamp} -> ${current.timestamp}`);
    previous = current;
  }
});

test("entities: keys with quotes, spaces, percent signs, non-ASCII and empty keys round-trip", async () => {
  const keys = [
    ["it's", "o''clock"],
    ["with space", "a+b=c&d"],
    ["100%", "%27quoted%27"],
    ["ключ", "日本語-😀"],
    ["", ""],
    ["", "only-row"],
  ];
  for (const [pk, rk] of keys) {
    const label = JSON.stringify([pk, rk]);
    await client.createEntity({ partitionKey: pk, rowKey: rk, label }).catch((e) => {
      throw new Error(`create ${label}: ${e.message}`);
    });
    const entity = await client.getEntity(pk, rk);
    assert.equal(entity.partitionKey, pk);
    assert.equal(entity.rowKey, rk);
    assert.equal(entity.label, label);
    await client.updateEntity({ partitionKey: pk, rowKey: rk, more: 1 }, "Merge");
    await client.upsertEntity({ partitionKey: pk, rowKey: rk, label, more: 2 }, "Replace");
    assert.equal((await client.getEntity(pk, rk)).more, 2);
    await client.deleteEntity(pk, rk);
    await expectError(client.getEntity(pk, rk), 404, "ResourceNotFound");
  }
});

test("entities: a null property is not stored, and a null in a merge leaves the old value", async () => {
  await client.createEntity({ partitionKey: "null", rowKey: "r", a: "A", gone: null });
  assert.deepEqual(custom(await client.getEntity("null", "r")), { a: "A" });
  await client.updateEntity({ partitionKey: "null", rowKey: "r", a: null, b: "B" }, "Merge");
  assert.deepEqual(custom(await client.getEntity("null", "r")), { a: "A", b: "B" });
});

test("entities: property names are case-sensitive", async () => {
  await client.createEntity({ partitionKey: "case", rowKey: "r", Name: "upper", name: "lower" });
  assert.deepEqual(custom(await client.getEntity("case", "r")), { Name: "upper", name: "lower" });
});

test("entities: a Timestamp sent by the client is ignored", async () => {
  await client.createEntity({ partitionKey: "ts", rowKey: "r", Timestamp: new Date("2001-01-01T00:00:00Z") });
  const entity = await client.getEntity("ts", "r");
  assert.ok(new Date(entity.timestamp).getUTCFullYear() >= 2024, `server kept client Timestamp ${entity.timestamp}`);
});

test("entities: an entity without PartitionKey or RowKey answers 400 PropertiesNeedValue", async () => {
  await expectError(client.createEntity({ rowKey: "r", v: 1 }), 400, "PropertiesNeedValue");
  await expectError(client.createEntity({ partitionKey: "p", v: 1 }), 400, "PropertiesNeedValue");
});
