// Testcontainers (node --test): Malachite's image for the file, one account per test.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient } from "@azure/data-tables";
import { MalachiteContainer } from "@malachite/testcontainers";

let malachite;
before(async () => (malachite = await new MalachiteContainer().withInMemory().start()));
after(() => malachite.stop());

test("an order is stored and read back", async (t) => {
  const account = await malachite.createAccount(); // its connection string uses the mapped port
  t.after(() => account.delete());
  const orders = TableClient.fromConnectionString(account.connectionString, "orders", {
    allowInsecureConnection: true,
  });
  await orders.createTable();
  await orders.upsertEntity({ partitionKey: "eu", rowKey: "1", total: 9.5 });
  assert.equal((await orders.getEntity("eu", "1")).total, 9.5);
});
