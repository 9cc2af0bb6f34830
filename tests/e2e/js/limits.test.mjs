// Size and naming limits through @azure/data-tables (spec §9.2–9.3, §8.2).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, expectError, uniqueTableName } from "./harness.mjs";

let server;
let client;

before(async () => {
  server = await startServer();
  client = server.tableClient(uniqueTableName("limits"));
  await client.createTable();
});
after(async () => {
  await server?.stop();
});

test("limits: keys up to 1,024 characters are accepted, longer ones answer 400 KeyValueTooLarge", async () => {
  const max = "k".repeat(1024);
  await client.createEntity({ partitionKey: max, rowKey: max });
  const got = await client.getEntity(max, max);
  assert.equal(got.partitionKey.length, 1024);
  await expectError(client.createEntity({ partitionKey: "k".repeat(1025), rowKey: "r" }), 400, "KeyValueTooLarge");
  await expectError(client.createEntity({ partitionKey: "p", rowKey: "k".repeat(1025) }), 400, "KeyValueTooLarge");
  await expectError(
    client.upsertEntity({ partitionKey: "p", rowKey: "k".repeat(1025) }, "Replace"),
    400,
    "KeyValueTooLarge",
  );
});

test("limits: keys with forbidden characters are rejected with 400", async () => {
  for (const bad of ["a/b", "a\\b", "a#b", "a?b", "tab\tin", "nul\u0000", "del\u007f", "c1\u0085"]) {
    await expectError(
      client.createEntity({ partitionKey: bad, rowKey: "r" }),
      400,
      ["OutOfRangeInput", "InvalidInput"],
    ).catch((e) => {
      throw new Error(`PartitionKey ${JSON.stringify(bad)}: ${e.message}`);
    });
  }
});

test("limits: property names must be identifiers of at most 255 characters", async () => {
  await client.createEntity({ partitionKey: "names", rowKey: "ok", ["n".repeat(255)]: 1, _under: 2, Ünïcode: 3 });
  for (const bad of ["bad-name", "1abc", "has space", "dot.ted", ""]) {
    await expectError(
      client.createEntity({ partitionKey: "names", rowKey: `bad${bad.length}`, [bad]: 1 }),
      400,
      "PropertyNameInvalid",
    ).catch((e) => {
      throw new Error(`property name ${JSON.stringify(bad)}: ${e.message}`);
    });
  }
  await expectError(
    client.createEntity({ partitionKey: "names", rowKey: "long", ["n".repeat(256)]: 1 }),
    400,
    "PropertyNameTooLong",
  );
});

test("limits: 252 custom properties are accepted, 253 answer 400 TooManyProperties", async () => {
  const entity = { partitionKey: "props", rowKey: "252" };
  for (let i = 0; i < 252; i++) entity[`p${i}`] = i;
  await client.createEntity(entity);
  const got = await client.getEntity("props", "252");
  assert.equal(got.p251, 251);
  await expectError(client.createEntity({ ...entity, rowKey: "253", p252: 252 }), 400, "TooManyProperties");
  await expectError(client.upsertEntity({ ...entity, rowKey: "253", p252: 252 }, "Replace"), 400, "TooManyProperties");
});

test("limits: a merge that would exceed 252 properties answers 400 TooManyProperties", async () => {
  const entity = { partitionKey: "props", rowKey: "merge" };
  for (let i = 0; i < 200; i++) entity[`a${i}`] = i;
  await client.createEntity(entity);
  const more = { partitionKey: "props", rowKey: "merge" };
  for (let i = 0; i < 60; i++) more[`b${i}`] = i;
  await expectError(client.updateEntity(more, "Merge"), 400, "TooManyProperties");
});

test("limits: string and binary values up to 64 KiB are accepted, larger answer 400 PropertyValueTooLarge", async () => {
  await client.createEntity({
    partitionKey: "values",
    rowKey: "max",
    s: "x".repeat(32 * 1024),
    b: new Uint8Array(64 * 1024).fill(7),
  });
  const got = await client.getEntity("values", "max");
  assert.equal(got.s.length, 32 * 1024);
  assert.equal(got.b.length, 64 * 1024);
  await expectError(
    client.createEntity({ partitionKey: "values", rowKey: "str", s: "x".repeat(32 * 1024 + 1) }),
    400,
    "PropertyValueTooLarge",
  );
  await expectError(
    client.createEntity({ partitionKey: "values", rowKey: "bin", b: new Uint8Array(64 * 1024 + 1) }),
    400,
    "PropertyValueTooLarge",
  );
  // UTF-16 counts: 16,385 characters outside the BMP are 32,770 UTF-16 code units.
  await expectError(
    client.createEntity({ partitionKey: "values", rowKey: "emoji", s: "😀".repeat(16 * 1024 + 1) }),
    400,
    "PropertyValueTooLarge",
  );
});

test("limits: an entity over 1 MiB answers 400 EntityTooLarge", async () => {
  const entity = { partitionKey: "values", rowKey: "huge" };
  for (let i = 0; i < 17; i++) entity[`b${i}`] = new Uint8Array(64 * 1024).fill(i);
  await expectError(client.createEntity(entity), 400, "EntityTooLarge");
  await expectError(client.getEntity("values", "huge"), 404, "ResourceNotFound");
});
