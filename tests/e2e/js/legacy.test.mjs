// The legacy node SDK `azure-storage` 2.10 (SharedKey, x-ms-version 2018-03-28, MERGE verb, %27 quotes,
// Get Table for createTableIfNotExists; spec §4.2, §14).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import azure from "azure-storage";
import { startServer, uniqueTableName } from "./harness.mjs";

let server;
let service;
const gen = azure.TableUtilities.entityGenerator;

// Promise wrapper over the callback API: resolves to { result, response }, rejects with the SDK error.
function call(method, ...args) {
  return new Promise((resolve, reject) => {
    service[method](...args, (error, result, response) => {
      if (error) reject(Object.assign(error, { response }));
      else resolve({ result, response });
    });
  });
}

async function expectLegacyError(promise, status, code) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected ${status} ${code}, the call succeeded`);
  assert.equal(`${error.statusCode} ${error.code}`, `${status} ${code}`, `${error.message}`);
}

before(async () => {
  server = await startServer();
  service = azure.createTableService(server.connectionString);
});
after(async () => {
  await server?.stop();
});

test("legacy: createTableIfNotExists creates once and then reports the table exists", async () => {
  const table = uniqueTableName("legacy");
  const first = await call("createTableIfNotExists", table);
  assert.equal(first.result.created, true);
  const second = await call("createTableIfNotExists", table);
  assert.equal(second.result.created, false);
  const exists = await call("doesTableExist", table);
  assert.equal(exists.result.exists, true);
  await call("deleteTable", table);
  const gone = await call("doesTableExist", table);
  assert.equal(gone.result.exists, false);
});

test("legacy: insert, retrieve, merge, replace, query and delete entities", async () => {
  const table = uniqueTableName("legacy");
  await call("createTableIfNotExists", table);
  const when = new Date("2022-03-04T05:06:07.890Z");
  await call("insertEntity", table, {
    PartitionKey: gen.String("p'1"),
    RowKey: gen.String("r 1"),
    name: gen.String("bolt"),
    qty: gen.Int32(40),
    big: gen.Int64("9007199254740993"),
    price: gen.Double(1.25),
    ok: gen.Boolean(true),
    when: gen.DateTime(when),
    id: gen.Guid("0f8fad5b-d9cb-469f-a165-70867728950e"),
    blob: gen.Binary(Buffer.from([1, 2, 3])),
  });

  const { result: got } = await call("retrieveEntity", table, "p'1", "r 1");
  assert.equal(got.PartitionKey._, "p'1");
  assert.equal(got.RowKey._, "r 1");
  assert.equal(got.name._, "bolt");
  assert.equal(got.qty._, 40);
  assert.equal(got.big._, "9007199254740993");
  assert.equal(got.big.$, "Edm.Int64");
  assert.equal(got.price._, 1.25);
  assert.equal(got.ok._, true);
  assert.equal(new Date(got.when._).toISOString(), when.toISOString());
  assert.equal(got.id._, "0f8fad5b-d9cb-469f-a165-70867728950e");
  assert.deepEqual([...got.blob._], [1, 2, 3]);
  assert.ok(got[".metadata"].etag, "no etag in the legacy metadata");

  await call("mergeEntity", table, { PartitionKey: gen.String("p'1"), RowKey: gen.String("r 1"), qty: gen.Int32(41) });
  const { result: merged } = await call("retrieveEntity", table, "p'1", "r 1");
  assert.equal(merged.qty._, 41);
  assert.equal(merged.name._, "bolt");

  await call("insertOrReplaceEntity", table, { PartitionKey: gen.String("p'1"), RowKey: gen.String("r 2"), v: gen.Int32(1) });
  await call("insertOrMergeEntity", table, { PartitionKey: gen.String("p'1"), RowKey: gen.String("r 2"), w: gen.Int32(2) });
  const { result: upserted } = await call("retrieveEntity", table, "p'1", "r 2");
  assert.deepEqual([upserted.v._, upserted.w._], [1, 2]);

  const query = new azure.TableQuery().where("PartitionKey eq ?", "p'1");
  const { result: found } = await call("queryEntities", table, query, null);
  assert.deepEqual(found.entries.map((e) => e.RowKey._), ["r 1", "r 2"]);

  await call("deleteEntity", table, { PartitionKey: gen.String("p'1"), RowKey: gen.String("r 1") });
  await expectLegacyError(call("retrieveEntity", table, "p'1", "r 1"), 404, "ResourceNotFound");
  await expectLegacyError(
    call("insertEntity", table, { PartitionKey: gen.String("p'1"), RowKey: gen.String("r 2") }),
    409,
    "EntityAlreadyExists",
  );
  await call("deleteTable", table);
  await expectLegacyError(call("retrieveEntity", table, "p'1", "r 2"), 404, "TableNotFound");
});

test("legacy: queryEntities with top follows continuation tokens", async () => {
  const table = uniqueTableName("legacy");
  await call("createTableIfNotExists", table);
  for (let i = 0; i < 25; i++) {
    await call("insertEntity", table, {
      PartitionKey: gen.String(`p${i % 3}`),
      RowKey: gen.String(String(i).padStart(3, "0")),
      i: gen.Int32(i),
    });
  }
  const rows = [];
  let token = null;
  let pages = 0;
  do {
    const { result } = await call("queryEntities", table, new azure.TableQuery().top(10), token);
    pages += 1;
    assert.ok(result.entries.length <= 10);
    for (const e of result.entries) rows.push(`${e.PartitionKey._}/${e.RowKey._}`);
    token = result.continuationToken;
  } while (token && pages < 20);
  assert.equal(rows.length, 25);
  assert.deepEqual(rows, [...rows].sort());
  assert.equal(new Set(rows).size, 25);
  assert.ok(pages >= 3, `${pages} pages`);
  await call("deleteTable", table);
});
