// Host-style URLs (spec §1.1) with @azure/data-tables: http://devstoreaccount1.localhost:<port>
// addresses the account, as https://<account>.table.core.windows.net does on Azure. Node does not
// resolve *.localhost by itself (getaddrinfo on Debian knows only "localhost"), so the clients get
// an agent whose lookup sends every name to 127.0.0.1 (access.mjs); the Host header and the
// signature are those of the host-style URL.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from "@azure/data-tables";
import { startServer, kDevAccount, kDevKey, expectError, uniqueTableName, capture } from "./harness.mjs";
import { localhostAgent } from "./access.mjs";

let server;
let offServer;
const credential = new AzureNamedKeyCredential(kDevAccount, kDevKey);
const agent = localhostAgent();
const options = { agent, allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

before(async () => {
  server = await startServer({ inMemory: true });
  offServer = await startServer({ inMemory: true, args: ["--host-style", "off"] });
});

after(async () => {
  await server?.stop();
  await offServer?.stop();
});

const hostUrl = (s = server) => `http://${kDevAccount}.localhost:${s.port}`;

test("a host-style connection string works for tables, entities, batches and queries", async () => {
  const connection = `DefaultEndpointsProtocol=http;AccountName=${kDevAccount};AccountKey=${kDevKey};` +
    `TableEndpoint=${hostUrl()};`;
  const service = TableServiceClient.fromConnectionString(connection, options);
  const name = uniqueTableName("host");
  await service.createTable(name);
  const table = TableClient.fromConnectionString(connection, name, options);
  const created = capture();
  await table.createEntity({ partitionKey: "p", rowKey: "r1", n: 1 }, created.options);
  assert.equal(created.status, 204);
  await table.submitTransaction([
    ["create", { partitionKey: "p", rowKey: "r2", n: 2 }],
    ["upsert", { partitionKey: "p", rowKey: "r3", n: 3 }],
  ]);
  await table.updateEntity({ partitionKey: "p", rowKey: "r1", n: 10 }, "Merge");
  const rows = [];
  for await (const e of table.listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })) {
    rows.push(`${e.rowKey}=${e.n}`);
  }
  assert.deepEqual(rows, ["r1=10", "r2=2", "r3=3"]);
  const names = [];
  for await (const t of service.listTables()) names.push(t.name);
  assert.ok(names.includes(name));
  await table.deleteEntity("p", "r3");
  await expectError(table.getEntity("p", "r3"), 404, "ResourceNotFound");
  await service.deleteTable(name);
});

test("odata links name the host, not an account path segment", async () => {
  const name = uniqueTableName("links");
  const table = new TableClient(hostUrl(), name, credential, options);
  await table.createTable();
  await table.createEntity({ partitionKey: "p", rowKey: "r" });
  const raw = capture();
  await table.getEntity("p", "r", { ...raw.options, requestOptions: {
    customHeaders: { Accept: "application/json;odata=fullmetadata" } } });
  const body = JSON.parse(raw.body);
  assert.equal(body["odata.metadata"], `${hostUrl()}/$metadata#${name}/@Element`);
  assert.equal(body["odata.id"], `${hostUrl()}/${name}(PartitionKey='p',RowKey='r')`);
});

test("ACL, service properties and the secondary's stats over host style", async () => {
  const service = new TableServiceClient(hostUrl(), credential, options);
  const properties = await service.getProperties();
  assert.equal(properties.logging?.version, "1.0");
  await service.setProperties({ cors: [{ allowedOrigins: "https://example.com", allowedMethods: "GET",
    allowedHeaders: "", exposedHeaders: "", maxAgeInSeconds: 60 }] });
  assert.equal((await service.getProperties()).cors?.[0]?.allowedOrigins, "https://example.com");
  // The SDK moves Get Table Service Stats to <account>-secondary.<rest of the host>.
  const stats = await service.getStatistics();
  assert.equal(stats.geoReplication?.status, "live");
  const name = uniqueTableName("acl");
  const table = new TableClient(hostUrl(), name, credential, options);
  await table.createTable();
  await table.setAccessPolicy([{ id: "p1", accessPolicy: { permission: "r",
    start: new Date("2026-01-01T00:00:00Z"), expiry: new Date("2027-01-01T00:00:00Z") } }]);
  const acl = await table.getAccessPolicy();
  assert.deepEqual(acl.map((s) => s.id), ["p1"]);
});

test("path style keeps working on the same port, and both styles see the same data", async () => {
  const name = uniqueTableName("both");
  const hosted = new TableClient(hostUrl(), name, credential, options);
  await hosted.createTable();
  await hosted.createEntity({ partitionKey: "p", rowKey: "r", via: "host" });
  const pathed = server.tableClient(name);
  assert.equal((await pathed.getEntity("p", "r")).via, "host");
});

test("a wrong key is refused on the host-style URL too", async () => {
  const wrong = new AzureNamedKeyCredential(kDevAccount, Buffer.from("wrong key").toString("base64"));
  const service = new TableServiceClient(hostUrl(), wrong, options);
  await expectError(service.createTable(uniqueTableName("bad")), 403, "AuthenticationFailed");
});

test("--host-style off: the host is ignored, so the path's first segment is the account", async () => {
  const service = new TableServiceClient(hostUrl(offServer), credential, options);
  // "/Tables" now names an account "Tables" and no resource.
  await expectError(service.createTable(uniqueTableName("off")), 400, "InvalidUri");
  const pathStyle = new TableServiceClient(
    `http://${kDevAccount}.localhost:${offServer.port}/${kDevAccount}`, credential, options);
  await pathStyle.createTable(uniqueTableName("off"));
});
