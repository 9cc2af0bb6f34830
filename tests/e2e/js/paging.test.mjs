// Listing entities through @azure/data-tables: paging with continuation, order, $select (spec §4.11, §6.4–6.5).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { startServer, forEachLimit, uniqueTableName } from "./harness.mjs";

const kPartitions = 5;
const kRowsPerPartition = 500; // 2,500 entities in all
let server;
let client;
let expectedKeys; // "pk/rk" in (PartitionKey, RowKey) order

before(async () => {
  server = await startServer();
  client = server.tableClient(uniqueTableName("paging"));
  await client.createTable();
  const entities = [];
  for (let p = 0; p < kPartitions; p++) {
    for (let r = 0; r < kRowsPerPartition; r++) {
      entities.push({
        partitionKey: `p${p}`,
        rowKey: `r${String(r).padStart(4, "0")}`,
        n: p * kRowsPerPartition + r,
        even: r % 2 === 0,
        text: `row ${r} of partition ${p}`,
      });
    }
  }
  // Insert in a shuffled order so the listing order is the server's doing.
  const shuffled = [...entities].sort((a, b) => ((a.n * 7919) % 2503) - ((b.n * 7919) % 2503));
  await forEachLimit(shuffled, 16, (e) => client.createEntity(e));
  expectedKeys = entities.map((e) => `${e.partitionKey}/${e.rowKey}`);
});
after(async () => {
  await server?.stop();
});

const keyOf = (e) => `${e.partitionKey}/${e.rowKey}`;

test("paging: listEntities returns all 2,500 entities once each, in PartitionKey/RowKey order", async () => {
  const keys = [];
  for await (const entity of client.listEntities()) keys.push(keyOf(entity));
  assert.equal(keys.length, expectedKeys.length);
  assert.deepEqual(keys, expectedKeys);
});

test("paging: byPage with maxPageSize follows continuation tokens over every entity exactly once", async () => {
  for (const maxPageSize of [1000, 333, 7]) {
    const keys = [];
    let pages = 0;
    for await (const page of client.listEntities().byPage({ maxPageSize })) {
      pages += 1;
      assert.ok(page.length <= maxPageSize, `page of ${page.length} with maxPageSize ${maxPageSize}`);
      for (const entity of page) keys.push(keyOf(entity));
    }
    assert.deepEqual(keys, expectedKeys, `maxPageSize ${maxPageSize}`);
    assert.ok(pages >= Math.ceil(expectedKeys.length / maxPageSize), `${pages} pages at ${maxPageSize}`);
  }
});

test("paging: without $top a page holds at most 1,000 entities", async () => {
  const sizes = [];
  for await (const page of client.listEntities().byPage()) sizes.push(page.length);
  assert.ok(sizes.every((n) => n <= 1000), `page sizes ${sizes}`);
  assert.equal(sizes.reduce((a, b) => a + b, 0), expectedKeys.length);
  assert.ok(sizes.length >= 3, `page sizes ${sizes}`);
});

test("paging: a continuation token resumes right after its page, in a new iterator", async () => {
  const first = (await client.listEntities().byPage({ maxPageSize: 600 }).next()).value;
  assert.ok(first.continuationToken, "no continuation after the first page");
  const consumed = first.length;
  const resumed = client.listEntities().byPage({ maxPageSize: 600, continuationToken: first.continuationToken });
  const keys = [];
  for await (const page of resumed) for (const entity of page) keys.push(keyOf(entity));
  assert.deepEqual(keys, expectedKeys.slice(consumed));
});

test("paging: a filtered listing pages through one partition", async () => {
  const keys = [];
  const pages = client.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"p3"}` } }).byPage({ maxPageSize: 120 });
  for await (const page of pages) for (const entity of page) keys.push(keyOf(entity));
  assert.deepEqual(keys, expectedKeys.filter((k) => k.startsWith("p3/")));
});

test("paging: $select returns only the selected properties (null for a missing one)", async () => {
  const page = (
    await client
      .listEntities({ queryOptions: { select: ["n", "Missing"], filter: odata`PartitionKey eq ${"p1"}` } })
      .byPage({ maxPageSize: 10 })
      .next()
  ).value;
  assert.equal(page.length, 10);
  for (const [i, entity] of page.entries()) {
    const { etag, ...rest } = entity;
    assert.deepEqual(rest, { n: kRowsPerPartition + i, Missing: null });
  }

  const withKeys = await client.getEntity("p0", "r0007", { queryOptions: { select: ["RowKey", "text"] } });
  const { etag, "odata.metadata": metadata, ...rest } = withKeys;
  assert.deepEqual(rest, { rowKey: "r0007", text: "row 7 of partition 0" });
});
