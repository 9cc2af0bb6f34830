// node --test: one Malachite for the file, one account per test.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient } from "@azure/data-tables";
import { startMalachite } from "@malachite/server";

let malachite;
before(async () => (malachite = await startMalachite()));
after(() => malachite.stop());

// A table in this test's own account: tests never see each other's data.
async function ordersTable(t) {
  const account = await malachite.createAccount();
  t.after(() => account.delete());
  const orders = TableClient.fromConnectionString(account.connectionString, "orders", {
    allowInsecureConnection: true,
  });
  await orders.createTable();
  return orders;
}

test("an order is stored and read back", async (t) => {
  const orders = await ordersTable(t);
  await orders.upsertEntity({ partitionKey: "eu", rowKey: "1", total: 9.5 });
  assert.equal((await orders.getEntity("eu", "1")).total, 9.5);
});

test("another test starts with an empty orders table", async (t) => {
  const orders = await ordersTable(t);
  const rows = [];
  for await (const row of orders.listEntities()) rows.push(row);
  assert.deepEqual(rows, []);
});
