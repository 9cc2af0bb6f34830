// Scalability targets, fault injection and the /-/ endpoints through @azure/data-tables (spec §12).
// One server with throttling on at the service's default targets (2,000 entities/s per
// partition, 20,000 per account) and one fault rule from the command line.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { startServer, errorCode, forEachLimit, uniqueTableName } from "./harness.mjs";

const kFaultyTable = "faultytable";
let server;

before(async () => {
  server = await startServer({
    args: [
      "--throttling", "on",
      "--fault", JSON.stringify({ fault: "ServerBusy", every: 2, table: kFaultyTable, operation: "InsertEntity" }),
    ],
  });
});
after(async () => {
  await server?.stop();
});

// The SDK's own retry policy (exponential back-off on 503/500 and connection errors).
const kRetrying = { retryOptions: { maxRetries: 6, retryDelayInMs: 200, maxRetryDelayInMs: 2000 } };

async function admin(method, path, body) {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

async function scannedSoFar() {
  const metrics = (await admin("GET", "/-/metrics")).text;
  return Number(/malachite_entities_total\{kind="scanned"\} (\d+)/.exec(metrics)[1]);
}

function upserts(partitionKey, first, count) {
  return Array.from({ length: count }, (_, i) => [
    "upsert",
    { partitionKey, rowKey: `r${String(first + i).padStart(6, "0")}`, n: first + i },
  ]);
}

async function outcome(promise) {
  try {
    await promise;
    return "ok";
  } catch (e) {
    return `${e.statusCode} ${errorCode(e)}`;
  }
}

test("throttling: batches hammering one partition past 2,000 entities/s get 503 ServerBusy", async () => {
  const client = server.tableClient(uniqueTableName("hot"));
  await client.createTable();
  const seen = new Map();
  let refusal;
  // Rounds of 40 batches of 100 in flight at once: 4,000 entities arrive faster than the server
  // can commit them, so admission (before the write) outruns 2,000/s even on a slow build.
  for (let round = 0; round < 5 && !refusal; round++) {
    await Promise.all(
      Array.from({ length: 40 }, async (_, b) => {
        try {
          await client.submitTransaction(upserts("hot", (round * 40 + b) * 100, 100));
          seen.set("ok", (seen.get("ok") ?? 0) + 1);
        } catch (e) {
          const key = `${e.statusCode} ${errorCode(e)}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          if (e.statusCode === 503) refusal = e;
        }
      }),
    );
  }
  assert.ok(refusal, `no 503 in 5 rounds: ${JSON.stringify([...seen])}`);
  assert.equal(errorCode(refusal), "ServerBusy");
  // Azure: spec §12.2 — no Retry-After; the SDKs back off exponentially.
  assert.equal(refusal.response.headers.get("retry-after"), undefined);
  assert.deepEqual([...seen.keys()].sort(), ["503 ServerBusy", "ok"]);
  const report = (await admin("GET", "/-/partitions?format=json")).json();
  assert.equal(report.target, 2000);
  const hot = report.partitions.find((p) => p.partition === "hot");
  assert.ok(hot.throttled > 0, JSON.stringify(hot));
  assert.ok(hot.total >= 2000, JSON.stringify(hot));
  const text = (await admin("GET", "/-/partitions")).text;
  assert.match(text, /devstoreaccount1\s+hot\d+x\d+\s+'hot'/);
});

test("throttling: a spread load below the account target is never refused", async () => {
  const client = server.tableClient(uniqueTableName("spread"));
  await client.createTable();
  const partitions = Array.from({ length: 40 }, (_, i) => `p${i}`);
  const results = [];
  await forEachLimit(partitions, 8, async (pk) => {
    results.push(await outcome(client.submitTransaction(upserts(pk, 0, 100))));
  });
  assert.deepEqual([...new Set(results)], ["ok"]);
});

test("throttling: with the SDK's retry policy the same hammering completes", async () => {
  const name = uniqueTableName("retry");
  const client = server.tableClient(name, kRetrying);
  await client.createTable();
  const chunks = Array.from({ length: 40 }, (_, i) => i * 100);
  await forEachLimit(chunks, 8, (first) => client.submitTransaction(upserts("busy", first, 100)));
  let count = 0;
  for await (const page of client.listEntities({ queryOptions: { select: ["RowKey"] } }).byPage()) {
    count += page.length;
  }
  assert.equal(count, 4000);
});

test("throttling: a query counts every entity it scans, and the partition waits it out", async () => {
  const name = uniqueTableName("scan");
  const retrying = server.tableClient(name, kRetrying);
  await retrying.createTable();
  const chunks = Array.from({ length: 15 }, (_, i) => i * 100);
  await forEachLimit(chunks, 4, (first) => retrying.submitTransaction(upserts("scan", first, 100)));

  const client = server.tableClient(name);
  const filter = odata`PartitionKey eq ${"scan"} and Missing eq 1`;
  // 3,000 entities charged against a burst of 2,000: the partition is in debt until ~0.5 s after
  // the first scan. A loaded machine may spend that long between the requests: then the attempt
  // says nothing either way and is made again; an answer within the window must be the 503.
  for (let attempt = 1; ; attempt++) {
    await new Promise((r) => setTimeout(r, 1200));  // the partition's bucket refills (2,000/s)
    const before = await scannedSoFar();
    const started = performance.now();
    for (let i = 0; i < 2; i++) {
      const page = await client.listEntities({ queryOptions: { filter } }).byPage().next();
      assert.equal(page.value.length, 0);  // 1,500 scanned, none returned
    }
    const answer = await outcome(client.getEntity("scan", "r000001"));
    const elapsed = performance.now() - started;
    assert.equal(await scannedSoFar(), before + 3000);
    if (answer === "503 ServerBusy") break;
    if (elapsed < 450 || attempt === 3) {
      assert.equal(answer, "503 ServerBusy", `the read ${elapsed.toFixed(0)} ms after the scans began`);
    }
  }
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(await outcome(client.getEntity("scan", "r000001")), "ok");
});

test("faults: a rule from the command line fires on every 2nd insert into its table only", async () => {
  const faulty = server.tableClient(kFaultyTable);
  await faulty.createTable();
  const results = [];
  for (let i = 0; i < 4; i++) results.push(await outcome(faulty.createEntity({ partitionKey: "p", rowKey: `${i}` })));
  assert.deepEqual(results, ["ok", "503 ServerBusy", "ok", "503 ServerBusy"]);
  // Nothing of a refused insert was applied.
  assert.equal(await outcome(faulty.getEntity("p", "1")), "404 ResourceNotFound");
  const other = server.tableClient(uniqueTableName("calm"));
  await other.createTable();
  for (let i = 0; i < 4; i++) await other.createEntity({ partitionKey: "p", rowKey: `${i}` });
  // The retry policy rides over the injected 503s; a retry is a request of its own: inserts
  // 5..11 (counting retries) fire on 6, 8 and 10.
  const retrying = server.tableClient(kFaultyTable, kRetrying);
  for (let i = 10; i < 14; i++) await retrying.createEntity({ partitionKey: "p", rowKey: `${i}` });
  const rules = (await admin("GET", "/-/faults")).json();
  assert.equal(rules.length, 1);
  assert.deepEqual([rules[0].matched, rules[0].fired], [11, 5]);
});

test("faults: rules added and removed at runtime through /-/faults", async () => {
  const client = server.tableClient(uniqueTableName("runtime"));
  await client.createTable();
  await client.createEntity({ partitionKey: "p", rowKey: "r" });

  const added = await admin("POST", "/-/faults", { fault: "OperationTimedOut", count: 1, operation: "GetEntity" });
  assert.equal(added.status, 201);
  const id = added.json()[0].id;
  assert.equal(await outcome(client.getEntity("p", "r")), "500 OperationTimedOut");
  assert.equal(await outcome(client.getEntity("p", "r")), "ok");  // count: 1
  assert.equal((await admin("DELETE", `/-/faults/${id}`)).status, 200);

  await admin("POST", "/-/faults", { fault: "Delay", delay_ms: 400, count: 1, partition: "p" });
  const started = Date.now();
  await client.getEntity("p", "r");
  assert.ok(Date.now() - started >= 390, `answered after ${Date.now() - started} ms`);

  await admin("POST", "/-/faults", { fault: "DropConnection", count: 1, operation: "GetEntity" });
  const dropped = await client.getEntity("p", "r").then(
    () => "answered",
    (e) => (e.statusCode === undefined ? "no response" : `${e.statusCode}`),
  );
  assert.equal(dropped, "no response");
  await admin("POST", "/-/faults", { fault: "DropConnection", count: 1, operation: "GetEntity" });
  const retrying = server.tableClient(client.tableName, kRetrying);
  assert.equal((await retrying.getEntity("p", "r")).rowKey, "r");

  const bad = await admin("POST", "/-/faults", { fault: "ServerBusy", every: 2, probability: 0.5 });
  assert.equal(bad.status, 400);
  assert.match(bad.json().error, /not both/);
  assert.equal((await admin("DELETE", "/-/faults")).text, "[]\n");
  assert.deepEqual((await admin("GET", "/-/faults")).json(), []);
});

test("metrics: /-/metrics speaks Prometheus text with requests, latency, entities and throttling", async () => {
  const response = await fetch(`http://127.0.0.1:${server.port}/-/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  assert.match(text, /^malachite_requests_total\{operation="EntityGroupTransaction",status="202"\} \d+$/m);
  assert.match(text, /^malachite_requests_total\{operation="EntityGroupTransaction",status="503"\} \d+$/m);
  assert.match(text, /^malachite_request_duration_seconds_bucket\{operation="GetEntity",status="200",le="\+Inf"\} \d+$/m);
  assert.match(text, /^malachite_throttled_requests_total\{limit="partition"\} [1-9]\d*$/m);
  assert.match(text, /^malachite_faults_injected_total\{fault="ServerBusy"\} [1-9]\d*$/m);
  assert.match(text, /^malachite_entities_total\{kind="written"\} [1-9]\d*$/m);
  assert.match(text, /^malachite_hot_partition_entities_per_second\{account="devstoreaccount1",table="[a-z0-9]+",partition="[^"]*"\} [\d.]+$/m);
  assert.match(text, /^malachite_throttling_enabled 1$/m);
});
