// vitest: one Malachite for the file, an `orders` fixture in an account of its own per test, so
// tests can run concurrently.
import { afterAll, beforeAll, expect, test as base } from "vitest";
import { TableClient } from "@azure/data-tables";
import { startMalachite } from "@malachite/server";

let malachite;
beforeAll(async () => {
  malachite = await startMalachite();
});
afterAll(() => malachite.stop());

const test = base.extend({
  orders: async ({}, use) => {
    const account = await malachite.createAccount();
    const orders = TableClient.fromConnectionString(account.connectionString, "orders", {
      allowInsecureConnection: true,
    });
    await orders.createTable();
    await use(orders);
    await account.delete();
  },
});

test.concurrent("an order is stored and read back", async ({ orders }) => {
  await orders.upsertEntity({ partitionKey: "eu", rowKey: "1", total: 9.5 });
  expect((await orders.getEntity("eu", "1")).total).toBe(9.5);
});

test.concurrent("another test starts with an empty orders table", async ({ orders }) => {
  const rows = [];
  for await (const row of orders.listEntities()) rows.push(row);
  expect(rows).toEqual([]);
});
