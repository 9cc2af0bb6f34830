// Writes from many connections at once, through @azure/data-tables (spec §3, §4.5, §4.6). The
// server commits the writes an I/O thread reads together in one transaction: each request must
// still be answered as if it had been alone (its own ETag, its own conflict), and /-/metrics shows
// how many commits the writes took.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, errorCode, uniqueTableName } from "./harness.mjs";

let server;
let client;

before(async () => {
  server = await startServer();
  client = server.tableClient(uniqueTableName("concurrency"));
  await client.createTable();
});
after(async () => {
  await server?.stop();
});

const range = (n) => Array.from({ length: n }, (_, i) => i);

async function storeCounters() {
  const text = await (await fetch(`http://127.0.0.1:${server.port}/-/metrics`)).text();
  const counter = (name) => {
    const match = new RegExp(`^malachite_store_${name}_total (\\d+)$`, "m").exec(text);
    assert.ok(match, `/-/metrics has malachite_store_${name}_total`);
    return Number(match[1]);
  };
  return { writes: counter("writes"), commits: counter("commits"), inline: counter("inline_commits") };
}

test("concurrency: 64 creates of distinct entities at once all succeed, each with its own ETag", async () => {
  const before = await storeCounters();
  const created = await Promise.all(
    range(64).map((i) => client.createEntity({ partitionKey: "many", rowKey: String(i).padStart(3, "0"), i })),
  );
  assert.equal(new Set(created.map((r) => r.etag)).size, 64, "every write gets its own ETag");
  const rows = [];
  for await (const entity of client.listEntities({ queryOptions: { filter: "PartitionKey eq 'many'" } })) {
    rows.push(entity.i);
  }
  assert.deepEqual(rows, range(64));
  const after = await storeCounters();
  assert.ok(after.writes - before.writes >= 64, "the store counts every write");
  assert.ok(after.commits - before.commits <= after.writes - before.writes, "never more commits than writes");
  assert.ok(after.commits - before.commits >= 1);
  assert.ok(after.inline <= after.commits);
});

test("concurrency: 32 creates of one entity at once: exactly one wins, the others get 409 EntityAlreadyExists", async () => {
  const settled = await Promise.allSettled(
    range(32).map((i) => client.createEntity({ partitionKey: "race", rowKey: "one", i })),
  );
  const won = settled.filter((s) => s.status === "fulfilled");
  assert.equal(won.length, 1);
  for (const lost of settled.filter((s) => s.status === "rejected")) {
    assert.equal(lost.reason.statusCode, 409);
    assert.equal(errorCode(lost.reason), "EntityAlreadyExists");
  }
  const stored = await client.getEntity("race", "one");
  assert.equal(stored.etag, won[0].value.etag, "the stored entity is the winner's");
});

test("concurrency: 16 updates conditioned on one ETag at once: exactly one wins, the others get 412", async () => {
  const { etag } = await client.createEntity({ partitionKey: "cas", rowKey: "one", v: -1 });
  const settled = await Promise.allSettled(
    range(16).map((v) => client.updateEntity({ partitionKey: "cas", rowKey: "one", v }, "Replace", { etag })),
  );
  const won = settled.map((s, v) => ({ ...s, v })).filter((s) => s.status === "fulfilled");
  assert.equal(won.length, 1);
  for (const lost of settled.filter((s) => s.status === "rejected")) {
    assert.equal(lost.reason.statusCode, 412);
    assert.equal(errorCode(lost.reason), "UpdateConditionNotSatisfied");
  }
  const stored = await client.getEntity("cas", "one");
  assert.equal(stored.v, won[0].v);
  assert.equal(stored.etag, won[0].value.etag);
});

test("concurrency: 16 transactions of 100 inserts at once each store exactly their own entities", async () => {
  // Transactions read by one I/O thread in the same turn commit together, after every one of them
  // was decoded: each must apply what its own body said.
  const results = await Promise.all(
    range(16).map((t) =>
      client.submitTransaction(
        range(100).map((i) => ["create", { partitionKey: `tx${t}`, rowKey: String(i).padStart(3, "0"), t, i, text: `t${t}-i${i}` }]),
      ),
    ),
  );
  for (const result of results) assert.equal(result.status, 202);
  for (const t of range(16)) {
    const rows = [];
    const filter = `PartitionKey eq 'tx${t}'`;
    for await (const entity of client.listEntities({ queryOptions: { filter } })) {
      assert.equal(entity.t, t);
      assert.equal(entity.text, `t${t}-i${entity.i}`);
      assert.equal(entity.rowKey, String(entity.i).padStart(3, "0"));
      rows.push(entity.i);
    }
    assert.deepEqual(rows, range(100), `partition tx${t}`);
  }
});
