// Authentication and custom accounts through @azure/data-tables (spec §1.4, §10, §14).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, expectError, uniqueTableName, kDevAccount, kDevKey } from "./harness.mjs";

const kCustomAccount = "malachitetest";
const kCustomKey = Buffer.from("malachite e2e custom account key, 32+ bytes").toString("base64");
const kWrongKey = Buffer.from("this is not the key of the account").toString("base64");

let server; // default account
let custom; // MALACHITE_ACCOUNTS=<custom account>

before(async () => {
  server = await startServer();
  custom = await startServer({ env: { MALACHITE_ACCOUNTS: `${kCustomAccount}:${kCustomKey}` } });
});
after(async () => {
  await server?.stop();
  await custom?.stop();
});

test("auth: a wrong account key answers 403 AuthenticationFailed", async () => {
  const table = uniqueTableName("auth");
  await server.tableClient(table).createTable();
  const wrong = server.tableClientFor(table, { account: kDevAccount, key: kWrongKey });
  await expectError(wrong.createEntity({ partitionKey: "p", rowKey: "r" }), 403, "AuthenticationFailed");
  await expectError(wrong.getEntity("p", "r"), 403, "AuthenticationFailed");
  await expectError(wrong.listEntities().next(), 403, "AuthenticationFailed");
  const wrongService = server.serviceClientFor({ account: kDevAccount, key: kWrongKey });
  await expectError(wrongService.listTables().next(), 403, "AuthenticationFailed");
  // Nothing was written by the rejected requests.
  await expectError(server.tableClient(table).getEntity("p", "r"), 404, "ResourceNotFound");
});

test("auth: an unknown account answers 403 AuthenticationFailed", async () => {
  const stranger = server.serviceClientFor({ account: "nosuchaccount", key: kDevKey });
  await expectError(stranger.listTables().next(), 403, "AuthenticationFailed");
});

test("auth: a custom account from MALACHITE_ACCOUNTS works on localhost, with MERGE tunnelled through POST", async () => {
  const seen = [];
  const spy = {
    position: "perRetry", // after the SDK's own policies, so we see what goes on the wire
    policy: {
      name: "methodSpy",
      sendRequest(request, next) {
        seen.push(`${request.method} ${request.headers.get("x-http-method") ?? "-"}`);
        return next(request);
      },
    },
  };
  const account = { account: kCustomAccount, key: kCustomKey, host: "localhost" };
  const table = uniqueTableName("custom");
  const client = custom.tableClientFor(table, account, { additionalPolicies: [spy] });

  await client.createTable();
  await client.createEntity({ partitionKey: "p", rowKey: "r", a: "A", b: "B" });
  await client.updateEntity({ partitionKey: "p", rowKey: "r", b: "B2" }, "Merge");
  await client.upsertEntity({ partitionKey: "p", rowKey: "r", c: "C" }, "Merge");
  await client.upsertEntity({ partitionKey: "p", rowKey: "new", c: "C" }, "Merge");
  const { etag } = await client.getEntity("p", "r");
  await expectError(
    client.updateEntity({ partitionKey: "p", rowKey: "r", d: 1 }, "Merge", { etag: 'W/"datetime\'2000-01-01T00%3A00%3A00Z\'"' }),
    412,
    "UpdateConditionNotSatisfied",
  );
  await client.updateEntity({ partitionKey: "p", rowKey: "r", d: 1 }, "Merge", { etag });

  const entity = await client.getEntity("p", "r");
  assert.deepEqual(
    { a: entity.a, b: entity.b, c: entity.c, d: entity.d },
    { a: "A", b: "B2", c: "C", d: 1 },
  );
  assert.equal((await client.getEntity("p", "new")).c, "C");
  assert.ok(seen.includes("POST MERGE"), `the SDK did not tunnel MERGE; saw ${seen}`);
  assert.ok(!seen.some((s) => s.startsWith("PATCH")), `the SDK sent PATCH: ${seen}`);

  const names = [];
  for await (const t of custom.serviceClientFor(account).listTables()) names.push(t.name);
  assert.ok(names.includes(table));
  await client.deleteEntity("p", "r");
  await client.deleteTable();
});

test("auth: the custom account rejects a wrong key with 403 AuthenticationFailed", async () => {
  const wrong = custom.serviceClientFor({ account: kCustomAccount, key: kWrongKey, host: "localhost" });
  await expectError(wrong.listTables().next(), 403, "AuthenticationFailed");
});

test("auth: requests without Authorization are rejected", async () => {
  const response = await fetch(`${server.accountUrl}/Tables`, {
    headers: { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2019-02-02" },
  });
  assert.ok([401, 403].includes(response.status), `anonymous request answered ${response.status}`);
  await response.text();
});
