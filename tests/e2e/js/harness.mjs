// What the JS suites share. Servers start through the published launcher, @malachite/server's
// startMalachite() (it runs the binary, reads its port, stops it, and the server never outlives
// this process); this file only adds the suites' defaults and SDK clients pointed at a server.
// The binary: MALACHITE_BINARY (read by the launcher), else this checkout's build/Release/malachite.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from "@azure/data-tables";
// The launcher of this checkout, by path: as a file: dependency, npm ci would refuse the lock file,
// which cannot name its optional binary packages (@malachite/server-linux-*: clients/node/pack
// makes them, no registry has them). Its own require of @malachite/client finds the top
// node_modules' link to clients/node/client (a file: devDependency in package.json).
import { startMalachite, resolveBinary, DEV_ACCOUNT, DEV_KEY } from "../../../clients/node/server/index.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const kCheckoutBinary = join(repoRoot, "build", "Release", "malachite");

export const kDevAccount = DEV_ACCOUNT;
export const kDevKey = DEV_KEY;

// The launcher's `binary` option: none when MALACHITE_BINARY is set (the launcher reads it).
function binaryOption() {
  return process.env.MALACHITE_BINARY ? undefined : kCheckoutBinary;
}

// The binary the servers run, for the suites that also run its CLI (`malachite export ...`).
export function binaryPath() {
  return resolveBinary(binaryOption());
}

// Data directories made here are removed by stop(), or at exit when a suite failed before it.
const ownedDataDirs = new Set();
process.on("exit", () => {
  for (const dir of ownedDataDirs) rmSync(dir, { recursive: true, force: true });
});

// Starts a server; resolves to a TestServer once it listens. options: dataDir (kept, e.g. for a
// restart on the same data), inMemory, seed, args (appended last: a later flag wins), env.
// Without dataDir or inMemory the data lives in a temporary directory on disk (LMDB files, as a
// deployment has them). The log level is warn, and throttling (on by default in the binary,
// spec §12) is off: suites that are not about it insert thousands of entities into one partition
// at once; args ["--throttling", "on"] tests it.
export async function startServer({ dataDir, inMemory, seed, args = [], env } = {}) {
  const owned = dataDir === undefined && inMemory !== true ? mkdtempSync(join(tmpdir(), "malachite-e2e-")) : undefined;
  if (owned) ownedDataDirs.add(owned);
  try {
    const server = await startMalachite({
      binary: binaryOption(),
      dataDir: dataDir ?? owned,
      inMemory,
      seed,
      env,
      args: ["--log-level", "warn", "--throttling", "off", ...args],
      startTimeoutMs: 20000, // two cores shared by parallel suites
    });
    return new TestServer(server, owned);
  } catch (e) {
    removeOwned(owned);
    throw e;
  }
}

function removeOwned(dir) {
  if (dir === undefined) return;
  rmSync(dir, { recursive: true, force: true });
  ownedDataDirs.delete(dir);
}

// A server started by startServer, with SDK clients for it. The SDK clients never retry: a failing
// server fails the test at once, not after a minute of back-off.
class TestServer {
  #server;
  #ownedDataDir;

  constructor(server, ownedDataDir) {
    this.#server = server;
    this.#ownedDataDir = ownedDataDir;
    this.port = server.port;
    this.accountUrl = server.tableUrl; // http://127.0.0.1:<port>/devstoreaccount1
    this.connectionString = server.connectionString;
  }

  // The launcher's stop(): rejects, with the server's last output, when it crashed (a sanitizer
  // report, say) or had to be killed, so a crash fails the suite even when every request
  // succeeded. Calling it again settles the same way.
  async stop() {
    try {
      await this.#server.stop();
    } finally {
      removeOwned(this.#ownedDataDir);
    }
  }

  serviceClient(options = {}) {
    return TableServiceClient.fromConnectionString(this.connectionString, clientOptions(options));
  }

  tableClient(table, options = {}) {
    return TableClient.fromConnectionString(this.connectionString, table, clientOptions(options));
  }

  // A client for any account/key/host, e.g. a custom account or a wrong key.
  tableClientFor(table, { account, key, host = "127.0.0.1" }, options = {}) {
    const url = `http://${host}:${this.port}/${account}`;
    return new TableClient(url, table, new AzureNamedKeyCredential(account, key), clientOptions(options));
  }

  serviceClientFor({ account, key, host = "127.0.0.1" }, options = {}) {
    const url = `http://${host}:${this.port}/${account}`;
    return new TableServiceClient(url, new AzureNamedKeyCredential(account, key), clientOptions(options));
  }
}

function clientOptions(extra) {
  return { allowInsecureConnection: true, retryOptions: { maxRetries: 0 }, ...extra };
}

// The Azure error code of a failed SDK call: the body's odata.error.code, else x-ms-error-code.
export function errorCode(error) {
  const parsed = error?.response?.parsedBody;
  if (parsed?.odataError?.code) return parsed.odataError.code;
  if (parsed?.["odata.error"]?.code) return parsed["odata.error"].code;
  try {
    const body = JSON.parse(error?.response?.bodyAsText ?? "");
    if (body?.["odata.error"]?.code) return body["odata.error"].code;
  } catch {}
  return error?.response?.headers?.get?.("x-ms-error-code") ?? error?.code;
}

// Asserts that `promise` rejects with the given HTTP status and Azure error code (or one of several
// codes, for cases where the spec only recommends a code).
export async function expectError(promise, status, code) {
  const codes = Array.isArray(code) ? code : [code];
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  if (!error) throw new Error(`expected ${status} ${code}, but the call succeeded`);
  const gotCode = errorCode(error);
  if (error.statusCode !== status || !codes.includes(gotCode)) {
    const body = error?.response?.bodyAsText ?? error.stack;
    throw new Error(`expected ${status} ${codes.join("|")}, got ${error.statusCode} ${gotCode}; body: ${body}`);
  }
  return error;
}

// Options whose onResponse records the raw HTTP response (also for failed calls and for errors the SDK
// swallows, like createTable's 409): `const r = capture(); await client.x(..., r.options); r.status`.
export function capture() {
  const captured = { responses: [] };
  captured.options = {
    onResponse: (raw) => {
      captured.responses.push(raw);
      captured.raw = raw;
    },
  };
  Object.defineProperty(captured, "status", { get: () => captured.raw?.status });
  Object.defineProperty(captured, "body", { get: () => captured.raw?.bodyAsText ?? "" });
  Object.defineProperty(captured, "code", {
    get: () => {
      try {
        return JSON.parse(captured.body)["odata.error"].code;
      } catch {
        return captured.raw?.headers?.get("x-ms-error-code");
      }
    },
  });
  captured.header = (name) => captured.raw?.headers?.get(name);
  return captured;
}

// Runs `worker(item)` over `items` with at most `limit` calls in flight.
export async function forEachLimit(items, limit, worker) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await worker(item);
    }
  });
  await Promise.all(runners);
}

let tableCounter = 0;
// A fresh, valid table name (letters and digits only).
export function uniqueTableName(prefix = "t") {
  tableCounter += 1;
  return `${prefix}${process.pid}x${tableCounter}${Math.floor(Math.random() * 1e6)}`;
}
