// The explorer (/-/explorer) in a real browser: Debian's chromium driven headless by
// playwright-core against a server started here. Creates a table and inserts an entity through
// the page's forms (with Int64 beyond 2^53, DateTime at 100 ns, Guid, Binary), queries it and
// reads the plan, sees an ETag conflict answered 412, runs a hot-partition workload and finds
// the advisor's findings, pages through 2,500 entities, and reads the charts, the bill and the
// fault rules. Screenshots go to a temp directory whose path is printed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer, uniqueTableName, forEachLimit } from "./harness.mjs";

const kChromium = "/usr/bin/chromium";
const skip = existsSync(kChromium)
  ? false
  : "chromium is not installed (scripts/install-deps installs Debian's `chromium`)";
// The page must work without the network: these flags keep chromium itself off it too.
const kFlags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"];
// A low per-partition target, so that the hot-partition workload is hot on a slow machine too.
const kPartitionRate = 100;

let server;
let browser;
let page;
let profileDir;
let shotsDir;
let shot = 0;
const pageErrors = [];

before(async () => {
  if (skip) return;
  server = await startServer({ args: ["--partition-rate", String(kPartitionRate)] });
  profileDir = mkdtempSync(join(tmpdir(), "malachite-explorer-profile-"));
  shotsDir = mkdtempSync(join(tmpdir(), "malachite-explorer-screenshots-"));
  console.log(`explorer screenshots: ${shotsDir}`);
  browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: kChromium, headless: true, args: kFlags, viewport: { width: 1440, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // Nothing but the server itself: any other request would be a fetch from the network.
  await page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.host === `127.0.0.1:${server.port}` || url.protocol === "data:") return route.continue();
    pageErrors.push(`request to ${url.href}`);
    return route.abort();
  });
});

after(async () => {
  await browser?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  await server?.stop();
  if (shotsDir) console.log(`explorer screenshots: ${shotsDir}`);
});

async function screenshot(name) {
  shot += 1;
  await page.screenshot({ path: join(shotsDir, `${String(shot).padStart(2, "0")}-${name}.png`), fullPage: true });
}

async function open(hash) {
  await page.goto(`http://127.0.0.1:${server.port}/-/explorer/${hash}`);
  await page.waitForSelector("#main section, #main .error");
  if (hash.startsWith("#/table/")) await page.waitForSelector("#results:not([data-busy])");
}

// Fills property row `index` of the entity form.
async function setProperty(index, name, type, value) {
  const row = page.locator(".prop-row").nth(index);
  await row.locator("input.name").fill(name);
  await row.locator("select").selectOption(type);
  const fresh = page.locator(".prop-row").nth(index);
  if (type === "Edm.Boolean") return fresh.locator("input[type=checkbox]").setChecked(value);
  await fresh.locator(".value-cell textarea, .value-cell input:not([type=file])").first().fill(value);
}

async function runQuery(filter, top = "100") {
  await page.fill("#filter", filter);
  await page.fill("#top", top);
  await page.click("#run");
  await page.waitForSelector("#results:not([data-busy])");
}

// The raw JSON the service answers for one entity (full metadata: every type annotated).
async function rawEntity(table, pk, rk) {
  const url = `http://127.0.0.1:${server.port}/-/explorer/table/devstoreaccount1/${table}` +
    `(PartitionKey='${pk}',RowKey='${rk}')`;
  const response = await fetch(url, { headers: { Accept: "application/json;odata=fullmetadata",
    "x-ms-version": "2019-02-02" } });
  assert.equal(response.status, 200);
  return response.text();
}

