// Shared access signatures through @azure/data-tables (spec §10.7–10.8, §11.1): tokens from the
// SDK's own generateTableSas / generateAccountSas, used with AzureSASCredential.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  TableClient,
  TableServiceClient,
  generateAccountSas,
  generateTableSas,
} from "@azure/data-tables";
import { startServer, expectError, uniqueTableName, kDevAccount, kDevKey } from "./harness.mjs";
import { sendSigned } from "./signed_http.mjs";

let server;
let service;
const credential = new AzureNamedKeyCredential(kDevAccount, kDevKey);
const options = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
const inOneHour = () => new Date(Date.now() + 3600 * 1000);

before(async () => {
  server = await startServer();
  service = server.serviceClient();
});
after(async () => {
  await server?.stop();
});

// A table with PartitionKeys a..e and RowKeys 1..3.
async function populatedTable(prefix) {
  const name = uniqueTableName(prefix);
  const owner = server.tableClient(name);
  await owner.createTable();
  for (const pk of ["a", "b", "c", "d", "e"]) {
    for (const rk of ["1", "2", "3"]) await owner.createEntity({ partitionKey: pk, rowKey: rk });
  }
  return { name, owner };
}

function sasTableClient(name, sas) {
  return new TableClient(server.accountUrl, name, new AzureSASCredential(sas), options);
}

async function keysOf(client, queryOptions) {
  const keys = [];
  for await (const e of client.listEntities(queryOptions)) keys.push(`${e.partitionKey}/${e.rowKey}`);
  return keys;
}

test("sas: a table SAS with a key range sees only its range and refuses writes outside", async () => {
  const { name } = await populatedTable("sasrange");
  const sas = generateTableSas(name, credential, {
    permissions: { query: true, add: true, update: true, delete: true },
    expiresOn: inOneHour(),
    startPartitionKey: "b",
    startRowKey: "2",
    endPartitionKey: "d",
    endRowKey: "1",
  });
  const client = sasTableClient(name, sas);
  assert.deepEqual(await keysOf(client), ["b/2", "b/3", "c/1", "c/2", "c/3", "d/1"]);
  assert.deepEqual(await keysOf(client, { queryOptions: { filter: "RowKey eq '1'" } }), ["c/1", "d/1"]);
  // Paged: continuation stays inside the range.
  const pages = [];
  for await (const page of client.listEntities().byPage({ maxPageSize: 4 })) {
    pages.push(page.map((e) => `${e.partitionKey}/${e.rowKey}`));
  }
  assert.deepEqual(pages, [["b/2", "b/3", "c/1", "c/2"], ["c/3", "d/1"]]);

  assert.equal((await client.getEntity("c", "2")).rowKey, "2");
  // spec §10.8: a point read outside the range finds nothing (404); writes outside it: 403.
  await expectError(client.getEntity("a", "1"), 404, "ResourceNotFound");
  await expectError(client.createEntity({ partitionKey: "z", rowKey: "1" }), 403, "AuthorizationFailure");
  await client.createEntity({ partitionKey: "c", rowKey: "9" });
  await expectError(client.deleteEntity("e", "1"), 403, "AuthorizationFailure");
  await client.upsertEntity({ partitionKey: "b", rowKey: "5", v: 1 }, "Merge");
  await client.deleteEntity("b", "5");
  // A transaction is authorized operation by operation.
  await expectError(
    client.submitTransaction([["create", { partitionKey: "a", rowKey: "7" }]]),
    403,
    "AuthorizationFailure",
  );
});

