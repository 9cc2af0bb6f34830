// Entity group transactions through @azure/data-tables submitTransaction (spec §7), the Table design
// guide patterns that depend on them (intra-partition secondary index, index entities, a two-row
// registration), and what the SDK hides (cross-partition rejection, the 202 framing) via raw HTTP.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { TableTransaction } from "@azure/data-tables";
import { startServer, uniqueTableName, kDevAccount, kDevKey, forEachLimit } from "./harness.mjs";

let server;
let client;
let tableName;

before(async () => {
  server = await startServer();
  tableName = uniqueTableName("batch");
  client = server.tableClient(tableName);
  await client.createTable();
});
after(async () => {
  await server?.stop();
});

// Runs `promise`, expecting a transaction failure; returns the RestError.
async function expectTransactionError(promise, status, code, messagePrefix) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected ${status} ${code}, but the transaction succeeded`);
  assert.equal(error.statusCode, status, error.message);
  assert.equal(error.code, code, error.message);
  if (messagePrefix !== undefined) assert.ok(error.message.startsWith(messagePrefix), error.message);
  return error;
}

async function exists(pk, rk) {
  try {
    await client.getEntity(pk, rk);
    return true;
  } catch (e) {
    if (e.statusCode === 404) return false;
    throw e;
  }
}

test("batch: create, upsert, update and delete actions apply together and report per-entity ETags", async () => {
  await client.createEntity({ partitionKey: "a", rowKey: "upd", v: 1 });
  await client.createEntity({ partitionKey: "a", rowKey: "del", v: 1 });
  const result = await client.submitTransaction([
    ["create", { partitionKey: "a", rowKey: "new", v: 1 }],
    ["upsert", { partitionKey: "a", rowKey: "ups", v: 2 }, "Replace"],
    ["upsert", { partitionKey: "a", rowKey: "upm", v: 3 }, "Merge"],
    ["update", { partitionKey: "a", rowKey: "upd", w: 4 }, "Merge"],
    ["delete", { partitionKey: "a", rowKey: "del" }],
  ]);
  assert.equal(result.status, 202);
  assert.deepEqual(
    result.subResponses.map((r) => r.status),
    [204, 204, 204, 204, 204],
  );
  const created = await client.getEntity("a", "new");
  assert.equal(result.getResponseForEntity("new").etag, created.etag);
  assert.equal((await client.getEntity("a", "upd")).w, 4);
  assert.equal((await client.getEntity("a", "upd")).v, 1, "merge keeps the other properties");
  assert.equal((await client.getEntity("a", "ups")).v, 2);
  assert.equal(await exists("a", "del"), false);
});

test("batch: TableTransaction with an ETag-conditioned update", async () => {
  const first = await client.createEntity({ partitionKey: "etag", rowKey: "r", v: 1 });
  const tx = new TableTransaction();
  tx.updateEntity({ partitionKey: "etag", rowKey: "r", v: 2 }, "Replace", { etag: first.etag });
  tx.createEntity({ partitionKey: "etag", rowKey: "s", v: 1 });
  await client.submitTransaction(tx.actions);
  const stale = new TableTransaction();
  stale.createEntity({ partitionKey: "etag", rowKey: "t", v: 1 });
  stale.updateEntity({ partitionKey: "etag", rowKey: "r", v: 3 }, "Replace", { etag: first.etag });
  await expectTransactionError(client.submitTransaction(stale.actions), 412, "UpdateConditionNotSatisfied", "1:");
  assert.equal((await client.getEntity("etag", "r")).v, 2);
  assert.equal(await exists("etag", "t"), false);
});

test("batch: a 409 in the middle rolls back the operations before and after it", async () => {
  await client.createEntity({ partitionKey: "atomic", rowKey: "taken" });
  await expectTransactionError(
    client.submitTransaction([
      ["create", { partitionKey: "atomic", rowKey: "first" }],
      ["upsert", { partitionKey: "atomic", rowKey: "second", v: 1 }],
      ["create", { partitionKey: "atomic", rowKey: "taken" }],
      ["create", { partitionKey: "atomic", rowKey: "fourth" }],
    ]),
    409,
    "EntityAlreadyExists",
    "2:The specified entity already exists.",
  );
  for (const rk of ["first", "second", "fourth"]) assert.equal(await exists("atomic", rk), false, rk);
});

test("batch: a single-operation failure carries no index (spec §7.4)", async () => {
  await client.createEntity({ partitionKey: "single", rowKey: "r" });
  await expectTransactionError(
    client.submitTransaction([["create", { partitionKey: "single", rowKey: "r" }]]),
    409,
    "EntityAlreadyExists",
    "The specified entity already exists.",
  );
});

test("batch: 100 operations pass, 101 are refused before anything is written", async () => {
  const actions = (n, prefix) =>
    Array.from({ length: n }, (_, i) => ["create", { partitionKey: "hundred", rowKey: `${prefix}${i}`, i }]);
  await client.submitTransaction(actions(100, "ok"));
  const page = client.listEntities({ queryOptions: { filter: "PartitionKey eq 'hundred'" } });
  let count = 0;
  for await (const _ of page) count++;
  assert.equal(count, 100);
  await expectTransactionError(client.submitTransaction(actions(101, "no")), 400, "InvalidInput", "0:");
  assert.equal(await exists("hundred", "no0"), false);
});

test("batch: a missing table fails with TableNotFound at index 0", async () => {
  const missing = server.tableClient(uniqueTableName("nosuch"));
  await expectTransactionError(
    missing.submitTransaction([
      ["create", { partitionKey: "p", rowKey: "1" }],
      ["create", { partitionKey: "p", rowKey: "2" }],
    ]),
    404,
    "TableNotFound",
    "0:The table specified does not exist.",
  );
});

// Design guide "intra-partition secondary index": each employee is stored twice in its department's
// partition, under empid_<id> and email_<address>, and one batch keeps both copies consistent.
test("batch: intra-partition secondary index — empid_ and email_ rows stay consistent", async () => {
  const dept = "Sales";
  const employee = (id, email, extra = {}) => ({ EmployeeId: id, Email: email, ...extra });
  await client.submitTransaction([
    ["create", { partitionKey: dept, rowKey: "empid_000123", ...employee("000123", "don@contoso.com") }],
    ["create", { partitionKey: dept, rowKey: "email_don@contoso.com", ...employee("000123", "don@contoso.com") }],
    ["create", { partitionKey: dept, rowKey: "empid_000124", ...employee("000124", "ann@contoso.com") }],
    ["create", { partitionKey: dept, rowKey: "email_ann@contoso.com", ...employee("000124", "ann@contoso.com") }],
  ]);
  // Changing Don's address: update the empid_ row, move the email_ row — in one batch.
  const byId = await client.getEntity(dept, "empid_000123");
  await client.submitTransaction([
    ["update", { partitionKey: dept, rowKey: "empid_000123", ...employee("000123", "donald@contoso.com") }, "Replace", { etag: byId.etag }],
    ["delete", { partitionKey: dept, rowKey: "email_don@contoso.com" }],
    ["create", { partitionKey: dept, rowKey: "email_donald@contoso.com", ...employee("000123", "donald@contoso.com") }],
  ]);
  // Moving Ann to an address already taken fails as a whole: her rows are untouched.
  const ann = await client.getEntity(dept, "empid_000124");
  await expectTransactionError(
    client.submitTransaction([
      ["update", { partitionKey: dept, rowKey: "empid_000124", ...employee("000124", "donald@contoso.com") }, "Replace", { etag: ann.etag }],
      ["delete", { partitionKey: dept, rowKey: "email_ann@contoso.com" }],
      ["create", { partitionKey: dept, rowKey: "email_donald@contoso.com", ...employee("000124", "donald@contoso.com") }],
    ]),
    409,
    "EntityAlreadyExists",
    "2:",
  );
  const rows = [];
  for await (const e of client.listEntities({ queryOptions: { filter: `PartitionKey eq '${dept}'` } })) {
    rows.push(`${e.rowKey}=${e.EmployeeId}/${e.Email}`);
  }
  assert.deepEqual(rows, [
    "email_ann@contoso.com=000124/ann@contoso.com",
    "email_donald@contoso.com=000123/donald@contoso.com",
    "empid_000123=000123/donald@contoso.com",
    "empid_000124=000124/ann@contoso.com",
  ]);
});

// Design guide "index entities": an index row lists the employees with a given last name; adding an
// employee inserts the employee and updates the index (ETag-conditioned) in one batch. Racing
// writers: whoever loses the ETag race loses the whole batch, so the index never misses anyone.
test("batch: index entities — concurrent adders never leave the index inconsistent", async () => {
  const dept = "Index";
  await client.createEntity({ partitionKey: dept, rowKey: "lastname_Jones", ids: "" });
  const ids = Array.from({ length: 12 }, (_, i) => `e${String(i).padStart(2, "0")}`);
  await forEachLimit(ids, 6, async (id) => {
    for (;;) {
      const index = await client.getEntity(dept, "lastname_Jones");
      const list = index.ids ? index.ids.split(",") : [];
      try {
        await client.submitTransaction([
          ["create", { partitionKey: dept, rowKey: `emp_${id}`, LastName: "Jones" }],
          ["update", { partitionKey: dept, rowKey: "lastname_Jones", ids: [...list, id].join(",") }, "Replace", { etag: index.etag }],
        ]);
        return;
      } catch (e) {
        if (e.statusCode !== 412) throw e;
        assert.match(e.message, /^1:/);
      }
    }
  });
  const index = await client.getEntity(dept, "lastname_Jones");
  assert.deepEqual(index.ids.split(",").sort(), ids);
  const stored = [];
  for await (const e of client.listEntities({ queryOptions: { filter: `PartitionKey eq '${dept}' and LastName eq 'Jones'` } })) {
    stored.push(e.rowKey.slice(4));
  }
  assert.deepEqual(stored, ids);
});

// A race registration stores BIB:<number> and AGE:<group>-<runner> rows: both land or neither.
test("batch: two-row registration (BIB:/AGE:) lands together or not at all", async () => {
  const race = "race2024";
  const register = (runner, bib, age) =>
    client.submitTransaction([
      ["create", { partitionKey: race, rowKey: `BIB:${bib}`, Runner: runner }],
      ["create", { partitionKey: race, rowKey: `AGE:${age}-${runner}`, Bib: bib }],
    ]);
  await register("kim", "0042", "M40");
  await expectTransactionError(register("lee", "0042", "F30"), 409, "EntityAlreadyExists", "0:");
  assert.equal(await exists(race, "AGE:F30-lee"), false, "the AGE: row must not land without its BIB:");
  // Concurrent registrations for the same bib: exactly one runner gets it, with both rows.
  const runners = ["r1", "r2", "r3", "r4", "r5", "r6"];
  const outcomes = await Promise.allSettled(runners.map((r) => register(r, "0777", "X")));
  const winners = runners.filter((_, i) => outcomes[i].status === "fulfilled");
  assert.equal(winners.length, 1);
  for (const r of runners) assert.equal(await exists(race, `AGE:X-${r}`), winners.includes(r), r);
  assert.equal((await client.getEntity(race, "BIB:0777")).Runner, winners[0]);
});

// ---- Raw HTTP: what the SDK refuses to send or hides ----

async function sendBatch(body, boundary = "batch_raw") {
  const date = new Date().toUTCString();
  const path = `/${kDevAccount}/$batch`;
  const signature = createHmac("sha256", Buffer.from(kDevKey, "base64"))
    .update(`${date}\n/${kDevAccount}${path}`, "utf8") // emulator paths repeat the account
    .digest("base64");
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: "POST",
    headers: {
      "x-ms-date": date,
      "x-ms-version": "2019-02-02",
      Accept: "application/json",
      DataServiceVersion: "3.0",
      MaxDataServiceVersion: "3.0;NetFx",
      Authorization: `SharedKeyLite ${kDevAccount}:${signature}`,
      "Content-Type": `multipart/mixed; boundary=${boundary}`,
    },
    body,
  });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

function changeset(ops) {
  const url = `http://127.0.0.1:${server.port}/${kDevAccount}/${tableName}`;
  let body = "--batch_raw\r\nContent-Type: multipart/mixed; boundary=changeset_raw\r\n\r\n";
  ops.forEach((entity, i) => {
    body +=
      "--changeset_raw\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n" +
      `Content-ID: ${i + 1}\r\n\r\nPOST ${url} HTTP/1.1\r\nContent-Type: application/json\r\n` +
      `Accept: application/json;odata=minimalmetadata\r\nPrefer: return-no-content\r\n\r\n${JSON.stringify(entity)}\r\n`;
  });
  return body + "--changeset_raw--\r\n--batch_raw--\r\n";
}

