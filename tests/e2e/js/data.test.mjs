// Data in and out with the real SDK and the real binary: --seed fixtures and POST /-/reset,
// `malachite export`/`import` over HTTP (byte-identical round trips, bad lines, resume), hot
// backups under 32-connection write load restored with `malachite restore`, and migration from
// the official emulator's database (npm azurite, run here on a free port).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { AzureNamedKeyCredential, TableClient, generateAccountSas } from "@azure/data-tables";
import { startServer, binaryPath, kDevAccount, kDevKey, uniqueTableName, forEachLimit } from "./harness.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
let work;

before(() => {
  work = mkdtempSync(join(tmpdir(), "malachite-data-"));
});
after(() => rmSync(work, { recursive: true, force: true }));

// Runs `malachite <args>`; returns { status, stdout, stderr }.
function cli(args, input) {
  const r = spawnSync(binaryPath(), args, { encoding: "utf8", input, timeout: 120000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// docs/DATA.md's JS reset snippet, verbatim apart from the URL.
async function resetTables(baseUrl, { seed = true } = {}) {
  const res = await fetch(`${baseUrl}/-/reset${seed ? "" : "?seed=false"}`, { method: "POST" });
  if (!res.ok) throw new Error(`reset failed: ${res.status} ${await res.text()}`);
  return res.json();
}

async function rows(client) {
  const out = [];
  for await (const e of client.listEntities()) out.push(e);
  return out;
}

test("--seed loads fixtures on the first start; POST /-/reset restores them or empties", async () => {
  const seed = join(work, "fixtures");
  mkdirSync(seed, { recursive: true });
  writeFileSync(join(seed, "customers.jsonl"),
    '{"PartitionKey":"eu","RowKey":"1","Name":"Ada","Since@odata.type":"Edm.DateTime","Since":"2020-01-01T00:00:00Z"}\n' +
    '{"PartitionKey":"us","RowKey":"2","Name":"Grace","Credit@odata.type":"Edm.Int64","Credit":"9007199254740993"}\n');
  writeFileSync(join(seed, "orders.csv"), "PartitionKey,RowKey,Qty:Int32,Total:Double\n2024,1,3,9.5\n");
  const dataDir = mkdtempSync(join(tmpdir(), "malachite-seeded-"));
  const server = await startServer({ dataDir, seed });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const customers = server.tableClient("customers");
    const orders = server.tableClient("orders");
    assert.deepEqual((await rows(customers)).map((e) => e.Name), ["Ada", "Grace"]);
    const ada = await customers.getEntity("eu", "1");
    assert.ok(ada.Since instanceof Date);
    assert.equal((await customers.getEntity("us", "2", { disableTypeConversion: true })).Credit.value, "9007199254740993");
    assert.equal((await orders.getEntity("2024", "1")).Total, 9.5);

    // A test changes things...
    await customers.deleteEntity("eu", "1");
    await customers.upsertEntity({ partitionKey: "zz", rowKey: "9", Name: "Temp" });
    const scratch = uniqueTableName("scratch");
    await server.serviceClient().createTable(scratch);
    // ...and the next one starts from the fixtures again.
    const summary = await resetTables(base);
    assert.equal(summary.tables_deleted, 3);
    assert.equal(summary.entities_seeded, 3);
    assert.deepEqual((await rows(customers)).map((e) => e.Name), ["Ada", "Grace"]);
    const tables = [];
    for await (const t of server.serviceClient().listTables()) tables.push(t.name);
    assert.deepEqual(tables.sort(), ["customers", "orders"]);

    await resetTables(base, { seed: false });
    const left = [];
    for await (const t of server.serviceClient().listTables()) left.push(t.name);
    assert.deepEqual(left, []);

    // A restart of a data dir that is no longer empty does not seed again.
    await server.stop();
    const again = await startServer({ dataDir, seed });
    try {
      const none = [];
      for await (const t of again.serviceClient().listTables()) none.push(t.name);
      assert.deepEqual(none, []);
    } finally {
      await again.stop();
    }
  } finally {
    await server.stop().catch(() => {}); // already stopped, or the test failed before
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("export -> import -> export over HTTP is byte-identical, JSON Lines and CSV", async () => {
  const server = await startServer();
  try {
    const endpoint = server.accountUrl;
    const table = uniqueTableName("src");
    const client = server.tableClient(table);
    await client.createTable();
    const bin = new Uint8Array([0, 1, 2, 255]);
    for (let i = 0; i < 250; i++) {
      await client.upsertEntity({
        partitionKey: `p${String(i % 7).padStart(2, "0")}`, rowKey: `r'${String(i).padStart(4, "0")}`,
        Name: `name ${i}, "quoted"\nline`, Int32: i, Big: { value: (9007199254740993n + BigInt(i)).toString(), type: "Int64" },
        Price: i + 0.25, Whole: { value: "3", type: "Double" }, Neg0: { value: "-0", type: "Double" },
        Nan: { value: "NaN", type: "Double" }, Inf: { value: "Infinity", type: "Double" }, Flag: i % 2 === 0,
        When: { value: "2024-02-29T23:59:59.1234567Z", type: "DateTime" },
        Id: { value: "01234567-89ab-cdef-0123-456789abcdef", type: "Guid" }, Raw: bin,
      });
    }
    for (const format of ["jsonl", "csv"]) {
      const first = cli(["export", "--endpoint", endpoint, "--table", table, "--format", format]);
      assert.equal(first.status, 0, first.stderr);
      assert.equal(first.stdout.split("\n").filter(Boolean).length, format === "csv" ? 250 + 250 + 1 : 250);
      const copy = uniqueTableName("copy");
      const file = join(work, `${copy}.${format}`);
      writeFileSync(file, first.stdout);
      const imported = cli(["import", file, "--endpoint", endpoint]);
      assert.equal(imported.status, 0, imported.stderr);
      const second = cli(["export", "--endpoint", endpoint, "--table", copy, "--format", format]);
      assert.equal(second.status, 0, second.stderr);
      assert.equal(second.stdout, first.stdout);
    }
    // The SDK reads the imported types exactly.
    const copies = [];
    for await (const t of server.serviceClient().listTables()) if (t.name.startsWith("copy")) copies.push(t.name);
    const e = await server.tableClient(copies[0]).getEntity("p00", "r'0000", { disableTypeConversion: true });
    assert.equal(e.Big.value, "9007199254740993");
    assert.equal(e.When.value, "2024-02-29T23:59:59.1234567Z");
    assert.equal(e.Nan.value, "NaN");
    // JSON.parse loses -0.0 and 3.0 (they come back as 0 and 3): check the exported text instead.
    const line = cli(["export", "--endpoint", endpoint, "--table", copies[0]]).stdout.split("\n")[0];
    assert.match(line, /"Whole":3\.0,"Neg0":-0\.0,"Nan@odata\.type":"Edm\.Double","Nan":"NaN"/);
  } finally {
    await server.stop();
  }
});

test("import refuses a bad line with its number and the service's error, then resumes", async () => {
  const server = await startServer();
  try {
    const table = uniqueTableName("bad");
    const good = (i) => JSON.stringify({ PartitionKey: `p${String(Math.floor(i / 100)).padStart(3, "0")}`, RowKey: String(i).padStart(5, "0"), N: i });
    const lines = [];
    for (let i = 0; i < 450; i++) lines.push(good(i));
    lines[420] = '{"PartitionKey":"p004","RowKey":"00420","Small@odata.type":"Edm.Int32","Small":"4294967296"}';
    const file = join(work, `${table}.jsonl`);
    writeFileSync(file, lines.join("\n") + "\n");
    const failed = cli(["import", file, "--endpoint", server.accountUrl, "--workers", "1"]);
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, new RegExp(`${table}\\.jsonl:421: OutOfRangeInput: One of the request inputs is out of range\\.`));
    // Groups are one partition (100 lines): p000..p003 committed, nothing of p004's group.
    const client = server.tableClient(table);
    assert.equal((await rows(client)).length, 400);
    assert.ok(existsSync(`${file}.import-checkpoint`));
    lines[420] = good(420);
    writeFileSync(file, lines.join("\n") + "\n");
    const resumed = cli(["import", file, "--endpoint", server.accountUrl, "--resume"]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /: 50 entities in/);
    assert.equal((await rows(client)).length, 450);
    assert.ok(!existsSync(`${file}.import-checkpoint`));
  } finally {
    await server.stop();
  }
});

test("offline tools refuse a running server's data dir; offline backup works once it stopped", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "malachite-offline-"));
  const server = await startServer({ dataDir });
  try {
    await server.tableClient("kept").createTable();
    await server.tableClient("kept").createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
    const r = cli(["export", "--data-dir", dataDir]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is in use by a running server: stop it first, or go through the server with --endpoint URL or --connection-string/);
    const b = cli(["backup", join(work, "refused"), "--data-dir", dataDir]);
    assert.equal(b.status, 1);
    assert.match(b.stderr, /in use by a running server: back it up through the server with --endpoint URL/);
  } finally {
    await server.stop();
  }
  const offline = cli(["backup", join(work, "offline-backup"), "--data-dir", dataDir]);
  assert.equal(offline.status, 0, offline.stderr);
  const exported = cli(["export", "--data-dir", join(work, "offline-backup"), "--table", "kept"]);
  assert.equal(exported.stdout, '{"PartitionKey":"p","RowKey":"r","v":1}\n');
  rmSync(dataDir, { recursive: true, force: true });
});

test("online tools work with a SAS connection string and over verified https", async () => {
  const server = await startServer();
  try {
    const table = uniqueTableName("sas");
    await server.tableClient(table).createTable();
    await server.tableClient(table).createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
    const sas = generateAccountSas(new AzureNamedKeyCredential(kDevAccount, kDevKey), {
      expiresOn: new Date(Date.now() + 3600 * 1000),
      permissions: { query: true, list: true, write: true, add: true, update: true },
      resourceTypes: "sco",
    });
    const cs = `TableEndpoint=${server.accountUrl};SharedAccessSignature=${sas}`;
    const exported = cli(["export", "--connection-string", cs, "--table", table]);
    assert.equal(exported.status, 0, exported.stderr);
    const file = join(work, `sascopy${process.pid}.jsonl`);
    writeFileSync(file, exported.stdout);
    const imported = cli(["import", file, "--connection-string", cs]);
    assert.equal(imported.status, 0, imported.stderr);
    assert.equal((await server.tableClient(`sascopy${process.pid}`).getEntity("p", "r")).v, 1);
  } finally {
    await server.stop();
  }
  if (spawnSync("openssl", ["version"]).status !== 0) {
    throw new Error("the openssl CLI is missing (scripts/install-deps installs it)");
  }
  const dir = mkdtempSync(join(tmpdir(), "malachite-data-tls-"));
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  spawnSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
  const secure = await startServer({ args: ["--cert", cert, "--key", key] });
  try {
    const endpoint = `https://127.0.0.1:${secure.port}/${kDevAccount}`;
    const untrusted = cli(["export", "--endpoint", endpoint]);
    assert.equal(untrusted.status, 1);
    assert.match(untrusted.stderr, /TLS with 127\.0\.0\.1:\d+: certificate verify failed/);
    const trusted = spawnSync(binaryPath(), ["import", "-", "--table", "overtls", "--endpoint", endpoint],
      { encoding: "utf8", input: '{"PartitionKey":"p","RowKey":"r"}\n', env: { ...process.env, SSL_CERT_FILE: cert } });
    assert.equal(trusted.status, 0, trusted.stderr);
  } finally {
    await secure.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a hot backup under 32-connection write load restores every write acknowledged before it", async () => {
  const server = await startServer();
  const table = uniqueTableName("load");
  const acked = [];
  let stop = false;
  let backupStarted = false;
  const ackedBefore = [];
  try {
    const client = server.tableClient(table);
    await client.createTable();
    const writers = Array.from({ length: 32 }, async (_, w) => {
      const own = server.tableClient(table);  // its own keep-alive connection
      for (let n = 0; !stop; n++) {
        const key = { partitionKey: `w${w}`, rowKey: String(n).padStart(6, "0") };
        await own.createEntity({ ...key, Payload: "x".repeat(200), N: n });
        acked.push(key);
        if (!backupStarted) ackedBefore.push(key);
      }
    });
    while (acked.length < 1500) await new Promise((r) => setTimeout(r, 20));
    const dest = join(work, "hot-backup");
    backupStarted = true;
    const res = await fetch(`http://127.0.0.1:${server.port}/-/backup?dest=${encodeURIComponent(dest)}`, { method: "POST" });
    const body = await res.json();
    assert.equal(res.status, 200);
    assert.ok(body.bytes > 0);
    stop = true;
    await Promise.all(writers);
    assert.ok(acked.length > ackedBefore.length, "writes went on during the backup");

    const restoredDir = join(work, "restored");
    const r = cli(["restore", dest, "--data-dir", restoredDir]);
    assert.equal(r.status, 0, r.stderr);
    const restored = await startServer({ dataDir: restoredDir });
    try {
      const present = new Set((await rows(restored.tableClient(table))).map((e) => `${e.partitionKey}/${e.rowKey}`));
      const missing = ackedBefore.filter((k) => !present.has(`${k.partitionKey}/${k.rowKey}`));
      assert.deepEqual(missing, [], `${missing.length} acknowledged writes missing of ${ackedBefore.length}`);
    } finally {
      await restored.stop();
    }
  } finally {
    stop = true;
    await server.stop();
  }
});

// A free TCP port on loopback (for Azurite, which takes no --tablePort 0).
function freePort() {
  return new Promise((resolvePort) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

test("import --from-azurite reads the official emulator's database with types and ETags", async () => {
  const azurite = join(repoRoot, "node_modules", ".bin", "azurite-table");
  assert.ok(existsSync(azurite), "npm azurite is a devDependency (npm ci installs it)");
  const location = mkdtempSync(join(tmpdir(), "azurite-"));
  const port = await freePort();
  const child = spawn(azurite, ["--tableHost", "127.0.0.1", "--tablePort", String(port), "--location", location,
    "--disableTelemetry", "--silent", "--skipApiVersionCheck"], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const exited = new Promise((r) => child.on("exit", r));
  try {
    const deadline = Date.now() + 30000;
    while (!/successfully started/.test(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(log, /successfully started/);
    const cred = new AzureNamedKeyCredential(kDevAccount, kDevKey);
    const az = new TableClient(`http://127.0.0.1:${port}/${kDevAccount}`, "Migrated", cred, { allowInsecureConnection: true });
    await az.createTable();
    await az.createEntity({
      partitionKey: "p", rowKey: "every-type", S: "héllo", I32: 42, I64: { value: "9007199254740993", type: "Int64" },
      D: 3.5, DW: { value: "3", type: "Double" }, DN: { value: "NaN", type: "Double" }, DI: { value: "-Infinity", type: "Double" },
      B: true, DT: { value: "2024-01-02T03:04:05.1234567Z", type: "DateTime" },
      G: { value: "01234567-89ab-cdef-0123-456789abcdef", type: "Guid" }, Bin: new Uint8Array([0, 1, 255]),
    });
    await az.createEntity({ partitionKey: "q", rowKey: "", Empty: "" });
    const before = await rows(az);
    child.kill("SIGINT");
    await exited;
    const dbFile = join(location, "__azurite_db_table__.json");
    assert.match(readFileSync(dbFile, "utf8"), /every-type/);

    const dataDir = join(work, "from-azurite");
    const r = cli(["import", "--from-azurite", location, "--data-dir", dataDir]);
    assert.equal(r.status, 0, r.stderr);
    const server = await startServer({ dataDir });
    try {
      const after = await rows(server.tableClient("Migrated"));
      assert.equal(after.length, 2);
      for (let i = 0; i < 2; i++) {
        // Same instant: Azurite writes all seven fraction digits, the service (and Malachite)
        // trims trailing zeros (spec §3), so ...43.1459750Z comes back as ...43.145975Z.
        const instant = (etag) => etag.replace(/(\.\d*?)0+Z/, "$1Z").replace(/\.Z/, "Z");
        assert.equal(instant(after[i].etag), instant(before[i].etag), "the ETag's instant carries over");
        assert.deepEqual({ ...after[i], etag: 0, timestamp: 0 }, { ...before[i], etag: 0, timestamp: 0 });
      }
      const raw = await server.tableClient("Migrated").getEntity("p", "every-type", { disableTypeConversion: true });
      assert.equal(raw.I64.type, "Int64");
      assert.equal(raw.I64.value, "9007199254740993");
      assert.equal(raw.G.type, "Guid");
      assert.equal(raw.G.value, "01234567-89ab-cdef-0123-456789abcdef");
      assert.equal(raw.DT.value, "2024-01-02T03:04:05.1234567Z");
      // JSON.parse reads 3.0 as 3: the exported line shows the Double.
      const exported = cli(["export", "--endpoint", server.accountUrl, "--table", "Migrated"]);
      assert.match(exported.stdout, /"D":3\.5,"DW":3\.0,"DN@odata\.type":"Edm\.Double","DN":"NaN"/);
    } finally {
      await server.stop();
    }
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(location, { recursive: true, force: true });
  }
});
