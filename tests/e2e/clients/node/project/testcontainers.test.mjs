// @malachite/testcontainers against a real Docker engine (run by ../packed_install.test.mjs in its
// clean project, with the image built from scripts/package's image context, named by
// MALACHITE_IMAGE, and Ryuk off):
// the image a required argument, the SDK through getConnectionString(), seed fixtures, reset(),
// accounts made from the host through the mapped port, and the admin rule that makes the bearer
// key necessary there.
import assert from "node:assert/strict";
import http from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { TableClient } from "@azure/data-tables";
import * as exported from "@malachite/testcontainers";
import { MalachiteAdminError, MalachiteContainer } from "@malachite/testcontainers";

const image = process.env.MALACHITE_IMAGE;
assert.ok(image, "MALACHITE_IMAGE names the image to run (../packed_install.test.mjs sets it)");
const work = mkdtempSync(join(tmpdir(), "malachite-tc-"));
after(() => rmSync(work, { recursive: true, force: true }));
const sdkOptions = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

async function rows(client) {
  const out = [];
  for await (const row of client.listEntities()) out.push(row);
  return out;
}

function post(port, path) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers: { "Content-Length": "0" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end();
  });
}

test("the image is required, as @testcontainers/azurite's: no default tag that no registry has", () => {
  for (const missing of [undefined, "", "  ", 42]) {
    assert.throws(() => new MalachiteContainer(missing), (e) =>
      e instanceof TypeError && /the image is required, with its tag, e\.g\. new MalachiteContainer\("ghcr\.io\//.test(e.message));
  }
  assert.equal("DEFAULT_IMAGE" in exported, false);
});

test("a seeded container: the SDK through getConnectionString(), reset(), accounts through the mapped port", async () => {
  const seed = join(work, "seed");
  mkdirSync(seed, { recursive: true });
  writeFileSync(join(seed, "customers.jsonl"), '{"PartitionKey":"eu","RowKey":"1","Name":"Ada"}\n');
  const container = await new MalachiteContainer(image).withSeed(seed).withArgs(["--throttling", "off"]).start();
  try {
    const port = container.getPort();
    assert.notEqual(port, 10002);
    assert.equal(container.getTableUrl(), `http://${container.getHost()}:${port}/devstoreaccount1`);
    assert.match(container.getConnectionString(), new RegExp(`AccountName=devstoreaccount1;.*TableEndpoint=http://${container.getHost()}:${port}/devstoreaccount1;`));
    const customers = TableClient.fromConnectionString(container.getConnectionString(), "customers", sdkOptions);
    assert.deepEqual((await rows(customers)).map((e) => e.Name), ["Ada"]);
    await customers.upsertEntity({ partitionKey: "us", rowKey: "2", Name: "Grace" });
    const summary = await container.reset();
    assert.equal(summary.entities_seeded, 1);
    assert.deepEqual((await rows(customers)).map((e) => e.Name), ["Ada"]);
    await container.reset({ seed: false });
    await assert.rejects(customers.getEntity("eu", "1"), (e) => e.statusCode === 404);

    // The host is not the container's loopback: the admin endpoints want a key.
    assert.ok([401, 403].includes(await post(port, "/-/accounts")), "POST /-/accounts without a key was accepted");

    const a = await container.createAccount();
    const b = await container.createAccount({ name: "tcbravo" });
    assert.equal(a.tableUrl, `http://${container.getHost()}:${port}/${a.name}`);
    const inA = TableClient.fromConnectionString(a.connectionString, "orders", sdkOptions);
    const inB = TableClient.fromConnectionString(b.connectionString, "orders", sdkOptions);
    await inA.createTable();
    await inB.createTable();
    await inA.upsertEntity({ partitionKey: "p", rowKey: "1" });
    assert.equal((await rows(inB)).length, 0);
    assert.ok((await container.listAccounts()).some((x) => x.name === "tcbravo" && x.runtime));
    await assert.rejects(container.createAccount({ name: "tcbravo" }),
      (e) => e instanceof MalachiteAdminError && e.statusCode === 409 && e.code === "StorageAccountAlreadyTaken");
    await a.delete();
    await container.deleteAccount("tcbravo");
    assert.ok(!(await container.listAccounts()).some((x) => x.runtime));
  } finally {
    await container.stop();
  }
});

test("withInMemory(): the server keeps its data in memory", async () => {
  const container = await new MalachiteContainer(image).withInMemory().start();
  try {
    const logs = [];
    (await container.logs()).on("data", (line) => logs.push(String(line)));
    const client = TableClient.fromConnectionString(container.getConnectionString(), "mem", sdkOptions);
    await client.createTable();
    await client.upsertEntity({ partitionKey: "p", rowKey: "1", v: 1 });
    assert.equal((await client.getEntity("p", "1")).v, 1);
    for (let i = 0; i < 100 && !logs.some((l) => l.includes("data in memory")); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(logs.some((l) => l.includes("data in memory")), logs.join(""));
  } finally {
    await container.stop();
  }
});
