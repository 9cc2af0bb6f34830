// Microsoft Entra ID bearer tokens (--oauth, spec §10.9) with @azure/data-tables and a
// TokenCredential that returns test JWTs (as DefaultAzureCredential would return real ones), over
// HTTPS with a certificate made here; path-style and host-style endpoints. The SDK sends
// x-ms-version 2019-02-02, at which the service refuses bad tokens with 403; `version:
// "2020-12-06"` gets the 401 bearer challenge and exercises the SDK's tenant discovery.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import https from "node:https";
import { rmSync } from "node:fs";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { startServer, kDevAccount, expectError, errorCode, uniqueTableName } from "./harness.mjs";
import {
  haveOpenssl, makeCertificate, localhostAgent, mintToken, testCredential, makeIssuerKeys,
  kTenant, kOtherTenant,
} from "./access.mjs";

const skip = !haveOpenssl() && "no openssl CLI to make the test certificate";
const kChallenge = `Bearer authorization_uri=https://login.microsoftonline.com/${kTenant}` +
  "/oauth2/authorize resource_id=https://storage.azure.com";
const kReader = "11111111-0000-0000-0000-00000000000a";
const kAdmin = "22222222-0000-0000-0000-00000000000b";

let tls;
let server;        // --oauth, tokens decoded but not verified, roles by oid
let keyedServer;   // --oauth-issuer-keys: signatures verified
let issuer;
let agent;

before(async () => {
  if (skip) return;
  tls = makeCertificate();
  issuer = makeIssuerKeys(tls.dir);
  agent = localhostAgent(tls.ca);
  const common = ["--cert", tls.cert, "--key", tls.key, "--oauth", "--oauth-tenant", kTenant];
  server = await startServer({ inMemory: true, args: [...common, "--oauth-roles",
    `${kReader}=reader;${kAdmin}=contributor+account-contributor;*=contributor`] });
  keyedServer = await startServer({ inMemory: true, args: [...common, "--oauth-issuer-keys", issuer.path] });
});

after(async () => {
  await server?.stop();
  await keyedServer?.stop();
  if (tls) rmSync(tls.dir, { recursive: true, force: true });
});

const pathUrl = (s = server) => `https://127.0.0.1:${s.port}/${kDevAccount}`;
const hostUrl = (s = server) => `https://${kDevAccount}.localhost:${s.port}`;
const options = (extra = {}) => ({ agent, retryOptions: { maxRetries: 0 }, ...extra });

for (const [style, url] of [["path-style", pathUrl], ["host-style", hostUrl]]) {
  test(`a contributor's token does everything with entities (${style})`, { skip }, async () => {
    const credential = testCredential(mintToken());
    const service = new TableServiceClient(url(), credential, options());
    const name = uniqueTableName("oauth");
    await service.createTable(name);
    const table = new TableClient(url(), name, credential, options());
    await table.createEntity({ partitionKey: "p", rowKey: "r1", n: 1 });
    await table.submitTransaction([["upsert", { partitionKey: "p", rowKey: "r2", n: 2 }]]);
    await table.updateEntity({ partitionKey: "p", rowKey: "r1", n: 10 }, "Replace");
    const rows = [];
    for await (const e of table.listEntities()) rows.push(`${e.rowKey}=${e.n}`);
    assert.deepEqual(rows, ["r1=10", "r2=2"]);
    await table.deleteEntity("p", "r2");
    await service.deleteTable(name);
    // The SDK asked for the Storage scope; no challenge was needed.
    assert.deepEqual(credential.calls[0], { scopes: ["https://storage.azure.com/.default"],
      tenantId: undefined });
  });
}

test("tokens for the China and US Government clouds' storage work; a look-alike audience does not", { skip }, async () => {
  // spec §10.9: what a credential of those clouds returns for the storage scope their SDKs ask
  // (TableAudience AzureChina / AzureGovernment), and the account's endpoint there.
  const clouds = [
    { aud: "https://storage.azure.cn/", iss: `https://sts.chinacloudapi.cn/${kTenant}/` },
    { aud: "https://storage.azure.us", iss: `https://login.microsoftonline.us/${kTenant}/v2.0` },
    { aud: `https://${kDevAccount}.table.core.usgovcloudapi.net`, iss: `https://sts.windows.net/${kTenant}/` },
  ];
  for (const claims of clouds) {
    const credential = testCredential(mintToken(claims));
    const name = uniqueTableName("cloud");
    const table = new TableClient(pathUrl(), name, credential, options());
    await table.createTable();
    await table.createEntity({ partitionKey: "p", rowKey: "r" });
    assert.equal((await table.getEntity("p", "r")).rowKey, "r", claims.aud);
    await table.deleteTable();
  }
  const foreign = testCredential(mintToken({ aud: "https://storage.chinacloudapi.cn" }));
  const table = new TableClient(pathUrl(), "anytable", foreign,
                                options({ requestOptions: { customHeaders: { Accept: "application/xml" } } }));
  const error = await expectError(table.getAccessPolicy(), 403, "AuthenticationFailed");
  assert.match(error.response.bodyAsText,
               /<AuthenticationErrorDetail>Audience validation failed\. Audience did not match\.</);
});

