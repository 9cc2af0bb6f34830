// Table operations through @azure/data-tables (spec §4.1–4.4, §9.1).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { startServer, expectError, capture, uniqueTableName } from "./harness.mjs";

let server;
let service;

before(async () => {
  server = await startServer();
  service = server.serviceClient();
});
after(async () => {
  await server?.stop();
});

async function listNames(options) {
  const names = [];
  for await (const table of service.listTables(options)) names.push(table.name);
  return names;
}

test("tables: a created table is listed, and disappears after delete", async () => {
  const name = uniqueTableName("create");
  const created = capture();
  await service.createTable(name, created.options);
  assert.equal(created.status, 201, created.body);
  assert.match(created.body, new RegExp(`"TableName":"${name}"`));

  assert.ok((await listNames()).includes(name));
  const deleted = capture();
  await service.deleteTable(name, deleted.options);
  assert.equal(deleted.status, 204);
  assert.ok(!(await listNames()).includes(name));
});

test("tables: creating an existing table answers 409 TableAlreadyExists, also in another case", async () => {
  const name = uniqueTableName("dup");
  await service.createTable(name);
  for (const again of [name, name.toUpperCase()]) {
    const response = capture();
    await service.createTable(again, response.options); // the SDK swallows the 409 but reports it
    assert.equal(response.status, 409, `create ${again}: ${response.body}`);
    assert.equal(response.code, "TableAlreadyExists");
  }
  await service.deleteTable(name);
});

test("tables: the stored case of a name is preserved and lookups ignore case", async () => {
  const name = `MiXeD${uniqueTableName("c")}`;
  await service.createTable(name);
  assert.ok((await listNames()).includes(name));
  const client = server.tableClient(name.toLowerCase());
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
  const entity = await server.tableClient(name.toUpperCase()).getEntity("p", "r");
  assert.equal(entity.v, 1);
  await service.deleteTable(name.toLowerCase());
  assert.ok(!(await listNames()).includes(name));
});

test("tables: listTables byPage pages with NextTableName and sees every table exactly once", async () => {
  const prefix = `page${process.pid}`;
  const names = [];
  for (let i = 0; i < 7; i++) names.push(`${prefix}n${i}`);
  for (const name of names) await service.createTable(name);

  const seen = [];
  let pages = 0;
  let sawContinuation = false;
  for await (const page of service.listTables().byPage({ maxPageSize: 2 })) {
    pages += 1;
    assert.ok(page.length <= 2, `page of ${page.length} tables with maxPageSize 2`);
    if (page.continuationToken) sawContinuation = true;
    for (const table of page) seen.push(table.name);
  }
  assert.ok(sawContinuation, "no x-ms-continuation-NextTableName was returned");
  assert.ok(pages >= 4, `only ${pages} pages for at least 7 tables`);
  const ours = seen.filter((n) => n.startsWith(prefix));
  assert.deepEqual([...ours].sort(), [...names].sort());
  assert.equal(new Set(seen).size, seen.length, `a table was listed twice: ${seen}`);

  // Resuming from a page's token continues right after that page.
  const iterator = service.listTables().byPage({ maxPageSize: 3 });
  const first = (await iterator.next()).value;
  const resumed = (
    await service.listTables().byPage({ maxPageSize: 3, continuationToken: first.continuationToken }).next()
  ).value;
  const all = seen;
  assert.deepEqual(
    resumed.map((t) => t.name),
    all.slice(3, 3 + resumed.length),
  );

  for (const name of names) await service.deleteTable(name);
});

test("tables: query by name prefix and by exact name", async () => {
  const prefix = `pre${process.pid}`;
  const matching = [`${prefix}a`, `${prefix}b`, `${prefix}c`];
  const other = `zz${prefix}`;
  for (const name of [...matching, other]) await service.createTable(name);

  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const filter = odata`TableName ge ${prefix} and TableName lt ${upper}`;
  const byPrefix = await listNames({ queryOptions: { filter } });
  assert.deepEqual(byPrefix.sort(), matching);

  const exact = await listNames({ queryOptions: { filter: odata`TableName eq ${other}` } });
  assert.deepEqual(exact, [other]);

  for (const name of [...matching, other]) await service.deleteTable(name);
});

