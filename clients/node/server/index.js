"use strict";
// @malachite/server: starts a Malachite Azure Table storage emulator for a test process.
// startMalachite() spawns the binary on a free port with its data in memory and resolves once it
// listens; the server never outlives the process that started it (its standard input is a pipe
// only this process holds, and the server stops when the pipe closes, also after a SIGKILL).
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");
const { resolveBinary } = require("./binary.js");
const { DEV_ACCOUNT, DEV_KEY, MalachiteAdminClient, MalachiteAdminError, connectionStringFor } = require("@malachite/client");

const kHost = "127.0.0.1";
const kDefaultStartTimeoutMs = 10000;
const kStopKillAfterMs = 5000;
const kTailLines = 20;
const kRunnerWatchMs = 200;

// The command line for options (validated here: a mistake is a TypeError before anything starts).
function serverArgs(options) {
  const { port = 0, dataDir, seed, args = [] } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`startMalachite: port must be an integer from 0 to 65535, not ${port}`);
  }
  if (dataDir !== undefined && options.inMemory === true) {
    throw new TypeError("startMalachite: inMemory and dataDir exclude each other");
  }
  if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
    throw new TypeError("startMalachite: args must be an array of strings");
  }
  const out = ["--host", kHost, "--port", String(port), "--exit-with-stdin"];
  if (dataDir !== undefined) out.push("--data-dir", path.resolve(dataDir));
  else if (options.inMemory !== false) out.push("--in-memory");
  if (seed !== undefined) out.push("--seed", path.resolve(seed));
  return out.concat(args);
}

// The last lines a stream printed, for error messages.
class Tail {
  constructor() {
    this.lines = [];
    this.partial = "";
  }
  push(text, onLine) {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop();
    for (const raw of parts) {
      const line = raw.replace(/\r$/, "");
      this.lines.push(line);
      if (this.lines.length > kTailLines) this.lines.shift();
      onLine(line);
    }
  }
  all() {
    return this.partial ? [...this.lines, this.partial] : this.lines.slice();
  }
}

// An Error saying what happened (summary) and why, from the output: the server's own
// `malachite: <reason>` line on stderr when it printed one, else its last lines (all of them,
// up to 20, in error.output).
function errorWithOutput(summary, stdout, stderr) {
  const errLines = stderr.all();
  const own = errLines.filter((l) => l.startsWith("malachite: ")).pop();
  const lastLines = [...stdout.all(), ...errLines].filter((l) => l.trim() !== "").slice(-kTailLines);
  const reason = own ?? lastLines.slice(-5).join("\n");
  const error = new Error(`${summary}${reason ? `: ${reason}` : " (it printed nothing)"}`);
  error.output = lastLines.join("\n");
  return error;
}

// The servers of this process that have not exited.
const liveServers = new Set();
let runnerWatch;

// This process's parent, read from /proc (a test runner's sandbox may hand tests a copy of
// `process` whose ppid and connected never change); undefined where there is no /proc (Windows,
// where a process keeps the id of a parent that died: no runner watch there).
function parentPid() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

// In a test runner's worker process (jest's and vitest's forks have an IPC channel; node --test
// runs each file in a child with NODE_TEST_CONTEXT set), the servers also stop when the worker
// loses its runner: a runner killed with SIGKILL leaves its workers running to the end of their
// current test, and their servers with them. Polled with an unref'd timer, which keeps nothing
// alive (a "disconnect" listener would keep the worker alive).
function watchRunner(server) {
  liveServers.add(server);
  if (runnerWatch !== undefined) return;
  if (typeof process.send !== "function" && process.env.NODE_TEST_CONTEXT === undefined) return;
  const parent = parentPid();
  if (parent === undefined || parent <= 1) return;
  runnerWatch = setInterval(() => {
    if (parentPid() === parent) return;
    for (const live of liveServers) live.stop().catch(() => {});
  }, kRunnerWatchMs);
  runnerWatch.unref();
}

function unwatchRunner(server) {
  liveServers.delete(server);
  if (liveServers.size === 0 && runnerWatch !== undefined) {
    clearInterval(runnerWatch);
    runnerWatch = undefined;
  }
}

/**
 * Starts Malachite. Resolves once it listens, to a MalachiteServer (see index.d.ts); rejects with
 * the server's own reason when it cannot start (port in use, data directory, seed file, flag), or
 * after startTimeoutMs.
 */
