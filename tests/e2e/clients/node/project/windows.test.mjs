// @malachite/server on Windows x64, installed from the npm tarballs as a user installs them (the
// release workflow's windows job puts @azure/data-tables, @malachite/client, @malachite/server and
// the binary packages into a project beside this file: npm picks @malachite/server-win32-x64):
// the binary is that package's bin/malachite.exe; a server serves the SDK, stop() ends it through
// its closed stdin (Windows has no SIGTERM) with status 0, not by a kill; and no server outlives
// its process, whether that process ends by itself or is killed (TerminateProcess). Linux runs the
// same logic with process.platform faked (behaviour.test.mjs) and these checks skip there.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { TableClient } from "@azure/data-tables";
import { resolveBinary, startMalachite } from "@malachite/server";

const project = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const skip = process.platform === "win32" ? false : "runs on Windows (the release workflow's windows job)";
const work = mkdtempSync(join(tmpdir(), "malachite-windows-"));
after(() => rmSync(work, { recursive: true, force: true }));

// Signal 0 tests whether the process exists (Windows too: Node opens it, sends nothing).
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

async function goneWithin(pid, ms) {
  const start = Date.now();
  while (alive(pid)) {
    if (Date.now() - start > ms) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

test("the binary is @malachite/server-win32-x64's bin/malachite.exe", { skip }, () => {
  const pkg = dirname(require.resolve("@malachite/server-win32-x64/package.json"));
  assert.equal(resolveBinary(), join(pkg, "bin", "malachite.exe"));
});

test("a server serves the SDK, and stop() ends it through its closed stdin with status 0, well before the 5 s kill", { skip }, async () => {
  const dataDir = join(work, "data");
  const server = await startMalachite({ dataDir });
  let ms;
  try {
    const orders = TableClient.fromConnectionString(server.connectionString, "orders", { allowInsecureConnection: true });
    await orders.createTable();
    await orders.upsertEntity({ partitionKey: "eu", rowKey: "1", total: 9.5 });
    assert.equal((await orders.getEntity("eu", "1")).total, 9.5);
  } finally {
    const started = Date.now();
    await server.stop(); // rejects when it had to be killed or did not exit with 0
    ms = Date.now() - started;
  }
  assert.ok(ms < 4000, `stop() took ${ms} ms`);
  assert.ok(!alive(server.pid));
  assert.ok(existsSync(join(dataDir, "data.mdb")), "no data.mdb after the stop");
  console.log(`# stop() on Windows: ${ms} ms`);
});

// A node process in the project that starts a server, prints its pid, then exits (hold: false)
// or waits to be killed; resolves to { child, pid }.
function launcher(hold) {
  const script =
    'require("@malachite/server").startMalachite().then((s) => {' +
    ` console.log("server-pid " + s.pid); ${hold ? "setInterval(() => {}, 1000);" : ""} });`;
  const child = spawn(process.execPath, ["-e", script], { cwd: project, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /server-pid (\d+)/.exec(out);
      if (m) resolve({ child, pid: Number(m[1]) });
    });
    child.on("exit", (code) => /server-pid/.test(out) || reject(new Error(`the launcher exited (${code}): ${out}`)));
  });
}

test("a process that ends without stop() leaves no server: gone within 2 s of its end", { skip }, async () => {
  const { child, pid } = await launcher(false);
  if (child.exitCode === null) await new Promise((r) => child.on("exit", r));
  assert.ok(await goneWithin(pid, 2000), `server ${pid} still runs 2 s after its process ended`);
});

test("a process killed with TerminateProcess (child.kill()) leaves no server: gone within 2 s", { skip }, async () => {
  const { child, pid } = await launcher(true);
  assert.ok(alive(pid));
  child.kill();
  const started = Date.now();
  assert.ok(await goneWithin(pid, 2000), `server ${pid} still runs 2 s after its process was killed`);
  console.log(`# the server stopped ${Date.now() - started} ms after its process was killed`);
});