test("a Storage Table Data Reader reads; every write is 403 AuthorizationPermissionMismatch", { skip }, async () => {
  const name = uniqueTableName("reader");
  const writer = new TableClient(hostUrl(), name, testCredential(mintToken()), options());
  await writer.createTable();
  await writer.createEntity({ partitionKey: "p", rowKey: "r", n: 1 });
  const reader = new TableClient(hostUrl(), name, testCredential(mintToken({ oid: kReader })),
                                 options());
  assert.equal((await reader.getEntity("p", "r")).n, 1);
  const seen = [];
  for await (const e of reader.listEntities()) seen.push(e.rowKey);
  assert.deepEqual(seen, ["r"]);
  const mismatch = [403, "AuthorizationPermissionMismatch"];
  await expectError(reader.createEntity({ partitionKey: "p", rowKey: "x" }), ...mismatch);
  await expectError(reader.upsertEntity({ partitionKey: "p", rowKey: "r", n: 2 }), ...mismatch);
  await expectError(reader.updateEntity({ partitionKey: "p", rowKey: "r", n: 2 }), ...mismatch);
  await expectError(reader.deleteEntity("p", "r"), ...mismatch);
  await expectError(reader.deleteTable(), ...mismatch);
  await expectError(reader.submitTransaction([["create", { partitionKey: "p", rowKey: "y" }]]),
                    ...mismatch);
  const readerService = new TableServiceClient(hostUrl(), testCredential(mintToken({ oid: kReader })),
                                               options());
  await expectError(readerService.createTable(uniqueTableName("no")), ...mismatch);
  assert.equal((await writer.getEntity("p", "r")).n, 1);
});

test("ACLs and service properties need Storage Account Contributor, as on Azure", { skip }, async () => {
  const name = uniqueTableName("acl");
  const contributor = testCredential(mintToken());
  const table = new TableClient(pathUrl(), name, contributor, options());
  await table.createTable();
  await expectError(table.getAccessPolicy(), 403, "AuthorizationPermissionMismatch");
  await expectError(new TableServiceClient(pathUrl(), contributor, options()).getProperties(), 403,
                    "AuthorizationPermissionMismatch");
  const admin = testCredential(mintToken({ oid: kAdmin }));
  const adminTable = new TableClient(pathUrl(), name, admin, options());
  await adminTable.setAccessPolicy([{ id: "p1", accessPolicy: { permission: "r",
    expiry: new Date("2030-01-01T00:00:00Z") } }]);
  assert.deepEqual((await adminTable.getAccessPolicy()).map((p) => p.id), ["p1"]);
  const service = new TableServiceClient(hostUrl(), admin, options());
  assert.equal((await service.getProperties()).logging?.version, "1.0");
  assert.equal((await service.getStatistics()).geoReplication?.status, "live");
});

test("bad tokens are 403 AuthenticationFailed at the SDK's version, with the reason", { skip }, async () => {
  const now = Math.floor(Date.now() / 1000);
  const cases = [
    [{ exp: now - 3600 }, "Lifetime validation failed. The token is expired."],
    [{ nbf: now + 3600 }, "Lifetime validation failed. The token is not yet valid."],
    [{ aud: "https://vault.azure.net" }, "Audience validation failed. Audience did not match."],
    [{ iss: `https://sts.windows.net/${kOtherTenant}/` }, "Issuer validation failed. Issuer did not match."],
    [{ iss: "https://example.com/" }, "Issuer validation failed. Issuer did not match."],
  ];
  for (const [claims, detail] of cases) {
    const table = new TableClient(pathUrl(), "anytable", testCredential(mintToken(claims)),
                                  options({ requestOptions: { customHeaders: { Accept: "application/xml" } } }));
    const error = await expectError(table.getAccessPolicy(), 403, "AuthenticationFailed");
    assert.match(error.response.bodyAsText, new RegExp(`<AuthenticationErrorDetail>${detail.replace(/\./g, "\\.")}<`));
  }
  const garbage = new TableClient(pathUrl(), "anytable", testCredential("not.a.jwt"), options());
  await expectError(garbage.getEntity("p", "r"), 403, "AuthenticationFailed");
});