function startMalachite(options = {}) {
  let binary;
  let args;
  try {
    binary = resolveBinary(options.binary);
    args = serverArgs(options);
  } catch (e) {
    return Promise.reject(e);
  }
  const startTimeoutMs = options.startTimeoutMs ?? kDefaultStartTimeoutMs;
  const env = options.env ? { ...process.env, ...options.env } : process.env;
  const onLog = options.onLog;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"], env, windowsHide: true });
    const stdout = new Tail();
    const stderr = new Tail();
    let settled = false;
    const fail = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      reject(error);
    };
    const timer = setTimeout(
      () => fail(errorWithOutput(`malachite (${binary}) did not start within ${startTimeoutMs} ms`, stdout, stderr)),
      startTimeoutMs,
    );
    // The pipe's far end is the server's stdin; writes never happen, but closing it after the
    // server exited must not throw.
    child.stdin.on("error", () => {});
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (text) =>
      stdout.push(text, (line) => {
        if (onLog) onLog(line, "stdout");
        const ready = !settled && /^malachite: listening on (.+):(\d+)\s*$/.exec(line);
        if (ready) {
          settled = true;
          clearTimeout(timer);
          resolve(new MalachiteServer(child, Number(ready[2]), stdout, stderr));
        }
      }),
    );
    child.stderr.on("data", (text) => stderr.push(text, (line) => onLog && onLog(line, "stderr")));
    child.on("error", (e) => fail(new Error(`@malachite/server: cannot run ${binary}: ${e.message}`)));
    // "close", not "exit": by then the streams have delivered the last lines (the reason).
    child.on("close", (code, signal) =>
      fail(errorWithOutput(`malachite exited with ${signal ?? `status ${code}`} before it listened`, stdout, stderr)),
    );
  });
}

/**
 * A running Malachite (see index.d.ts for the contract of each member). Its admin calls (reset,
 * createAccount, deleteAccount, listAccounts) are @malachite/client's, over loopback (no
 * credentials) with a keep-alive agent of its own.
 */
class MalachiteServer extends MalachiteAdminClient {
  #child;
  #tails;
  #agent;
  #exit; // { code, signal } once it exited
  #exited;
  #resolveExited;
  #stopping;

  constructor(child, port, stdout, stderr) {
    const agent = new http.Agent({ keepAlive: true });
    super({ host: kHost, port, agent });
    this.host = kHost;
    this.port = port;
    this.pid = child.pid;
    this.account = DEV_ACCOUNT;
    this.key = DEV_KEY;
    this.tableUrl = `http://${kHost}:${port}/${DEV_ACCOUNT}`;
    this.connectionString = connectionStringFor(DEV_ACCOUNT, DEV_KEY, this.tableUrl);
    this.#child = child;
    this.#tails = { stdout, stderr };
    this.#agent = agent;
    this.#exited = new Promise((r) => (this.#resolveExited = r));
    watchRunner(this);
    child.on("exit", (code, signal) => {
      unwatchRunner(this);
      this.#exit = { code, signal };
      this.#agent.destroy();
      this.#resolveExited();
    });
    // An open server does not keep the process alive: when nothing else is left to do, the
    // process exits, its end of the stdin pipe closes and the server stops with it.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.unref?.();
  }

  /** The server's last lines of output (up to 20 of each stream). */
  output() {
    return [...this.#tails.stdout.all(), ...this.#tails.stderr.all()].join("\n");
  }

  /**
   * Stops the server: closes its stdin (the server stops when it closes) and sends SIGTERM (not
   * on Windows, which has none); kills it after 5 s. Resolves once it has exited; rejects when it had crashed or
   * had to be killed. Calling it again returns the same promise.
   */
  stop() {
    if (!this.#stopping) this.#stopping = this.#stop();
    return this.#stopping;
  }

  async #stop() {
    const child = this.#child;
    const exitedBefore = this.#exit !== undefined;
    // Windows has no SIGTERM: Node's kill() there is TerminateProcess, a kill that stops nothing
    // gracefully. The closed stdin is the graceful stop (--exit-with-stdin).
    const graceful = process.platform === "win32" ? "its stdin closing" : "SIGTERM";
    let killed = false;
    if (!exitedBefore) {
      child.ref(); // the caller awaits the exit: keep the process alive until it happens
      child.stdin.end();
      if (process.platform !== "win32") child.kill("SIGTERM");
      const timer = setTimeout(() => {
        killed = true;
        child.kill("SIGKILL");
      }, kStopKillAfterMs);
      await this.#exited;
      clearTimeout(timer);
    }
    const { code, signal } = this.#exit;
    const { stdout, stderr } = this.#tails;
    if (killed) {
      throw errorWithOutput(`malachite (pid ${this.pid}) did not stop within ${kStopKillAfterMs} ms of ${graceful} and was killed`, stdout, stderr);
    }
    if (exitedBefore || !(code === 0 || signal === "SIGTERM")) {
      const how = exitedBefore ? "had exited by itself" : "stopped";
      throw errorWithOutput(`malachite (pid ${this.pid}) ${how} with ${signal ?? `status ${code}`}`, stdout, stderr);
    }
  }
}

if (Symbol.asyncDispose) {
  MalachiteServer.prototype[Symbol.asyncDispose] = function asyncDispose() {
    return this.stop();
  };
}

exports.startMalachite = startMalachite;
exports.resolveBinary = resolveBinary;
exports.MalachiteAdminError = MalachiteAdminError;
exports.DEV_ACCOUNT = DEV_ACCOUNT;
exports.DEV_KEY = DEV_KEY;