test("batch: operations on two partitions are rejected with CommandsInBatchActOnDifferentPartitions", async () => {
  const response = await sendBatch(
    changeset([
      { PartitionKey: "x1", RowKey: "a" },
      { PartitionKey: "x2", RowKey: "b" },
    ]),
  );
  assert.equal(response.status, 202);
  assert.match(response.type, /^multipart\/mixed; boundary=batchresponse_[0-9a-f-]{36}$/);
  const parts = response.text.split("--changesetresponse_").slice(1, -1);
  assert.equal(parts.length, 1, response.text);
  assert.match(parts[0], /HTTP\/1\.1 400 Bad Request\r\nContent-ID: 2\r\n/);
  const error = JSON.parse(/\{.*\}/.exec(parts[0])[0])["odata.error"];
  assert.equal(error.code, "CommandsInBatchActOnDifferentPartitions");
  assert.match(error.message.value, /^1:All commands in a batch must operate on same entity group\.\n/);
  assert.equal(await exists("x1", "a"), false);
});

test("batch: the success body has one part per operation with status, Content-ID, ETag and Location", async () => {
  const response = await sendBatch(
    changeset([
      { PartitionKey: "raw", RowKey: "a" },
      { PartitionKey: "raw", RowKey: "b" },
    ]),
  );
  assert.equal(response.status, 202);
  const parts = response.text.split("--changesetresponse_").slice(1, -1);
  assert.equal(parts.length, 2);
  parts.forEach((part, i) => {
    assert.match(part, /\r\nHTTP\/1\.1 204 No Content\r\n/);
    assert.match(part, new RegExp(`\r\nContent-ID: ${i + 1}\r\n`));
    assert.match(part, /\r\nETag: W\/"datetime'[^']+'"\r\n/);
    assert.match(part, new RegExp(`\r\nLocation: http://127\\.0\\.0\\.1:\\d+/${kDevAccount}/${tableName}\\(PartitionKey='raw',RowKey='${"ab"[i]}'\\)\r\n`));
  });
  assert.ok(response.text.endsWith("--\r\n"));
});

test("batch: a malformed body is a top-level 400, not a 202", async () => {
  const response = await sendBatch("--batch_raw\r\nno end in sight");
  assert.equal(response.status, 400);
  assert.equal(JSON.parse(response.text)["odata.error"].code, "InvalidInput");
});