test("explorer: create a table, insert a typed entity through the form, query it, see the plan",
  { skip, timeout: 240000 }, async () => {
    const table = uniqueTableName("explore");
    await open("#/tables");
    assert.equal(await page.inputValue("#account"), "devstoreaccount1");
    await page.fill("#new-table", table);
    await page.click("text=Create table");
    await page.waitForSelector(`#tables a:text-is("${table}")`);
    await screenshot("tables");

    await page.click(`#tables a:text-is("${table}")`);
    await page.waitForSelector("#results:not([data-busy])");
    await page.click("#insert");
    await page.fill("#pk", "p1");
    await page.fill("#rk", "r1");
    const properties = [["Name", "Edm.String", "widget"], ["Big", "Edm.Int64", "9007199254740993"],
      ["When", "Edm.DateTime", "2024-05-01T12:30:00.1234567Z"], ["Id", "Edm.Guid", "0b5a2c1e-7f1d-4c3b-9a8e-1234567890ab"],
      ["Blob", "Edm.Binary", "AQID"], ["Price", "Edm.Double", "2.5"], ["Qty", "Edm.Int32", "42"], ["Ok", "Edm.Boolean", true]];
    for (let i = 0; i < properties.length; i++) {
      if (i > 0) await page.click("#add-property");
      await setProperty(i, ...properties[i]);
    }
    await screenshot("insert-form");
    await page.click("#save");
    await page.waitForSelector("text=Inserted (p1, r1).");

    // Stored exactly: Int64 beyond 2^53, 100 ns, every type.
    const raw = await rawEntity(table, "p1", "r1");
    for (const piece of ['"Big@odata.type":"Edm.Int64","Big":"9007199254740993"',
      '"When@odata.type":"Edm.DateTime","When":"2024-05-01T12:30:00.1234567Z"',
      '"Id@odata.type":"Edm.Guid","Id":"0b5a2c1e-7f1d-4c3b-9a8e-1234567890ab"',
      '"Blob@odata.type":"Edm.Binary","Blob":"AQID"', '"Price":2.5', '"Qty":42', '"Ok":true', '"Name":"widget"']) {
      assert.ok(raw.includes(piece), `${piece} in ${raw}`);
    }

    await runQuery("PartitionKey eq 'p1' and RowKey eq 'r1'");
    assert.equal(await page.textContent("#plan-service"), "point");
    assert.match(await page.textContent("#plan"), /scanned 1 · returned 1/);
    assert.equal(await page.locator("#entities tbody tr").count(), 1);
    await screenshot("point-query");
    await runQuery("Name eq 'widget'");
    assert.equal(await page.textContent("#plan-service"), "table-scan");
    await runQuery("Qty eq 'x' and");
    assert.match(await page.textContent("#results .error"), /^400 InvalidInput/);
    await screenshot("query-error");

    // The entity view shows every property with its EDM type.
    await runQuery("");
    await page.click("#entities tbody tr");
    const view = await page.textContent("#entity");
    for (const text of ["Edm.Int64", "9007199254740993", "Edm.DateTime", "2024-05-01T12:30:00.1234567Z",
      "Edm.Guid", "Edm.Binary", "AQID", "Edm.Double", "Edm.Int32", "Edm.Boolean"]) {
      assert.ok(view.includes(text), `${text} in the entity view`);
    }
    await screenshot("entity-view");

    // Edit with the ETag the page read, after someone else changed the entity: the service's 412.
    await page.click("#edit");
    await server.tableClient(table).updateEntity({ partitionKey: "p1", rowKey: "r1", Name: "changed" }, "Merge");
    await page.locator(".prop-row").nth(0).locator("textarea").fill("mine");
    await page.click("#save");
    const conflict = await page.textContent("#entity-form .error");
    assert.match(conflict, /^412 UpdateConditionNotSatisfied/);
    await screenshot("etag-conflict");
    // Unconditional Merge goes through.
    await page.selectOption("#mode", "merge");
    await page.uncheck("#if-match");
    await page.click("#save");
    await page.waitForSelector("text=Merged (p1, r1).");
    assert.ok((await rawEntity(table, "p1", "r1")).includes('"Name":"mine"'));
    assert.deepEqual(pageErrors, []);
  });