test("sas: permissions, table name and expiry are enforced", async () => {
  const { name } = await populatedTable("sasperm");
  const readOnly = sasTableClient(name, generateTableSas(name, credential, {
    permissions: { query: true },
    expiresOn: inOneHour(),
  }));
  assert.equal((await keysOf(readOnly)).length, 15);
  await expectError(readOnly.deleteEntity("a", "1"), 403, "AuthorizationPermissionMismatch");
  await expectError(readOnly.createEntity({ partitionKey: "x", rowKey: "1" }), 403, "AuthorizationPermissionMismatch");
  // Upserts need add and update.
  const addOnly = sasTableClient(name, generateTableSas(name, credential, {
    permissions: { add: true },
    expiresOn: inOneHour(),
  }));
  await addOnly.createEntity({ partitionKey: "x", rowKey: "1" });
  await expectError(addOnly.upsertEntity({ partitionKey: "x", rowKey: "2" }), 403, "AuthorizationPermissionMismatch");

  const other = uniqueTableName("sasother");
  await server.tableClient(other).createTable();
  const wrongTable = sasTableClient(other, generateTableSas(name, credential, {
    permissions: { query: true },
    expiresOn: inOneHour(),
  }));
  await expectError(keysOf(wrongTable), 403, "AuthorizationFailure");

  const expired = sasTableClient(name, generateTableSas(name, credential, {
    permissions: { query: true },
    startsOn: new Date(Date.now() - 7200 * 1000),
    expiresOn: new Date(Date.now() - 3600 * 1000),
  }));
  await expectError(keysOf(expired), 403, "AuthenticationFailed");
  const notYet = sasTableClient(name, generateTableSas(name, credential, {
    permissions: { query: true },
    startsOn: new Date(Date.now() + 3600 * 1000),
    expiresOn: new Date(Date.now() + 7200 * 1000),
  }));
  await expectError(keysOf(notYet), 403, "AuthenticationFailed");
  const forged = generateTableSas(name, credential, { permissions: { query: true }, expiresOn: inOneHour() })
    .replace("sp=r", "sp=rd");
  await expectError(keysOf(sasTableClient(name, forged)), 403, "AuthenticationFailed");
});

test("sas: a stored access policy set with setAccessPolicy backs a token until it is removed", async () => {
  const { name, owner } = await populatedTable("saspolicy");
  const expiry = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600 * 1000);
  await owner.setAccessPolicy([
    { id: "readers", accessPolicy: { permission: "r", expiry } },
    { id: "writers", accessPolicy: { permission: "raud", start: new Date("2020-01-01T00:00:00Z"), expiry } },
  ]);
  const acl = await owner.getAccessPolicy();
  assert.deepEqual(
    acl.map((s) => [s.id, s.accessPolicy?.permission, s.accessPolicy?.expiry?.toISOString()]),
    [["readers", "r", expiry.toISOString()], ["writers", "raud", expiry.toISOString()]],
  );

  const client = sasTableClient(name, generateTableSas(name, credential, { identifier: "readers" }));
  assert.equal((await keysOf(client)).length, 15);
  await expectError(client.deleteEntity("a", "1"), 403, "AuthorizationPermissionMismatch");

  // Changed after the token was issued: takes effect on the next request.
  await owner.setAccessPolicy([{ id: "readers", accessPolicy: { permission: "rd", expiry } }]);
  await client.deleteEntity("a", "1");
  // Removed: the token no longer authenticates.
  await owner.setAccessPolicy([]);
  await expectError(keysOf(client), 403, "AuthenticationFailed");
  assert.deepEqual(await owner.getAccessPolicy(), []);

  const six = Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, accessPolicy: { permission: "r" } }));
  await expectError(owner.setAccessPolicy(six), 400, "InvalidXmlDocument");
});

test("sas: identifiers without a policy come back as no policy, times with 7 fractional digits", async () => {
  // The SDK's own "should send a null AP" test (spec §11.1).
  const name = uniqueTableName("aclnull");
  const owner = server.tableClient(name);
  await owner.createTable();
  const date = new Date("2021-07-08T09:10:09Z");
  await owner.setAccessPolicy([
    { id: "null" },
    { id: "empty", accessPolicy: {} },
    { id: "partial", accessPolicy: { permission: "r" } },
    { id: "full", accessPolicy: { start: date, expiry: date, permission: "r" } },
  ]);
  const acl = await owner.getAccessPolicy();
  assert.deepEqual(acl.map((s) => s.id), ["null", "empty", "partial", "full"]);
  assert.deepEqual(acl[0].accessPolicy, {});
  assert.deepEqual(acl[1].accessPolicy, {});
  assert.deepEqual(acl[2].accessPolicy, { permission: "r" });
  assert.deepEqual(acl[3].accessPolicy, { start: date, expiry: date, permission: "r" });

  // On the wire: no <AccessPolicy> element, and the service's 7-digit times.
  const response = await sendSigned(server, "GET", `/${name}?comp=acl`, {
    headers: { Accept: "application/xml" },
  });
  const xml = response.text;
  assert.equal(response.status, 200, xml);
  assert.match(xml, /<SignedIdentifier><Id>null<\/Id><\/SignedIdentifier>/);
  assert.match(xml, /<SignedIdentifier><Id>empty<\/Id><\/SignedIdentifier>/);
  assert.match(xml, /<Start>2021-07-08T09:10:09\.0000000Z<\/Start>/);
});