test("tables: invalid names answer InvalidResourceName or OutOfRangeInput", async () => {
  const cases = [
    ["my_table", "InvalidResourceName"],
    ["1abc", "InvalidResourceName"],
    ["ab-cd", "InvalidResourceName"],
    ["tables", "InvalidResourceName"],
    ["ab", "OutOfRangeInput"],
    ["a".repeat(64), "OutOfRangeInput"],
  ];
  for (const [name, code] of cases) {
    await expectError(service.createTable(name), 400, code).catch((e) => {
      throw new Error(`createTable(${JSON.stringify(name)}): ${e.message}`);
    });
  }
  // The longest and shortest legal names work.
  for (const name of ["abc", "a".repeat(63)]) {
    await service.createTable(name);
    await service.deleteTable(name);
  }
});

test("tables: a name with reserved characters answers the name errors on every operation", async () => {
  // The SDK percent-encodes the name into the path (a%2F%2F); the service judges the decoded
  // name (spec §9.1), so the SDK's users see the table-name errors, not InvalidUri.
  const entity = { partitionKey: "p", rowKey: "r" };
  for (const [name, code] of [["a//", "InvalidResourceName"], ["ab?c", "InvalidResourceName"],
    ["ab#c", "InvalidResourceName"], ["a/", "OutOfRangeInput"]]) {
    const client = server.tableClient(name);
    const calls = {
      createEntity: () => client.createEntity(entity),
      getEntity: () => client.getEntity("p", "r"),
      upsertEntity: () => client.upsertEntity(entity, "Merge"),
      deleteEntity: () => client.deleteEntity("p", "r"),
      listEntities: () => client.listEntities().next(),
      getAccessPolicy: () => client.getAccessPolicy(),
      setAccessPolicy: () => client.setAccessPolicy([{ id: "x", accessPolicy: { permission: "r" } }]),
      submitTransaction: () => client.submitTransaction([["create", entity]]),
      deleteTable: () => client.deleteTable(),
    };
    for (const [what, call] of Object.entries(calls)) {
      if (what === "deleteTable") {
        const response = capture();  // the SDK swallows a failed delete's status: read the wire
        await client.deleteTable(response.options).catch(() => {});
        assert.equal(response.status, 400, `${name} ${what}: ${response.body}`);
        assert.equal(response.code, code, `${name} ${what}`);
        continue;
      }
      await expectError(call(), 400, code).catch((e) => {
        throw new Error(`${what} on ${JSON.stringify(name)}: ${e.message}`);
      });
    }
  }
});

test("tables: deleting a missing table answers 404 TableNotFound", async () => {
  const response = capture();
  await service.deleteTable(uniqueTableName("missing"), response.options); // the SDK swallows the 404
  assert.equal(response.status, 404, response.body);
  assert.equal(response.code, "TableNotFound");
});

test("tables: deleting a table deletes its entities", async () => {
  const name = uniqueTableName("drop");
  const client = server.tableClient(name);
  await client.createTable();
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: "old" });
  await client.deleteTable();
  await client.createTable();
  await expectError(client.getEntity("p", "r"), 404, "ResourceNotFound");
  await client.deleteTable();
});

test("tables: entity operations on a missing table answer 404 TableNotFound", async () => {
  const client = server.tableClient(uniqueTableName("nope"));
  await expectError(client.createEntity({ partitionKey: "p", rowKey: "r" }), 404, "TableNotFound");
  await expectError(client.getEntity("p", "r"), 404, "TableNotFound");
  await expectError(client.upsertEntity({ partitionKey: "p", rowKey: "r" }, "Replace"), 404, "TableNotFound");
  const list = client.listEntities();
  await expectError(list.next(), 404, "TableNotFound");
});
