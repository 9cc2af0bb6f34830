// Testcontainers (node --test): Malachite's image for the file, one account per test.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TableClient } from "@azure/data-tables";
import { MalachiteContainer } from "@malachite/testcontainers";

// The image to run, with its tag: a release's ghcr.io/<owner>/malachite:<version>, named here by
// MALACHITE_IMAGE (as CI pins images).
const image = process.env.MALACHITE_IMAGE;

let malachite;
before(async () => (malachite = await new MalachiteContainer(image).withInMemory().start()));
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
