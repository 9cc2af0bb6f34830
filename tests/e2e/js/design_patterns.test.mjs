// Scenarios from the Table design guide through @azure/data-tables, against a server started with
// --explain so each query also reports its plan: log tail (reversed-tick RowKeys, newest first with
// $top), compound keys with prefix ranges, partition-range scans over sequential PartitionKeys
// (spec §6).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { startServer, forEachLimit, uniqueTableName, capture } from "./harness.mjs";

const kPlanHeader = "x-malachite-query-plan";
let server;

before(async () => {
  server = await startServer({ args: ["--explain"] });
});
after(async () => {
  await server?.stop();
});

// The pages of a query (maxPageSize per page) and the plan header of every response.
async function pagesOf(client, filter, maxPageSize, select) {
  const got = capture();
  const pages = [];
  const queryOptions = select ? { filter, select } : { filter };
  for await (const page of client.listEntities({ queryOptions, ...got.options }).byPage({ maxPageSize })) {
    pages.push([...page]);
  }
  const plans = got.responses.map((r) => r.headers.get(kPlanHeader));
  return { pages, plans };
}

// .NET DateTime.MaxValue.Ticks: the log tail pattern's RowKey is (max - ticks), zero-padded to 19
// digits, so the newest entry sorts first.
const kMaxTicks = 3155378975999999999n;
const reversedTicks = (ticks) => (kMaxTicks - ticks).toString().padStart(19, "0");

test("design: log tail — reversed-tick RowKeys list newest first, and $top reads only what it returns", async () => {
  const client = server.tableClient(uniqueTableName("logtail"));
  await client.createTable();
  const start = 638400000000000000n; // 2024-01-01 in .NET ticks
  const entries = [];
  for (let i = 0; i < 60; i++) {
    const ticks = start + BigInt(i) * 10_000_000n; // one entry per second
    entries.push({ partitionKey: "device-7", rowKey: reversedTicks(ticks), seq: i });
  }
  await forEachLimit(entries, 8, (e) => client.createEntity(e));
  await client.createEntity({ partitionKey: "device-8", rowKey: reversedTicks(start), seq: -1 });

  const { pages, plans } = await pagesOf(client, odata`PartitionKey eq ${"device-7"}`, 10);
  assert.equal(pages.length, 6);
  assert.deepEqual(
    pages[0].map((e) => e.seq),
    [59, 58, 57, 56, 55, 54, 53, 52, 51, 50],
    "the first page holds the 10 newest entries, newest first",
  );
  assert.deepEqual(pages.flat().map((e) => e.seq), [...Array(60).keys()].reverse());
  // The tail query is a partition scan that stops after $top entities: reading the newest 10 of a
  // long log costs 10 entity reads, not the whole partition.
  assert.equal(plans[0], "plan=partition service=partition-scan ranges=['device-7'/*] residual=none scanned=10 returned=10");

  // "Everything newer than T" is a RowKey range: RowKey lt reversed(T).
  const since = start + 55n * 10_000_000n;
  const newer = await pagesOf(
    client,
    odata`PartitionKey eq ${"device-7"} and RowKey lt ${reversedTicks(since)}`,
    1000,
  );
  assert.deepEqual(newer.pages.flat().map((e) => e.seq), [59, 58, 57, 56]);
  assert.match(newer.plans[0], /^plan=row-range service=row-range .* scanned=4 returned=4$/);
});

