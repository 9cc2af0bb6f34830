// Test helper: starts the real `malachite` binary on a free port with a temp data dir, hands out SDK
// clients pointed at it, and stops it by PID. Every suite owns its server; nothing outlives the process.
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from "@azure/data-tables";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const kDevAccount = "devstoreaccount1";
export const kDevKey =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

const kStartTimeoutMs = 20000;
const liveServers = new Set();

// A server still running when the test process exits is killed, so a failed suite leaves nothing behind.
process.on("exit", () => {
  for (const server of liveServers) {
    try {
      process.kill(server.pid, "SIGKILL");
    } catch {}
  }
});

export function binaryPath() {
  return resolve(repoRoot, process.env.MALACHITE_BIN ?? "build/Release/server/malachite");
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// Starts the binary. options: { dataDir (reused when given, e.g. for restarts), env, args }.
// Resolves to a Server once the binary printed `malachite: listening on <host>:<port>`.
// Throttling (on by default in the binary, spec §12) is off here: suites that are not about it
// insert thousands of entities into one partition at once. Pass args ["--throttling", "on"] (a
// later flag wins) to test it.
export async function startServer(options = {}) {
  const bin = binaryPath();
  if (!existsSync(bin)) throw new Error(`server binary not found: ${bin} (set MALACHITE_BIN)`);
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "malachite-e2e-"));
  const logDir = mkdtempSync(join(tmpdir(), "malachite-log-"));
  const logPath = join(logDir, "server.log");
  const logFd = openSync(logPath, "w");
  const args = ["--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--log-level", "warn",
    "--throttling", "off"];
  const child = spawn(bin, [...args, ...(options.args ?? [])], {
    stdio: ["ignore", logFd, logFd],
    env: { ...process.env, ...(options.env ?? {}) },
  });
  closeSync(logFd);
  const server = new Server(child, dataDir, ownsDataDir, logDir, logPath);
  liveServers.add(server);
  const deadline = Date.now() + kStartTimeoutMs;
  while (Date.now() < deadline) {
    const match = /listening on ([0-9.]+):(\d+)/.exec(readFileSync(logPath, "utf8"));
    if (match) {
      server.host = match[1];
      server.port = Number(match[2]);
      return server;
    }
    if (server.exitCode !== undefined) break;
    await sleep(25);
  }
  const log = readFileSync(logPath, "utf8");
  await server.stop({ quiet: true }).catch(() => {});
  throw new Error(`server did not report its port (exit ${server.exitCode}); log:\n${log}`);
}

export class Server {
  constructor(child, dataDir, ownsDataDir, logDir, logPath) {
    this.child = child;
    this.pid = child.pid;
    this.dataDir = dataDir;
    this.ownsDataDir = ownsDataDir;
    this.logDir = logDir;
    this.logPath = logPath;
    this.exitCode = undefined;
    this.exited = new Promise((r) =>
      child.on("exit", (code, signal) => {
        this.exitCode = code ?? signal;
        r();
      }),
    );
  }

  get accountUrl() {
    return `http://127.0.0.1:${this.port}/${kDevAccount}`;
  }

  get connectionString() {
    return (
      `DefaultEndpointsProtocol=http;AccountName=${kDevAccount};AccountKey=${kDevKey};` +
      `TableEndpoint=${this.accountUrl};`
    );
  }

  log() {
    return readFileSync(this.logPath, "utf8");
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

  // SIGTERM, then SIGKILL after 5 s. Throws if the server exited abnormally (e.g. a sanitizer report),
  // so a crash during a suite fails the suite even when every request happened to succeed.
  async stop({ quiet = false } = {}) {
    if (this.exitCode === undefined) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await this.exited;
      clearTimeout(timer);
    }
    liveServers.delete(this);
    const log = this.log();
    const clean = this.exitCode === 0 || this.exitCode === "SIGTERM";
    if (!clean && !quiet) console.error(`malachite exited with ${this.exitCode}; log:\n${log}`);
    rmSync(this.logDir, { recursive: true, force: true });
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
    if (!clean && !quiet) throw new Error(`malachite exited abnormally: ${this.exitCode}`);
  }

  // kill -9, keeping the data dir for a restart.
  async kill9() {
    this.child.kill("SIGKILL");
    await this.exited;
    liveServers.delete(this);
  }
}

function clientOptions(extra) {
  // No retries: a failing server should fail the test at once, not after a minute of back-off.
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
