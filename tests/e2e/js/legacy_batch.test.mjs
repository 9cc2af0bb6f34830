// The legacy node SDK `azure-storage` 2.10 TableBatch/executeBatch (spec §7): LF-only bodies, charset
// parameters on the multipart types, MERGE verbs, Content-ID among the sub-request headers, inserts
// with return-content whose 201 bodies the SDK parses, and a lone retrieveEntity outside a changeset.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import azure from "azure-storage";
import { startServer, uniqueTableName } from "./harness.mjs";

let server;
let service;
let table;
const gen = azure.TableUtilities.entityGenerator;

function call(method, ...args) {
  return new Promise((resolve, reject) => {
    service[method](...args, (error, result, response) => {
      if (error) reject(Object.assign(error, { response }));
      else resolve({ result, response });
    });
  });
}

before(async () => {
  server = await startServer();
  service = azure.createTableService(server.connectionString);
  table = uniqueTableName("legacybatch");
  await call("createTableIfNotExists", table);
});
after(async () => {
  await server?.stop();
});

const entity = (pk, rk, extra = {}) => ({ PartitionKey: gen.String(pk), RowKey: gen.String(rk), ...extra });

async function retrieve(pk, rk) {
  try {
    return (await call("retrieveEntity", table, pk, rk)).result;
  } catch (e) {
    if (e.statusCode === 404) return null;
    throw e;
  }
}

test("legacy batch: insert, merge, replace, upserts and delete in one executeBatch", async () => {
  await call("insertEntity", table, entity("p", "merge", { a: gen.Int32(1) }));
  await call("insertEntity", table, entity("p", "replace", { a: gen.Int32(1) }));
  await call("insertEntity", table, entity("p", "delete"));
  const batch = new azure.TableBatch();
  batch.insertEntity(entity("p", "insert", { n: gen.Int32(7), when: gen.DateTime(new Date("2021-01-02T03:04:05Z")) }), {
    echoContent: true,
  });
  batch.mergeEntity(entity("p", "merge", { b: gen.String("x") }));
  batch.replaceEntity(entity("p", "replace", { c: gen.Boolean(true) }));
  batch.insertOrReplaceEntity(entity("p", "ior", { d: gen.Double(1.5) }));
  batch.insertOrMergeEntity(entity("p", "iom", { e: gen.Int64("9007199254740993") }));
  batch.deleteEntity(entity("p", "delete"));
  const { result, response } = await call("executeBatch", table, batch);
  assert.equal(response.statusCode, 202);
  assert.deepEqual(
    result.map((r) => r.response.statusCode),
    [201, 204, 204, 204, 204, 204],
  );
  // The SDK parsed the echoed entity of the 201 part.
  assert.equal(result[0].entity.n._, 7);
  assert.ok(result[0].entity[".metadata"].etag);
  const merged = await retrieve("p", "merge");
  assert.equal(merged.a._, 1);
  assert.equal(merged.b._, "x");
  const replaced = await retrieve("p", "replace");
  assert.equal(replaced.a, undefined);
  assert.equal(replaced.c._, true);
  assert.equal((await retrieve("p", "iom")).e._, "9007199254740993");
  assert.equal(await retrieve("p", "delete"), null);
});

test("legacy batch: a failing operation rolls the batch back and surfaces the error", async () => {
  await call("insertEntity", table, entity("f", "taken"));
  const batch = new azure.TableBatch();
  batch.insertEntity(entity("f", "a"));
  batch.insertEntity(entity("f", "taken"));
  batch.insertEntity(entity("f", "c"));
  let error;
  try {
    await call("executeBatch", table, batch);
  } catch (e) {
    error = e;
  }
  assert.ok(error, "the batch should fail");
  assert.equal(error.statusCode, 409);
  assert.equal(error.code, "EntityAlreadyExists");
  assert.match(error.message, /^1:The specified entity already exists\./);
  assert.equal(await retrieve("f", "a"), null);
  assert.equal(await retrieve("f", "c"), null);
});

test("legacy batch: a lone retrieveEntity is answered outside a changeset", async () => {
  await call("insertEntity", table, entity("g", "r", { v: gen.Int32(3) }));
  const batch = new azure.TableBatch();
  batch.retrieveEntity("g", "r");
  const { result } = await call("executeBatch", table, batch);
  assert.equal(result.length, 1);
  assert.equal(result[0].response.statusCode, 200);
  assert.equal(result[0].entity.v._, 3);
});

test("legacy batch: a lone retrieveEntity of a missing entity is a 404 part without an index prefix", async () => {
  // spec §7.4: a batch's lone GET is one operation; a missing entity is an entity-level failure,
  // which a one-operation batch reports without the "0:" index (as its changesets do).
  const batch = new azure.TableBatch();
  batch.retrieveEntity("g", "missing");
  let error;
  let outcome;
  try {
    outcome = await call("executeBatch", table, batch);
  } catch (e) {
    error = e;
  }
  const part = outcome?.result?.[0];
  const status = error?.statusCode ?? part?.response?.statusCode;
  const message = error?.message ?? part?.error?.message ?? "";
  assert.equal(status, 404, JSON.stringify(outcome ?? error));
  assert.match(message, /^The specified resource does not exist\./);
});
