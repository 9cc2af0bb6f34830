// URL forms that plain HTTP clients (axios, curl scripts) send and the SDKs do not: a trailing
// slash after a resource, and '%' signs that start no escape (spec §1.2). Raw signed HTTP.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, uniqueTableName } from "./harness.mjs";
import { sendSigned, wireErrorCode } from "./signed_http.mjs";

let server;
let table;

before(async () => {
  server = await startServer();
  table = uniqueTableName("urls");
  const created = await sendSigned(server, "POST", "/Tables", { body: { TableName: table } });
  assert.equal(created.status, 201, created.text);
});
after(async () => {
  await server?.stop();
});

const send = (method, path, options) => sendSigned(server, method, path, options);

async function rowKeys(pk) {
  const response = await send("GET", `/${table}()?$filter=PartitionKey%20eq%20'${pk}'`);
  assert.equal(response.status, 200, response.text);
  return response.json.value.map((e) => e.RowKey).sort();
}

test("url forms: a trailing slash after /Tables, /$batch, /<table> and /<table>() is accepted", async () => {
  const name = uniqueTableName("slash");
  const created = await send("POST", "/Tables/", { body: { TableName: name } });
  assert.equal(created.status, 201, created.text);
  const listed = await send("GET", `/Tables/?$filter=TableName%20eq%20'${name}'`);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.json.value.map((t) => t.TableName), [name]);

  const inserted = await send("POST", `/${name}/`, { body: { PartitionKey: "p", RowKey: "1" } });
  assert.equal(inserted.status, 201, inserted.text);
  for (const path of [`/${name}/`, `/${name}()/`]) {
    const queried = await send("GET", path);
    assert.equal(queried.status, 200, `${path}: ${queried.text}`);
    assert.deepEqual(queried.json.value.map((e) => e.RowKey), ["1"], path);
  }

  const url = `http://127.0.0.1:${server.port}/devstoreaccount1/${name}`;
  const batch =
    "--batch_s\r\nContent-Type: multipart/mixed; boundary=changeset_s\r\n\r\n" +
    "--changeset_s\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
    `POST ${url} HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n\r\n` +
    `${JSON.stringify({ PartitionKey: "p", RowKey: "2" })}\r\n--changeset_s--\r\n--batch_s--\r\n`;
  const submitted = await send("POST", "/$batch/", {
    headers: { "Content-Type": "multipart/mixed; boundary=batch_s" },
    body: batch,
  });
  assert.equal(submitted.status, 202, submitted.text);
  assert.match(submitted.text, /HTTP\/1\.1 201 Created/);

  const deleted = await send("DELETE", `/Tables('${name}')/`);
  assert.equal(deleted.status, 204, deleted.text);
  // Two slashes are a path with another segment, not a trailing slash.
  const doubled = await send("GET", "/Tables//");
  assert.equal(doubled.status, 400, doubled.text);
  assert.equal(wireErrorCode(doubled), "InvalidUri");
});

test("url forms: a '%' in an entity URL that starts no escape answers 400 InvalidUri and writes nothing", async () => {
  for (const [pk, rk] of [["%G1", "r"], ["p", "%zz"], ["p", "100%"], ["%4", "r"]]) {
    const path = `/${table}(PartitionKey='${pk}',RowKey='${rk}')`;
    for (const method of ["PUT", "MERGE", "GET", "DELETE"]) {
      const response = await send(method, path, {
        headers: method === "DELETE" ? { "If-Match": "*" } : {},
        body: method === "PUT" || method === "MERGE" ? { Value: 1 } : undefined,
      });
      assert.equal(response.status, 400, `${method} ${path}: ${response.text}`);
      assert.equal(wireErrorCode(response), "InvalidUri", `${method} ${path}`);
      assert.equal(response.json?.["odata.error"]?.code, "InvalidUri", `${method} ${path}`);
    }
  }
  assert.deepEqual(await rowKeys("%G1"), []);
  assert.deepEqual(await rowKeys("p"), []);
  assert.deepEqual(await rowKeys("%4"), []);

  // Well-formed escapes, %25 included, are the key itself.
  const written = await send("PUT", `/${table}(PartitionKey='p',RowKey='100%25%20off')`, { body: { Value: 1 } });
  assert.equal(written.status, 204, written.text);
  assert.deepEqual(await rowKeys("p"), ["100% off"]);
});