test("design: compound RowKeys — a prefix range (ge 'A_' and lt 'A`') selects one customer exactly", async () => {
  const client = server.tableClient(uniqueTableName("compound"));
  await client.createTable();
  const customers = ["A", "AB", "B", "A-1"];
  const rows = [];
  for (const customer of customers) {
    for (let order = 0; order < 25; order++) {
      rows.push({ partitionKey: "orders", rowKey: `${customer}_${String(order).padStart(4, "0")}`, customer, order });
    }
  }
  await forEachLimit(rows, 16, (e) => client.createEntity(e));

  // '`' is the character after '_', so [A_, A`) is exactly the RowKeys starting with "A_".
  const filter = odata`PartitionKey eq ${"orders"} and RowKey ge ${"A_"} and RowKey lt ${"A`"}`;
  const { pages, plans } = await pagesOf(client, filter, 10);
  const got = pages.flat();
  assert.equal(got.length, 25);
  assert.ok(got.every((e) => e.customer === "A"), "no AB_ or A-1_ rows leak into the A_ prefix");
  assert.deepEqual(got.map((e) => e.order), [...Array(25).keys()]);
  assert.deepEqual(pages.map((p) => p.length), [10, 10, 5]);
  for (const plan of plans) assert.match(plan, /^plan=row-range service=row-range ranges=\[\['orders'\/'A_' \.\. 'orders'\/'A`'\)\]/);
  // Each page scans only what it returns: the range holds nothing else.
  assert.deepEqual(plans.map((p) => / scanned=(\d+) returned=(\d+)$/.exec(p).slice(1).join("/")), ["10/10", "10/10", "5/5"]);

  // An `or` over RowKeys: Malachite looks the two keys up; the service would scan the partition.
  const two = await pagesOf(
    client,
    odata`PartitionKey eq ${"orders"} and (RowKey eq ${"B_0003"} or RowKey eq ${"AB_0007"})`,
    1000,
  );
  assert.deepEqual(two.pages.flat().map((e) => e.rowKey), ["AB_0007", "B_0003"]);
  assert.equal(
    two.plans[0],
    "plan=points(2) service=partition-scan ranges=['orders'/'AB_0007', 'orders'/'B_0003'] residual=none scanned=2 returned=2",
  );
});

test("design: partition-range scans over sequential PartitionKeys page through every entity once", async () => {
  const client = server.tableClient(uniqueTableName("daily"));
  await client.createTable();
  const rows = [];
  for (let day = 1; day <= 20; day++) {
    const pk = `2024-01-${String(day).padStart(2, "0")}`;
    for (let i = 0; i < 5; i++) rows.push({ partitionKey: pk, rowKey: `event-${i}`, day, i });
  }
  await forEachLimit(rows, 16, (e) => client.createEntity(e));

  const filter = odata`PartitionKey ge ${"2024-01-10"} and PartitionKey lt ${"2024-01-15"}`;
  const { pages, plans } = await pagesOf(client, filter, 7);
  const got = pages.flat().map((e) => `${e.day}/${e.i}`);
  const expected = [];
  for (let day = 10; day < 15; day++) for (let i = 0; i < 5; i++) expected.push(`${day}/${i}`);
  assert.deepEqual(got, expected, "every entity of days 10..14 once, in key order");
  assert.equal(pages.length, 4); // 25 entities at 7 per page
  assert.match(plans[0], /^plan=partition-range service=partition-range ranges=\[\['2024-01-10'\/\* \.\. '2024-01-15'\/\*\)\]/);
  const scanned = plans.reduce((sum, p) => sum + Number(/ scanned=(\d+)/.exec(p)[1]), 0);
  assert.equal(scanned, 25, "the pages together scan only the 25 entities of the range");

  // A filter on a non-key property is a table scan, for Malachite and for the service.
  const byDay = await pagesOf(client, odata`day eq ${12}`, 1000);
  assert.equal(byDay.pages.flat().length, 5);
  assert.match(byDay.plans[0], /^plan=table-scan service=table-scan .* scanned=100 returned=5$/);
});

test("design: the plan header is opt-in — a server without --explain does not send it", async () => {
  const plain = await startServer();
  try {
    const client = plain.tableClient(uniqueTableName("noexplain"));
    await client.createTable();
    await client.createEntity({ partitionKey: "p", rowKey: "r" });
    const { pages, plans } = await pagesOf(client, odata`PartitionKey eq ${"p"}`, 10);
    assert.equal(pages.flat().length, 1);
    assert.deepEqual(plans, [undefined]);
  } finally {
    await plain.stop();
  }
});
