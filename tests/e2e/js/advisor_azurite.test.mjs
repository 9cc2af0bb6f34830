// The design advisor's "differs from Azurite" findings through @azure/data-tables: a team moving
// from Azurite queries a Double property with an Int32 literal (`Amount gt 50`), gets nothing back
// (Azurite would have returned the rows), and GET /-/advisor names the mismatch and the fix.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, uniqueTableName } from "./harness.mjs";

let server;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

async function listAll(client, filter) {
  const out = [];
  for await (const entity of client.listEntities({ queryOptions: { filter } })) out.push(entity);
  return out;
}

test("advisor: Amount gt 50 on a Double Amount matches nothing and /-/advisor gives Amount gt 50.0", async () => {
  const table = uniqueTableName("orders");
  const client = server.tableClient(table);
  await client.createTable();
  for (const [rowKey, amount] of [["1", 40], ["2", 60], ["3", 80.5]]) {
    await client.createEntity({ partitionKey: "p", rowKey, Amount: { value: String(amount), type: "Double" } });
  }

  // Azure: spec §6.2 — an Int32 literal never compares with a Double property.
  assert.deepEqual(await listAll(client, "Amount gt 50"), []);
  assert.deepEqual((await listAll(client, "Amount gt 50.0")).map((e) => e.rowKey), ["2", "3"]);

  const response = await fetch(`http://127.0.0.1:${server.port}/-/advisor?category=differs-from-azurite`);
  assert.equal(response.status, 200);
  const { findings } = await response.json();
  const mismatch = findings.find((f) => f.id === "filter-type-mismatch" && f.table === table);
  assert.ok(mismatch, `no filter-type-mismatch finding for ${table}: ${JSON.stringify(findings)}`);
  assert.equal(mismatch.category, "differs-from-azurite");
  assert.equal(mismatch.severity, "warning");
  assert.equal(mismatch.facts.property, "Amount");
  assert.equal(mismatch.facts.stored_type, "Edm.Double");
  assert.equal(mismatch.facts.literal_type, "Edm.Int32");
  assert.equal(mismatch.facts.filter, "Amount gt 50");
  assert.equal(mismatch.facts.corrected_filter, "Amount gt 50.0");
  assert.match(mismatch.recommendation, /\$filter=Amount gt 50\.0/);
  // The well-typed query is not counted as a mismatch.
  assert.equal(mismatch.facts.queries, 1);
});