test("from 2020-12-06 bad tokens get 401 and the bearer challenge; the SDK follows its tenant", { skip }, async () => {
  const wrongAudience = testCredential(mintToken({ aud: "https://vault.azure.net" }));
  const table = new TableClient(pathUrl(), "anytable", wrongAudience, options({ version: "2020-12-06" }));
  const error = await expectError(table.getEntity("p", "r"), 401, "InvalidAuthenticationInfo");
  assert.equal(error.response.headers.get("www-authenticate"), kChallenge);
  // The SDK asked once more, for the challenge's tenant, and gave up when that failed too.
  assert.deepEqual(wrongAudience.calls.map((c) => c.tenantId), [undefined, kTenant]);

  // A token from the wrong tenant first; the challenge names the right one, the credential
  // returns a token for it, and the request succeeds: DefaultAzureCredential's tenant discovery.
  const name = uniqueTableName("tenant");
  await new TableServiceClient(pathUrl(), testCredential(mintToken()), options()).createTable(name);
  const discovering = testCredential((tenantId) => mintToken(tenantId === kTenant ? {} : {
    iss: `https://sts.windows.net/${kOtherTenant}/`, tid: kOtherTenant }));
  const client = new TableClient(pathUrl(), name, discovering, options({ version: "2020-12-06" }));
  await client.createEntity({ partitionKey: "p", rowKey: "r" });
  assert.deepEqual(discovering.calls.map((c) => c.tenantId), [undefined, kTenant]);
});

test("anonymous requests: 403 at the SDK's version, 401 with the challenge from 2020-12-06", { skip }, async () => {
  const anonymous = new TableClient(pathUrl(), "anytable", options());
  await expectError(anonymous.getEntity("p", "r"), 403, "AuthenticationFailed");
  // Without a credential the SDK reads `version` from its fourth argument only.
  const newerOptions = options({ version: "2020-12-06" });
  const newer = new TableClient(pathUrl(), "anytable", newerOptions, newerOptions);
  const error = await expectError(newer.getEntity("p", "r"), 401, "NoAuthenticationInformation");
  assert.equal(error.response.headers.get("www-authenticate"), kChallenge);
});

// Raw HTTPS for what the SDK never sends: a token together with a SAS or a second scheme.
function rawGet(path, headers) {
  return new Promise((resolve, reject) => {
    const request = https.request({ host: "127.0.0.1", port: server.port, path, agent,
      headers: { "x-ms-version": "2019-02-02", Accept: "application/json", ...headers } },
    (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

test("a token cannot be combined with a SAS or a Shared Key header", { skip }, async () => {
  const bearer = `Bearer ${mintToken()}`;
  const withSas = await rawGet(`/${kDevAccount}/Tables?sv=2019-02-02&ss=t&srt=sco&sp=rl&se=2030-01-01&sig=x`,
                               { Authorization: bearer });
  assert.equal(withSas.status, 400);
  assert.equal(JSON.parse(withSas.body)["odata.error"].code, "InvalidAuthenticationInfo");
  const both = await rawGet(`/${kDevAccount}/Tables`,
                            { Authorization: [bearer, `SharedKeyLite ${kDevAccount}:abc=`] });
  assert.equal(both.status, 400);
  assert.equal(JSON.parse(both.body)["odata.error"].code, "InvalidAuthenticationInfo");
});

test("--oauth-issuer-keys: RS256 and ES256 tokens signed by its keys pass; others are refused", { skip }, async () => {
  const name = uniqueTableName("signed");
  const rsa = testCredential(mintToken({}, issuer.rsa));
  await new TableServiceClient(hostUrl(keyedServer), rsa, options()).createTable(name);
  const ec = new TableClient(hostUrl(keyedServer), name, testCredential(mintToken({}, issuer.ec)), options());
  await ec.createEntity({ partitionKey: "p", rowKey: "r" });
  const unsigned = new TableClient(hostUrl(keyedServer), name, testCredential(mintToken()),
    options({ requestOptions: { customHeaders: { Accept: "application/xml" } } }));
  const error = await expectError(unsigned.getAccessPolicy(), 403, "AuthenticationFailed");
  assert.match(error.response.bodyAsText, /Signature validation failed\. No issuer key matches kid &apos;test&apos;\./);
  // Signed by a key that is not in the set, under a kid that is.
  const stranger = makeIssuerKeys(tls.dir, "stranger.json");
  const forged = new TableClient(hostUrl(keyedServer), name,
    testCredential(mintToken({}, { ...stranger.rsa, kid: "rsa-1" })), options());
  const refused = await expectError(forged.getEntity("p", "r"), 403, "AuthenticationFailed");
  assert.equal(errorCode(refused), "AuthenticationFailed");
});
