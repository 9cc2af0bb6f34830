// The shared $filter cases of tests/cases/filter (format: its README.md) end to end: every case file
// through @azure/data-tables against the real server. One fresh table per entity file (entities
// inserted with submitTransaction, 100 per changeset, per partition), one listEntities per case;
// a Query Tables file ("key": "TableName") creates its tables and intersects listTables with them.
// Unverified cases run too: they state what Malachite does, even where the service is unconfirmed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, uniqueTableName, errorCode, forEachLimit } from "./harness.mjs";

// MALACHITE_FILTER_CASES_DIR points the suite at another case directory (e.g. a draft of new cases).
const casesDir =
  process.env.MALACHITE_FILTER_CASES_DIR ??
  resolve(dirname(fileURLToPath(import.meta.url)), "../../cases/filter");
const kBatchSize = 100;  // Azure: spec §7 — at most 100 operations per changeset.
const kParallelQueries = 8;

let server;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

function loadCaseFiles() {
  return readdirSync(casesDir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => {
      const text = readFileSync(join(casesDir, name), "utf8");
      return { name, text, ...JSON.parse(text) };
    });
}

// The SDK writes `{value, type}` as `"Name": value, "Name@odata.type": "Edm.<type>"` and a plain
// value as itself, so the body it sends carries the same typed facts as the case file — provided
// JSON.stringify writes every number as the file did. An unannotated 5.0 would become 5 (Int32
// instead of Double), so such a file is refused here rather than silently tested as another fact.
function checkSdkCanSendExactly(file) {
  const doubles = new Set(
    [...file.text.matchAll(/"([^"]+)@odata\.type"\s*:\s*"Edm\.Double"/g)].map((m) => m[1]),
  );
  for (const match of file.text.matchAll(/"([^"@]+)"\s*:\s*(-?\d[0-9.eE+-]*)/g)) {
    const [, name, token] = match;
    if (doubles.has(name)) continue;  // an annotated Double is the same number however written
    assert.equal(JSON.stringify(Number(token)), token,
      `${file.name}: the unannotated number ${name}: ${token} would reach the server as another literal`);
  }
}

// One case-file entity as an SDK entity: keys renamed, annotated values as {value, type}.
function toSdkEntity(file, entity) {
  const out = {};
  for (const [name, value] of Object.entries(entity)) {
    if (name.includes("@")) continue;
    if (typeof value === "string") {
      assert.ok(value.isWellFormed(), `${file.name}: ${name} is not well-formed UTF-16`);
    }
    const annotation = entity[`${name}@odata.type`];
    const sdkName = name === "PartitionKey" ? "partitionKey" : name === "RowKey" ? "rowKey" : name;
    out[sdkName] = annotation === undefined ? value : { value, type: annotation.replace(/^Edm\./, "") };
  }
  return out;
}

async function insertEntities(client, file) {
  const byPartition = new Map();
  for (const entity of file.entities) {
    const sdkEntity = toSdkEntity(file, entity);
    if (!byPartition.has(sdkEntity.partitionKey)) byPartition.set(sdkEntity.partitionKey, []);
    byPartition.get(sdkEntity.partitionKey).push(sdkEntity);
  }
  for (const entities of byPartition.values()) {
    for (let i = 0; i < entities.length; i += kBatchSize) {
      const chunk = entities.slice(i, i + kBatchSize);
      if (chunk.length === 1) await client.createEntity(chunk[0]);
      else await client.submitTransaction(chunk.map((entity) => ["create", entity]));
    }
  }
}

// "[a,b]" (sorted) for the rows a query returned, "error <code>" for a failed one.
async function entityOutcome(client, filter, key) {
  try {
    const keys = [];
    for await (const entity of client.listEntities({ queryOptions: { filter } })) {
      keys.push(key === "RowKey" ? entity.rowKey : entity[key]);
    }
    return joined(keys);
  } catch (error) {
    return `error ${errorCode(error)}`;
  }
}

async function tableOutcome(serviceClient, filter, names) {
  try {
    const found = [];
    for await (const table of serviceClient.listTables({ queryOptions: { filter } })) {
      if (names.has(table.name)) found.push(table.name);
    }
    return joined(found);
  } catch (error) {
    return `error ${errorCode(error)}`;
  }
}

function joined(keys) {
  return `[${[...keys].sort().join(",")}]`;
}

function expected(testCase) {
  return testCase.error !== undefined ? `error ${testCase.error}` : joined(testCase.expect);
}

// Runs every case of a file, at most kParallelQueries at a time; returns the mismatches.
async function runCases(file, outcome) {
  const failures = [];
  await forEachLimit(file.cases, kParallelQueries, async (testCase) => {
    assert.ok((testCase.expect === undefined) !== (testCase.error === undefined),
      `${file.name}: ${testCase.filter} needs exactly one of expect/error`);
    const got = await outcome(testCase.filter);
    const want = expected(testCase);
    if (got !== want) {
      const tag = testCase.unverified ? " (unverified)" : "";
      failures.push(`${testCase.filter}${tag}\n      want ${want}\n      got  ${got}`);
    }
  });
  return failures;
}

const caseFiles = loadCaseFiles();

test("filter cases: the case directory holds the shared files", () => {
  assert.ok(caseFiles.length >= 9, `only ${caseFiles.length} case files in ${casesDir}`);
  const total = caseFiles.reduce((n, file) => n + file.cases.length, 0);
  assert.ok(total >= 100, `only ${total} cases`);
});

for (const file of caseFiles) {
  const key = file.key ?? "RowKey";
  test(`filter cases: ${file.name} holds through @azure/data-tables (${file.cases.length} cases)`, async () => {
    let failures;
    if (key === "TableName") {
      const serviceClient = server.serviceClient();
      const names = new Set(file.entities.map((entity) => entity.TableName));
      for (const name of names) await serviceClient.createTable(name);
      failures = await runCases(file, (filter) => tableOutcome(serviceClient, filter, names));
    } else {
      checkSdkCanSendExactly(file);
      const client = server.tableClient(uniqueTableName("cases"));
      await client.createTable();
      await insertEntities(client, file);
      failures = await runCases(file, (filter) => entityOutcome(client, filter, key));
    }
    assert.deepEqual(failures, [], `${file.name}: ${failures.length} case(s) differ:\n  ${failures.join("\n  ")}`);
  });
}
