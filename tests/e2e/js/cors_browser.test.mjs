// CORS as a real browser enforces it (spec §11.4): headless Chromium loads a page from another
// origin (a second local HTTP server) whose script calls Malachite with a table SAS via fetch —
// a GET (a simple request) and a JSON POST (preflighted). Without a matching CORS rule the
// browser blocks both; with one they succeed and the exposed header is readable.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AzureNamedKeyCredential, generateTableSas } from "@azure/data-tables";
import { startServer, uniqueTableName, kDevAccount, kDevKey } from "./harness.mjs";

function findChromium() {
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
    } catch {}
  }
  return null;
}

const chromium = findChromium();
const skip = chromium
  ? false
  : "chromium is not installed (scripts/install-deps installs Debian's `chromium`)";

// The page: fetches the entity set with the SAS, then inserts one entity, and writes the outcome
// into the DOM, which --dump-dom prints.
const kPage = `<!doctype html><html><head><meta charset="utf-8"><title>cors</title></head><body>
<script>
(async () => {
  const params = new URLSearchParams(location.search);
  const read = params.get("read"), insert = params.get("insert");
  const out = [];
  try {
    const r = await fetch(read, { headers: { Accept: "application/json;odata=nometadata" } });
    const body = await r.json();
    out.push("GET " + r.status + " n=" + body.value.length + " id=" +
             (r.headers.get("x-ms-request-id") ? "exposed" : "hidden"));
  } catch (e) {
    out.push("GET FAIL " + e.name);
  }
  try {
    const r = await fetch(insert, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json;odata=nometadata",
                 Prefer: "return-no-content" },
      body: JSON.stringify({ PartitionKey: "web", RowKey: String(Date.now()) }),
    });
    out.push("POST " + r.status);
  } catch (e) {
    out.push("POST FAIL " + e.name);
  }
  document.body.textContent = "RESULT[" + out.join("; ") + "]";
})();
</script></body></html>`;

let server;
let pages;
let pageOrigin;
let profileDir;

before(async () => {
  if (skip) return;
  server = await startServer();
  pages = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(kPage);
  });
  await new Promise((r) => pages.listen(0, "127.0.0.1", r));
  // Another origin than the emulator's http://127.0.0.1:<port>: another host name and port.
  pageOrigin = `http://localhost:${pages.address().port}`;
  profileDir = mkdtempSync(join(tmpdir(), "malachite-chromium-"));
});

after(async () => {
  if (pages) await new Promise((r) => pages.close(r));
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  await server?.stop();
});

// Loads the page in headless Chromium and returns what its script wrote.
function runPage(table, sas) {
  const base = `${server.accountUrl}/${table}`;
  const url = `${pageOrigin}/page.html?read=${encodeURIComponent(`${base}()?${sas}`)}` +
    `&insert=${encodeURIComponent(`${base}?${sas}`)}`;
  const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--no-first-run", "--disable-dev-shm-usage", `--user-data-dir=${profileDir}`,
    "--virtual-time-budget=10000", "--dump-dom", url];
  return new Promise((resolve, reject) => {
    execFile(chromium, args, { timeout: 60000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const match = /RESULT\[([^\]]*)\]/.exec(stdout);
      if (match) return resolve(match[1]);
      reject(new Error(`no result from chromium (${error?.message ?? "exit 0"}):\n${stdout}\n${stderr}`));
    });
  });
}

test("cors in a browser: without a rule for the page's origin fetch is blocked, with one it works",
  { skip, timeout: 180000 }, async () => {
    const table = uniqueTableName("cors");
    const owner = server.tableClient(table);
    await owner.createTable();
    await owner.createEntity({ partitionKey: "p", rowKey: "1" });
    const sas = generateTableSas(table, new AzureNamedKeyCredential(kDevAccount, kDevKey), {
      permissions: { query: true, add: true },
      expiresOn: new Date(Date.now() + 3600 * 1000),
    });
    const service = server.serviceClient();

    // No CORS rules: the browser refuses to hand the answers to the page.
    assert.equal(await runPage(table, sas), "GET FAIL TypeError; POST FAIL TypeError");

    // A rule for another origin only: still blocked.
    const rule = {
      allowedOrigins: "http://elsewhere.example",
      allowedMethods: "GET,POST",
      allowedHeaders: "content-type,accept,prefer",
      exposedHeaders: "x-ms-request-id",
      maxAgeInSeconds: 0,
    };
    await service.setProperties({ cors: [rule] });
    assert.equal(await runPage(table, sas), "GET FAIL TypeError; POST FAIL TypeError");

    // A rule for the page's origin: the GET is readable (with the exposed header), the
    // preflighted POST goes through.
    await service.setProperties({ cors: [{ ...rule, allowedOrigins: pageOrigin }] });
    assert.equal(await runPage(table, sas), "GET 200 n=1 id=exposed; POST 204");

    // The rule allows GET only: the preflight for POST fails, the GET still works.
    await service.setProperties({ cors: [{ ...rule, allowedOrigins: pageOrigin, allowedMethods: "GET" }] });
    assert.equal(await runPage(table, sas), "GET 200 n=2 id=exposed; POST FAIL TypeError");
  });
