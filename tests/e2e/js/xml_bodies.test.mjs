// XML bodies that are not well-formed (spec §11.1–11.2): Set Table ACL and Set Table Service
// Properties refuse them with 400 InvalidXmlDocument and keep what was stored. Raw signed HTTP
// (the SDKs only send well-formed XML), then read back through @azure/data-tables.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, uniqueTableName } from "./harness.mjs";
import { sendSigned, wireErrorCode } from "./signed_http.mjs";

let server;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

const xml = { "Content-Type": "application/xml", Accept: "application/xml" };

// What clients were seen sending, each a well-formed body broken one way.
function malformed(root, inner) {
  const declaration = '<?xml version="1.0" encoding="utf-8"?>';
  return {
    "a second root element": `${declaration}<${root}>${inner}</${root}><${root}/>`,
    "a repeated attribute": `${declaration}<${root} a="1" a="2">${inner}</${root}>`,
    "an ISO-8859-1 declaration on UTF-8 bytes":
      `<?xml version="1.0" encoding="ISO-8859-1"?><${root}>${inner}</${root}>`,
    "a bare ampersand": `${declaration}<${root}>${inner}<!-- & --></${root}>&`,
  };
}

test("xml bodies: Set Table ACL refuses XML that is not well-formed and keeps the stored policies", async () => {
  const name = uniqueTableName("xmlacl");
  const client = server.tableClient(name);
  await client.createTable();
  await client.setAccessPolicy([{ id: "kept", accessPolicy: { permission: "r" } }]);

  const inner = "<SignedIdentifier><Id>new</Id><AccessPolicy><Permission>raud</Permission></AccessPolicy></SignedIdentifier>";
  for (const [what, body] of Object.entries(malformed("SignedIdentifiers", inner))) {
    const response = await sendSigned(server, "PUT", `/${name}?comp=acl`, { headers: xml, body });
    assert.equal(response.status, 400, `${what}: ${response.text}`);
    assert.equal(wireErrorCode(response), "InvalidXmlDocument", what);
  }
  assert.deepEqual(await client.getAccessPolicy(), [{ id: "kept", accessPolicy: { permission: "r" } }]);

  // The same body, well-formed, is stored.
  const good = `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>${inner}</SignedIdentifiers>`;
  const stored = await sendSigned(server, "PUT", `/${name}?comp=acl`, { headers: xml, body: good });
  assert.equal(stored.status, 204, stored.text);
  assert.deepEqual(await client.getAccessPolicy(), [{ id: "new", accessPolicy: { permission: "raud" } }]);
});

test("xml bodies: Set Table Service Properties refuses XML that is not well-formed and keeps the settings", async () => {
  const service = server.serviceClient();
  const settings = async () => {
    const { requestId, clientRequestId, ...rest } = await service.getProperties();
    return rest;
  };
  const before = await settings();
  const inner =
    "<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>true</IncludeAPIs>" +
    "<RetentionPolicy><Enabled>true</Enabled><Days>3</Days></RetentionPolicy></HourMetrics>";
  const path = "/?restype=service&comp=properties";
  for (const [what, body] of Object.entries(malformed("StorageServiceProperties", inner))) {
    const response = await sendSigned(server, "PUT", path, { headers: xml, body });
    assert.equal(response.status, 400, `${what}: ${response.text}`);
    assert.equal(wireErrorCode(response), "InvalidXmlDocument", what);
  }
  assert.deepEqual(await settings(), before);

  const good = `<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties>${inner}</StorageServiceProperties>`;
  const stored = await sendSigned(server, "PUT", path, { headers: xml, body: good });
  assert.equal(stored.status, 202, stored.text);
  const after = await service.getProperties();
  assert.equal(after.hourMetrics.enabled, true);
  assert.equal(after.hourMetrics.retentionPolicy.days, 3);
});