test("sas: an account SAS from generateAccountSas lists and creates tables per its resource types", async () => {
  const { name } = await populatedTable("sasacct");
  const sas = generateAccountSas(credential, {
    expiresOn: inOneHour(),
    permissions: { query: true, list: true, write: true, add: true, update: true, delete: true },
    resourceTypes: "sco",
  });
  const sasService = new TableServiceClient(server.accountUrl, new AzureSASCredential(sas), options);
  const names = [];
  for await (const t of sasService.listTables()) names.push(t.name);
  assert.ok(names.includes(name));
  const created = uniqueTableName("sasmade");
  await sasService.createTable(created);
  const entities = sasTableClient(created, sas);
  await entities.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
  assert.equal((await entities.getEntity("p", "r")).v, 1);
  const properties = await sasService.getProperties();
  assert.ok(properties.hourMetrics);

  const objectsOnly = generateAccountSas(credential, {
    expiresOn: inOneHour(),
    permissions: { query: true, list: true },
    resourceTypes: "o",
  });
  const limited = new TableServiceClient(server.accountUrl, new AzureSASCredential(objectsOnly), options);
  await expectError(limited.listTables().next(), 403, "AuthorizationResourceTypeMismatch");
  assert.equal((await keysOf(sasTableClient(name, objectsOnly))).length, 15);
  // ACLs are for the account owner only.
  await expectError(sasTableClient(name, sas).getAccessPolicy(), 403, "AuthorizationFailure");
});

test("sas: service properties round-trip through setProperties/getProperties", async () => {
  const rule = {
    allowedOrigins: "http://app.example",
    allowedMethods: "GET,PUT",
    allowedHeaders: "x-ms-*",
    exposedHeaders: "x-ms-request-id",
    maxAgeInSeconds: 30,
  };
  await service.setProperties({ cors: [rule] });
  const properties = await service.getProperties();
  assert.deepEqual(properties.cors, [rule]);
  assert.equal(properties.hourMetrics.enabled, true);
  await expectError(
    service.setProperties({ cors: [{ ...rule, allowedMethods: "PATCH" }] }),
    400,
    "InvalidXmlNodeValue",
  );
  await service.setProperties({ cors: [] });
  assert.deepEqual((await service.getProperties()).cors ?? [], []);
});

test("sas: getStatistics on a client pointed at the -secondary path signs the path as sent and succeeds", async () => {
  // The JS SDK moves only *.table.core.windows.net hosts to the secondary; on a path-style
  // endpoint the user points the client at /<account>-secondary, and the SDK signs
  // "/devstoreaccount1/devstoreaccount1-secondary/?comp=stats" (spec §10.4, §4.16).
  const secondary = new TableServiceClient(`${server.accountUrl}-secondary`, credential, options);
  const stats = await secondary.getStatistics();
  assert.equal(stats.geoReplication?.status, "live");
  assert.ok(stats.geoReplication?.lastSyncTime instanceof Date);
  // A wrong key on the same path still fails, and the primary path has no stats.
  const wrong = new TableServiceClient(`${server.accountUrl}-secondary`,
    new AzureNamedKeyCredential(kDevAccount, Buffer.from("not the key").toString("base64")), options);
  await expectError(wrong.getStatistics(), 403, "AuthenticationFailed");
  await expectError(service.getStatistics(), 400, "InvalidQueryParameterValue");
});
