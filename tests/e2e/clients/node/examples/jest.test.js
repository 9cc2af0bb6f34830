// jest: one Malachite for the file, a fresh account before each test.
const { TableClient } = require("@azure/data-tables");
const { startMalachite } = require("@malachite/server");

let malachite;
let account;
let orders;
beforeAll(async () => {
  malachite = await startMalachite();
});
afterAll(() => malachite.stop());

beforeEach(async () => {
  account = await malachite.createAccount();
  orders = TableClient.fromConnectionString(account.connectionString, "orders", {
    allowInsecureConnection: true,
  });
  await orders.createTable();
});
afterEach(() => account.delete());

test("an order is stored and read back", async () => {
  await orders.upsertEntity({ partitionKey: "eu", rowKey: "1", total: 9.5 });
  expect((await orders.getEntity("eu", "1")).total).toBe(9.5);
});

test("another test starts with an empty orders table", async () => {
  const rows = [];
  for await (const row of orders.listEntities()) rows.push(row);
  expect(rows).toEqual([]);
});
