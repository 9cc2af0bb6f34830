// Helpers for the host-style and Entra ID suites: a certificate for localhost and the account
// host names, an agent that resolves *.localhost to loopback (node's resolver does not: it asks
// getaddrinfo, which on Debian knows only localhost itself), test JWTs and TokenCredentials.
import http from "node:http";
import https from "node:https";
import { execFileSync, spawnSync } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const kTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47";
export const kOtherTenant = "0b3f0c5e-1d2a-4c6b-9e8f-123456789abc";

export function haveOpenssl() {
  return spawnSync("openssl", ["version"]).status === 0;
}

// A self-signed P-256 certificate for localhost, 127.0.0.1 and the dev account's host names:
// { dir, cert, key, ca } (ca: the PEM text).
export function makeCertificate() {
  const dir = mkdtempSync(join(tmpdir(), "malachite-access-"));
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost", "-addext",
    "subjectAltName=DNS:localhost,DNS:devstoreaccount1.localhost," +
      "DNS:devstoreaccount1-secondary.localhost,IP:127.0.0.1",
  ], { stdio: "ignore" });
  return { dir, cert, key, ca: readFileSync(cert) };
}

// Resolves every name to 127.0.0.1 (net.connect calls it with { all: true } when it tries
// several addresses, Node >= 20).
function loopback(hostname, options, callback) {
  if (options?.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}

// An agent for the SDK's `agent` client option: *.localhost goes to loopback; `ca` (PEM) is
// trusted for https. The Host header and TLS server name stay what the URL says.
export function localhostAgent(ca) {
  return ca ? new https.Agent({ ca, lookup: loopback }) : new http.Agent({ lookup: loopback });
}

// A JWT (RFC 7519) with `claims` over the defaults of a valid Entra ID v1 token for Azure
// Storage. `signer`: { alg: "RS256"|"ES256", kid, privateKey } signs it; otherwise the
// signature is junk (Malachite without --oauth-issuer-keys does not check it).
export function mintToken(claims = {}, signer) {
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: "JWT", alg: signer?.alg ?? "RS256", kid: signer?.kid ?? "test" };
  const body = {
    aud: "https://storage.azure.com",
    iss: `https://sts.windows.net/${kTenant}/`,
    tid: kTenant,
    oid: "00000000-0000-0000-0000-00000000c0de",
    iat: now - 60,
    nbf: now - 60,
    exp: now + 3600,
    ...claims,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete body[name];
  const encode = (object) => Buffer.from(JSON.stringify(object)).toString("base64url");
  const input = `${encode(header)}.${encode(body)}`;
  if (!signer) return `${input}.${Buffer.from("unsigned").toString("base64url")}`;
  const key = signer.alg === "ES256"
    ? { key: signer.privateKey, dsaEncoding: "ieee-p1363" } : signer.privateKey;
  return `${input}.${sign("sha256", Buffer.from(input), key).toString("base64url")}`;
}

// A TokenCredential as DefaultAzureCredential is one: getToken(scopes, options) -> AccessToken.
// `tokenFor(tenantId)` gives the token for the tenant the SDK asks for (undefined at first;
// the challenge's tenant after a 401). Every call is recorded in `calls`.
export function testCredential(tokenFor) {
  const calls = [];
  return {
    calls,
    async getToken(scopes, options) {
      calls.push({ scopes, tenantId: options?.tenantId });
      const token = typeof tokenFor === "function" ? tokenFor(options?.tenantId) : tokenFor;
      return { token, expiresOnTimestamp: Date.now() + 3600e3 };
    },
  };
}

// A fresh RSA and P-256 key pair, and the JWKS file `dir`/`file` that publishes their public
// halves: { rsa: signer, ec: signer, path }.
export function makeIssuerKeys(dir, file = "jwks.json") {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const keys = [
    { ...rsa.publicKey.export({ format: "jwk" }), kid: "rsa-1", use: "sig", alg: "RS256" },
    { ...ec.publicKey.export({ format: "jwk" }), kid: "ec-1", use: "sig", alg: "ES256" },
  ];
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ keys }));
  return {
    rsa: { alg: "RS256", kid: "rsa-1", privateKey: rsa.privateKey },
    ec: { alg: "ES256", kid: "ec-1", privateKey: ec.privateKey },
    path,
  };
}
