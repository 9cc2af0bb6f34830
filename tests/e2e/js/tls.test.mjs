// HTTPS with --cert/--key: a self-signed certificate made by the openssl CLI at test time, trusted
// the way users do it (NODE_EXTRA_CA_CERTS, read by node at startup, so the SDK calls run in a
// child node), and a bearer-token client, which the SDK only allows over https (with --loose).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, kDevAccount, kDevKey } from "./harness.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

function haveOpenssl() {
  return spawnSync("openssl", ["version"]).status === 0;
}

let dir;
let cert;
let server;
let looseServer;

before(async () => {
  if (!haveOpenssl()) return;
  dir = mkdtempSync(join(tmpdir(), "malachite-tls-"));
  cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ], { stdio: "ignore" });
  server = await startServer({ args: ["--cert", cert, "--key", key] });
  looseServer = await startServer({ inMemory: true, args: ["--cert", cert, "--key", key, "--loose"] });
});

after(async () => {
  await server?.stop();
  await looseServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Runs `body` (an async function body using TableClient, TableServiceClient, AzureNamedKeyCredential,
// url, account, key) in a fresh node with `env` against `target` (default: the strict server);
// returns its exit status, what it printed (JSON) and its stderr.
function runClient(body, env, target = server) {
  const script = `
    import { TableClient, TableServiceClient, AzureNamedKeyCredential } from "@azure/data-tables";
    const url = process.env.URL, account = process.env.ACCOUNT, key = process.env.KEY;
    const out = await (async () => { ${body} })();
    console.log(JSON.stringify(out));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60000,
    env: { ...process.env, URL: `https://127.0.0.1:${target.port}/${kDevAccount}`,
           ACCOUNT: kDevAccount, KEY: kDevKey, ...env },
  });
  return { status: result.status, out: result.stdout.trim(), err: result.stderr };
}

test("the SDK works over https when NODE_EXTRA_CA_CERTS names the certificate", { skip: !haveOpenssl() && "no openssl CLI" }, () => {
  const result = runClient(`
    const credential = new AzureNamedKeyCredential(account, key);
    const service = new TableServiceClient(url, credential, { retryOptions: { maxRetries: 0 } });
    await service.createTable("jstls");
    const table = new TableClient(url, "jstls", credential, { retryOptions: { maxRetries: 0 } });
    await table.createEntity({ partitionKey: "p", rowKey: "r1", n: 1 });
    await table.submitTransaction([["upsert", { partitionKey: "p", rowKey: "r2", n: 2 }]]);
    const rows = [];
    for await (const e of table.listEntities()) rows.push(e.rowKey + "=" + e.n);
    return rows;`, { NODE_EXTRA_CA_CERTS: cert });
  assert.equal(result.status, 0, result.err);
  assert.deepEqual(JSON.parse(result.out), ["r1=1", "r2=2"]);
});

test("without the certificate the SDK refuses the connection", { skip: !haveOpenssl() && "no openssl CLI" }, () => {
  const result = runClient(`
    const table = new TableClient(url, "jstls", new AzureNamedKeyCredential(account, key),
                                  { retryOptions: { maxRetries: 0 } });
    try { await table.getEntity("p", "r1"); return "connected"; }
    catch (e) { return e.code ?? e.message; }`, { NODE_EXTRA_CA_CERTS: "" });
  assert.equal(result.status, 0, result.err);
  assert.match(JSON.parse(result.out), /SELF_SIGNED|self.signed|CERT/i);
});

test("a bearer-token client (https only in the SDK) is served under --loose", { skip: !haveOpenssl() && "no openssl CLI" }, () => {
  const result = runClient(`
    const credential = { getToken: async () => ({ token: "not-checked", expiresOnTimestamp: Date.now() + 3600e3 }) };
    const table = new TableClient(url, "jstoken", credential, { retryOptions: { maxRetries: 0 } });
    await table.createTable();
    await table.upsertEntity({ partitionKey: "p", rowKey: "r", who: "token" });
    return (await table.getEntity("p", "r")).who;`, { NODE_EXTRA_CA_CERTS: cert }, looseServer);
  assert.equal(result.status, 0, result.err);
  assert.equal(JSON.parse(result.out), "token");
});