test("explorer: a hot-partition workload shows in the advisor, the charts and the bill",
  { skip, timeout: 240000 }, async () => {
    const table = uniqueTableName("hot");
    const client = server.tableClient(table);
    await client.createTable();
    // Time-bucketed PartitionKeys, one after the other: every insert goes to the newest key.
    for (let i = 0; i < 400; i++) {
      await client.createEntity({ partitionKey: `2026-11-24T10:${String(Math.floor(i / 80)).padStart(2, "0")}`,
        rowKey: String(i).padStart(6, "0"), Reading: i });
    }
    // Then a burst into one partition, 8 at a time.
    const burst = Array.from({ length: 400 }, (_, i) => i);
    await forEachLimit(burst, 8, (i) => client.createEntity({ partitionKey: "hot", rowKey: String(i), Reading: i }));
    for await (const entity of client.listEntities({ queryOptions: { filter: "Reading eq 7" } })) void entity;

    await open("#/advisor");
    await page.waitForSelector("#findings");
    const append = page.locator('.finding[data-id="append-only"]');
    assert.match(await append.textContent(), new RegExp(`${table}[\\s\\S]*800 entities inserted`));
    assert.match(await page.locator('.finding[data-id="hot-partition"]').first().textContent(), /Partition 'hot'/);
    assert.match(await page.locator('.finding[data-id="table-scan"]').textContent(), /Reading eq \?/);
    await screenshot("advisor");

    // The same findings as JSON, for CI.
    const advice = await (await fetch(`http://127.0.0.1:${server.port}/-/advisor?severity=warning`)).json();
    const ids = advice.findings.filter((f) => f.table.toLowerCase() === table.toLowerCase()).map((f) => f.id);
    assert.ok(ids.includes("append-only") && ids.includes("table-scan"), ids.join(","));

    await open("#/traffic");
    await page.waitForSelector("#chart-partitions path.series");
    assert.match(await page.textContent("#chart-partitions"), new RegExp(`target ${kPartitionRate}/s`));
    // The page polls /-/traffic each second and the server samples each second: on a loaded
    // machine the samples holding the inserts can arrive a poll or two after the first drawing.
    await page.waitForFunction(() => document.querySelector("#chart-requests")?.textContent.includes("InsertEntity"),
      null, { timeout: 20000 }).catch(() => {});
    assert.match(await page.textContent("#chart-requests"), /InsertEntity/);
    await screenshot("traffic");

    await open("#/bill");
    const bill = await (await fetch(`http://127.0.0.1:${server.port}/-/bill`)).json();
    const row = bill.accounts[0].tables.find((t) => t.table === table);
    assert.equal(row.operations.InsertEntity, 800);
    assert.equal(row.operations.QueryEntities, 1);
    assert.ok(Number((await page.textContent("#bill-total")).replaceAll(",", "")) >= 801);
    await screenshot("bill");
    assert.deepEqual(pageErrors, []);
  });

test("explorer: pages through 2,500 entities with continuation tokens",
  { skip, timeout: 240000 }, async () => {
    const table = uniqueTableName("pages");
    const client = server.tableClient(table);
    await client.createTable();
    for (let batch = 0; batch < 25; batch++) {
      await client.submitTransaction(Array.from({ length: 100 }, (_, i) =>
        ["create", { partitionKey: "p", rowKey: String(batch * 100 + i).padStart(5, "0"), N: batch * 100 + i }]));
    }
    await open(`#/table/${table}`);
    await runQuery("", "1000");
    const seen = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const info = await page.textContent("#page-info");
      assert.match(info, new RegExp(`^Page ${pageNumber} · `));
      for (const key of await page.locator("#entities tbody tr td:nth-child(2)").allTextContents()) seen.push(key);
      if (info.includes("last page")) break;
      await page.click("#next");
      await page.waitForSelector("#results:not([data-busy])");
    }
    assert.equal(seen.length, 2500);
    assert.deepEqual(seen, Array.from({ length: 2500 }, (_, i) => String(i).padStart(5, "0")));
    assert.ok(await page.isDisabled("#next"));
    await screenshot("last-page");
    await page.click("#prev");
    await page.waitForSelector("#results:not([data-busy])");
    assert.match(await page.textContent("#page-info"), /^Page 2 · 1000 entities · more pages$/);

    // A $batch is one transaction, each page one.
    const bill = await (await fetch(`http://127.0.0.1:${server.port}/-/bill`)).json();
    const row = bill.accounts[0].tables.find((t) => t.table === table);
    assert.equal(row.operations.EntityGroupTransaction, 25);
    assert.equal(row.operations.QueryEntities, undefined, "the explorer's own queries are not billed");
    assert.deepEqual(pageErrors, []);
  });

test("explorer: fault rules from the form, and deleting a table", { skip, timeout: 240000 }, async () => {
  const table = uniqueTableName("gone");
  await server.tableClient(table).createTable();
  await open("#/faults");
  await page.selectOption('[aria-label="Fault"]', "ServerBusy");
  await page.fill('[aria-label="Table"]', table);
  await page.fill('[aria-label="At most"]', "1");
  await page.click("#add-fault");
  await page.waitForSelector("#rules li");
  assert.match(await page.textContent("#rules"), new RegExp(`ServerBusy · p=1 · table=${table} · at most 1`));
  await screenshot("faults");
  const fired = await server.tableClient(table).createEntity({ partitionKey: "a", rowKey: "b" }).then(() => 0, (e) => e.statusCode);
  assert.equal(fired, 503);
  await page.click("#rules button");
  await page.waitForSelector("text=No fault rules");

  await open("#/tables");
  page.once("dialog", (dialog) => dialog.accept());
  await page.click(`[aria-label="Delete table ${table}"]`);
  await page.waitForSelector(`text=Deleted table ${table}.`);
  assert.equal(await page.locator(`#tables a:text-is("${table}")`).count(), 0);
  assert.deepEqual(pageErrors, []);
});
