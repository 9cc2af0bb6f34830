// @malachite/server as installed from its npm tarballs into a clean project (../packed_install.test.mjs
// copies this file there and runs it): the surface, bad input, and the lifetime guarantee (no server
// outlives its test process, even after SIGKILL, also under vitest and jest).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { TableClient } from "@azure/data-tables";
import { DEV_ACCOUNT, DEV_KEY, MalachiteAdminError, resolveBinary, startMalachite } from "@malachite/server";

const project = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), "malachite-node-client-"));
after(() => rmSync(work, { recursive: true, force: true }));

const sdkOptions = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
const tableClient = (connectionString, table) => TableClient.fromConnectionString(connectionString, table, sdkOptions);

async function rows(client) {
  const out = [];
  for await (const row of client.listEntities()) out.push(row);
  return out;
}

// Whether a process is gone: no such pid, or a zombie waiting for its reaper.
function processGone(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

async function waitGone(pids, ms) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (pids.every(processGone)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

function connects(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection, but it resolved");
}

// The environment for a child node process: this one's, less what makes node --test's own file
// processes report to their runner.
function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

// Runs node with args in a child process; resolves to { code, stdout, stderr, ms }.
function runNode(args, { cwd = project, env = childEnv(), timeoutMs = 20000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`node ${args.join(" ")} did not finish in ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

describe("the surface", () => {
  test("startMalachite() serves devstoreaccount1 on a free port; the connection string works with TableClient", async () => {
    const server = await startMalachite();
    try {
      assert.ok(Number.isInteger(server.port) && server.port > 0);
      assert.equal(server.host, "127.0.0.1");
      assert.equal(server.account, DEV_ACCOUNT);
      assert.equal(server.key, DEV_KEY);
      assert.equal(server.tableUrl, `http://127.0.0.1:${server.port}/devstoreaccount1`);
      assert.equal(
        server.connectionString,
        `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${DEV_KEY};TableEndpoint=${server.tableUrl};`,
      );
      const client = tableClient(server.connectionString, "surface");
      await client.createTable();
      await client.upsertEntity({ partitionKey: "p", rowKey: "r", n: 1 });
      assert.equal((await client.getEntity("p", "r")).n, 1);
    } finally {
      await server.stop();
    }
  });

  test("reset() empties the tables; with a seed it writes the fixtures again, seed: false leaves them empty", async () => {
    const seed = join(work, "seed");
    mkdirSync(seed, { recursive: true });
    writeFileSync(join(seed, "customers.jsonl"), '{"PartitionKey":"eu","RowKey":"1","Name":"Ada"}\n');
    const server = await startMalachite({ seed });
    try {
      const customers = tableClient(server.connectionString, "customers");
      assert.deepEqual((await rows(customers)).map((e) => e.Name), ["Ada"]);
      await customers.upsertEntity({ partitionKey: "us", rowKey: "2", Name: "Grace" });
      const other = tableClient(server.connectionString, "scratch");
      await other.createTable();
      const summary = await server.reset();
      assert.equal(summary.entities_seeded, 1);
      assert.deepEqual((await rows(customers)).map((e) => e.Name), ["Ada"]);
      assert.equal((await rejection(other.getEntity("x", "y"))).statusCode, 404);
      await server.reset({ seed: false });
      assert.equal((await rejection(customers.getEntity("eu", "1"))).statusCode, 404);
    } finally {
      await server.stop();
    }
  });

  test("createAccount() makes isolated accounts; deleteAccount() removes one; bad names get the service's errors", async () => {
    const server = await startMalachite();
    try {
      const a = await server.createAccount();
      const b = await server.createAccount({ name: "bravo1" });
      assert.match(a.name, /^[a-z0-9]{3,24}$/);
      assert.equal(b.name, "bravo1");
      assert.equal(a.tableUrl, `http://127.0.0.1:${server.port}/${a.name}`);
      assert.match(a.connectionString, new RegExp(`AccountName=${a.name};AccountKey=${a.key.replace(/[+/=]/g, "\\$&")};TableEndpoint=${a.tableUrl}`));
      const inA = tableClient(a.connectionString, "orders");
      const inB = tableClient(b.connectionString, "orders");
      await inA.createTable();
      await inB.createTable();
      await inA.upsertEntity({ partitionKey: "p", rowKey: "1" });
      assert.equal((await rows(inA)).length, 1);
      assert.equal((await rows(inB)).length, 0);
      const names = (await server.listAccounts()).map((x) => x.name);
      assert.ok(names.includes(a.name) && names.includes("bravo1") && names.includes(DEV_ACCOUNT), names.join());

      const taken = await rejection(server.createAccount({ name: "bravo1" }));
      assert.ok(taken instanceof MalachiteAdminError);
      assert.equal(taken.statusCode, 409);
      assert.equal(taken.code, "StorageAccountAlreadyTaken");
      const invalid = await rejection(server.createAccount({ name: "Not_Valid" }));
      assert.equal(invalid.statusCode, 400);
      assert.equal(invalid.code, "AccountNameInvalid");
      const badKey = await rejection(server.createAccount({ key: "not base64!" }));
      assert.equal(badKey.statusCode, 400);
      assert.equal(badKey.code, "InvalidInput");

      await a.delete();
      assert.ok(!(await server.listAccounts()).some((x) => x.name === a.name));
      assert.ok((await rejection(inA.getEntity("p", "1"))).statusCode >= 400);
      assert.equal((await rows(inB)).length, 0); // b is untouched
      const missing = await rejection(server.deleteAccount(a.name));
      assert.equal(missing.statusCode, 404);
      const configured = await rejection(server.deleteAccount(DEV_ACCOUNT));
      assert.equal(configured.statusCode, 409);
      assert.equal(configured.code, "OperationNotAllowed");
      await server.reset({ account: "bravo1" });
      assert.equal((await rejection(inB.getEntity("p", "1"))).statusCode, 404);
    } finally {
      await server.stop();
    }
  });

  test("stop() ends the server: its port refuses connections; a second stop() is harmless", async () => {
    const server = await startMalachite();
    assert.ok(await connects(server.port));
    await server.stop();
    assert.ok(processGone(server.pid));
    assert.equal(await connects(server.port), false);
    await server.stop();
    await server[Symbol.asyncDispose]();
    const refused = await rejection(server.createAccount());
    assert.equal(refused.code, "ECONNREFUSED");
  });

  test("dataDir keeps the data across a restart; inMemory: true with dataDir is a TypeError", async () => {
    const dataDir = join(work, "data");
    let server = await startMalachite({ dataDir });
    await tableClient(server.connectionString, "kept").createTable();
    await tableClient(server.connectionString, "kept").upsertEntity({ partitionKey: "p", rowKey: "1", v: "x" });
    await server.stop();
    server = await startMalachite({ dataDir });
    try {
      assert.equal((await tableClient(server.connectionString, "kept").getEntity("p", "1")).v, "x");
    } finally {
      await server.stop();
    }
    await assert.rejects(startMalachite({ dataDir, inMemory: true }), TypeError);
    await assert.rejects(startMalachite({ port: 70000 }), /port must be an integer from 0 to 65535/);
  });

  test("args reach the server (a later flag wins); onLog sees its lines", async () => {
    const lines = [];
    const server = await startMalachite({ args: ["--throttling", "off"], onLog: (line) => lines.push(line) });
    await server.stop();
    assert.ok(lines.some((l) => l.includes("listening on")), lines.join("\n"));
    assert.ok(lines.some((l) => /throttling off/i.test(l)), lines.join("\n"));
  });

  test("the package works through require() and import alike", async () => {
    const cjs = require("@malachite/server");
    const esm = await import("@malachite/server");
    assert.equal(typeof cjs.startMalachite, "function");
    assert.equal(esm.startMalachite, cjs.startMalachite);
  });
});

describe("the binary package: one static executable for glibc and musl alike", () => {
  const pkg = `@malachite/server-${process.platform}-${process.arch}`;
  const pkgDir = () => dirname(require.resolve(`${pkg}/package.json`));

  test("it holds bin/malachite, its notices and nothing else; the running server maps no shared library", async () => {
    assert.deepEqual(readdirSync(pkgDir()).sort(), ["LICENSE", "README.md", "THIRD-PARTY-NOTICES", "bin", "package.json"]);
    assert.deepEqual(readdirSync(join(pkgDir(), "bin")), ["malachite"]);
    assert.equal(resolveBinary(), join(pkgDir(), "bin", "malachite"));
    const server = await startMalachite();
    try {
      const files = new Set(
        readFileSync(`/proc/${server.pid}/maps`, "utf8")
          .split("\n")
          .map((line) => line.split(/\s+/)[5])
          .filter((file) => file && file.startsWith("/")),
      );
      assert.ok(files.has(realpathSync(resolveBinary())), [...files].join(" "));
      assert.deepEqual([...files].filter((file) => /\.so(\.|$)/.test(file)), []);
    } finally {
      await server.stop();
    }
  });

  test("npm installs it on Linux of its CPU with glibc or musl, and skips it on another OS, CPU or libc", () => {
    // Its package.json as published: os, cpu and libc (a list: npm installs it for either).
    const manifest = JSON.parse(readFileSync(join(pkgDir(), "package.json"), "utf8"));
    assert.deepEqual([manifest.os, manifest.cpu, manifest.libc], [["linux"], [process.arch], ["glibc", "musl"]]);
    // npm itself decides, for a project that lists the package's tarball as an optional
    // dependency (as @malachite/server does); --os, --cpu and --libc play the other machines.
    const dir = join(work, "npm-platforms");
    mkdirSync(dir, { recursive: true });
    const npm = (args, cwd) => {
      const out = spawnSync("npm", [...args, "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8" });
      assert.equal(out.status, 0, `npm ${args.join(" ")}: ${out.stderr}`);
      return out.stdout.trim();
    };
    const tarball = join(dir, npm(["pack", pkgDir(), "--pack-destination", dir, "--silent"], dir).split("\n").pop());
    const other = process.arch === "x64" ? "arm64" : "x64";
    const cases = [
      [["--libc=glibc"], true],
      [["--libc=musl"], true],
      [["--os=darwin"], false],
      [["--os=win32"], false],
      [[`--cpu=${other}`], false],
      [[`--cpu=${other}`, "--libc=musl"], false],
    ];
    for (const [flags, installed] of cases) {
      const user = join(dir, `project${flags.join("")}`);
      mkdirSync(user, { recursive: true });
      writeFileSync(
        join(user, "package.json"),
        JSON.stringify({ name: "p", version: "1.0.0", optionalDependencies: { [pkg]: `file:${tarball}` } }),
      );
      npm(["install", ...flags], user);
      assert.equal(existsSync(join(user, "node_modules", pkg, "bin", "malachite")), installed, `npm install ${flags.join(" ")}`);
    }
  });
});

describe("install time: a missing binary package is said in one line, and nothing is fetched", () => {
  // clients/node/pack's tarballs (../packed_install.test.mjs passes where they are).
  const tarballs = process.env.MALACHITE_NPM_TARBALLS;
  const platformPkg = `@malachite/server-${process.platform}-${process.arch}`;
  const line = new RegExp(
    `^@malachite/server: the binary package ${platformPkg} for ${process.platform}-${process.arch} is not installed .*MALACHITE_BINARY`,
  );
  // A user's project with the tarballs of @malachite/client and @malachite/server, and the binary
  // packages as optional dependencies: npm picks this platform's (as from the registry).
  function userProject(name) {
    assert.ok(tarballs, "MALACHITE_NPM_TARBALLS: the directory of clients/node/pack's tarballs");
    const files = readdirSync(tarballs);
    const tgz = (re) => `file:${join(tarballs, files.find((f) => re.test(f)))}`;
    const optional = {};
    for (const f of files) {
      const m = /^malachite-(server-(?:linux|win32)-[a-z0-9]+)-\d/.exec(f);
      if (m) optional[`@malachite/${m[1]}`] = `file:${join(tarballs, f)}`;
    }
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "user",
        version: "1.0.0",
        devDependencies: { "@malachite/client": tgz(/^malachite-client-/), "@malachite/server": tgz(/^malachite-server-\d/) },
        optionalDependencies: optional,
      }),
    );
    return dir;
  }
  const npmArgs = ["--offline", "--no-audit", "--no-fund", "--loglevel=error"];
  const npmEnv = () => {
    const env = childEnv();
    delete env.MALACHITE_BINARY; // with it, there is nothing to say
    return env;
  };
  // npm install in a terminal (script(1) gives it one), as a developer runs it: what they see.
  function npmInTerminal(dir, flags) {
    const command = ["npm", "install", ...npmArgs, ...flags].join(" ");
    const out = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: dir, encoding: "utf8", env: npmEnv() });
    assert.equal(out.status, 0, `${command}: ${out.stdout}${out.stderr}`);
    // The screen's lines: what follows the last carriage return of each, without escape sequences
    // (npm's progress spinner).
    return out.stdout.split("\n").map((l) => l.split("\r").filter((part) => part !== "").pop() ?? "")
      .map((l) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ""));
  }
  const said = (lines) => lines.filter((l) => l.startsWith("@malachite/server:"));

  test("npm install --omit=optional in a terminal: the line is there, once, and the install succeeds", () => {
    const dir = userProject("install-omit-optional");
    const lines = npmInTerminal(dir, ["--omit=optional"]);
    assert.equal(said(lines).length, 1, lines.join("\n"));
    assert.match(said(lines)[0], line);
    assert.ok(existsSync(join(dir, "node_modules", "@malachite", "server", "index.js")));
    assert.ok(!existsSync(join(dir, "node_modules", platformPkg)));
  });

  test("a whole install says nothing; with --foreground-scripts and no terminal the line is on stderr", () => {
    const dir = userProject("install-whole");
    assert.deepEqual(said(npmInTerminal(dir, [])), []);
    assert.ok(existsSync(join(dir, "node_modules", platformPkg, "bin", "malachite")));
    const bare = userProject("install-foreground");
    // setsid: no controlling terminal, whatever this test runs in.
    const out = spawnSync("setsid", ["-w", "npm", "install", ...npmArgs, "--omit=optional", "--foreground-scripts"], {
      cwd: bare,
      encoding: "utf8",
      env: npmEnv(),
    });
    assert.equal(out.status, 0, out.stderr);
    assert.equal(said(out.stderr.split("\n")).length, 1, out.stderr);
  });

  test("the check: another OS or CPU named, MALACHITE_BINARY enough, no network module loaded", () => {
    const dir = userProject("install-check");
    npmInTerminal(dir, ["--omit=optional"]);
    const install = join(dir, "node_modules", "@malachite", "server", "install.js");
    // Fails the run if install.js loads anything that can reach a network or start a download.
    const guard = join(work, "no-network.cjs");
    writeFileSync(
      guard,
      'const M = require("node:module"); const load = M._load;\n' +
        "M._load = function (request, ...rest) {\n" +
        '  if (/^(node:)?(http|https|http2|net|tls|dgram|dns|child_process)$/.test(request)) throw new Error(`install.js loaded ${request}`);\n' +
        "  return load.call(this, request, ...rest);\n" +
        "};\n",
    );
    // install.js run by itself, without a controlling terminal (setsid): its stderr is all it says.
    const runInstall = (args, env) => {
      const out = spawnSync("setsid", ["-w", process.execPath, "-r", guard, ...args], { cwd: dir, encoding: "utf8", env });
      return { code: out.status, stderr: out.stderr };
    };
    const env = npmEnv();
    const missing = runInstall([install], env);
    assert.equal(missing.code, 0, missing.stderr);
    assert.equal(missing.stderr.trimEnd().split("\n").length, 1, missing.stderr);
    assert.match(missing.stderr, line);
    // Another OS, another CPU: Malachite ships no binary package for either.
    for (const [prop, value, name] of [["platform", "darwin", `darwin-${process.arch}`], ["arch", "riscv64", "linux-riscv64"]]) {
      const faked = runInstall(
        ["-e", `Object.defineProperty(process, "${prop}", { value: "${value}" }); require(${JSON.stringify(install)})`],
        env,
      );
      assert.equal(faked.code, 0, faked.stderr);
      assert.equal(faked.stderr.trimEnd().split("\n").length, 1, faked.stderr);
      assert.match(faked.stderr, new RegExp(`^@malachite/server: no Malachite binary for ${name}: .*container image`));
    }
    const given = runInstall([install], { ...env, MALACHITE_BINARY: resolveBinary() });
    assert.deepEqual([given.code, given.stderr], [0, ""]);
  });
});

describe("bad input: one clear error, never a hang", () => {
  test("no binary package for this platform: the error names the platform, the package and MALACHITE_BINARY", async () => {
    // A project with @malachite/server (and its dependency @malachite/client) but not its binary
    // package (as with --omit=optional).
    const bare = join(work, "bare");
    for (const pkg of ["server", "client"]) {
      const pkgDir = dirname(require.resolve(`@malachite/${pkg}/package.json`));
      cpSync(pkgDir, join(bare, "node_modules", "@malachite", pkg), { recursive: true });
    }
    const env = childEnv();
    delete env.MALACHITE_BINARY;
    const script = "require('@malachite/server').startMalachite().then(() => console.log('started'), (e) => console.log(e.message))";
    const missing = await runNode(["-e", script], { cwd: bare, env });
    const platform = `${process.platform}-${process.arch}`;
    assert.match(missing.stdout, new RegExp(`@malachite/server-${platform} for ${platform} is not installed`));
    assert.match(missing.stdout, /MALACHITE_BINARY/);
    // Another platform: Malachite ships none for it.
    const wrong = await runNode(
      ["-e", `Object.defineProperty(process, "platform", { value: "darwin" }); ${script}`],
      { cwd: bare, env },
    );
    assert.match(wrong.stdout, new RegExp(`no Malachite binary for darwin-${process.arch}`));
    assert.match(wrong.stdout, /linux-x64 and linux-arm64 \(any libc: glibc or musl\)/);
    assert.match(wrong.stdout, /container image/);
    assert.match(wrong.stdout, /MALACHITE_BINARY/);
    // One line each (console.log adds the one newline).
    assert.equal(missing.stdout.trimEnd().split("\n").length, 1, missing.stdout);
    assert.equal(wrong.stdout.trimEnd().split("\n").length, 1, wrong.stdout);
  });

  test("a binary built for another machine: refused before it runs, in one line", async () => {
    // This machine's binary with the other architecture's ELF e_machine (62 x86-64, 183 aarch64):
    // the kernel would refuse it, and the C library would hand it to /bin/sh.
    const header = readFileSync(resolveBinary()).subarray(0, 64);
    const other = process.arch === "x64" ? "aarch64" : "x86_64";
    header.writeUInt16LE(other === "aarch64" ? 183 : 62, 18);
    const foreign = join(work, "foreign-malachite");
    writeFileSync(foreign, header);
    chmodSync(foreign, 0o755);
    const error = await rejection(startMalachite({ binary: foreign }));
    assert.match(error.message, new RegExp(`names ${foreign}, a linux-${other} binary, and this is linux-${process.arch}`));
    assert.match(error.message, /MALACHITE_BINARY/);
    assert.doesNotMatch(error.message, /\n/);
  });

  test("MALACHITE_BINARY naming a file that is not executable, or nothing: the error says which", async () => {
    const file = join(work, "not-executable");
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, 0o644);
    const saved = process.env.MALACHITE_BINARY;
    try {
      process.env.MALACHITE_BINARY = file;
      await assert.rejects(startMalachite(), new RegExp(`MALACHITE_BINARY names ${file}, which is not executable`));
      process.env.MALACHITE_BINARY = join(work, "nothing-here");
      await assert.rejects(startMalachite(), /MALACHITE_BINARY names .*nothing-here, which does not exist/);
    } finally {
      if (saved === undefined) delete process.env.MALACHITE_BINARY;
      else process.env.MALACHITE_BINARY = saved;
    }
  });

  test("a port in use: the server's own message", async () => {
    const blocker = net.createServer();
    await new Promise((r) => blocker.listen(0, "127.0.0.1", r));
    const { port } = blocker.address();
    try {
      const started = Date.now();
      await assert.rejects(startMalachite({ port }), new RegExp(`malachite: cannot listen on 127\\.0\\.0\\.1:${port}: Address already in use`));
      assert.ok(Date.now() - started < 5000);
    } finally {
      blocker.close();
    }
  });

  test("a data directory it cannot use: the server's own message", async () => {
    const file = join(work, "a-file");
    writeFileSync(file, "");
    await assert.rejects(startMalachite({ dataDir: join(file, "data") }), /malachite: data directory .*a-file\/data: cannot create: Not a directory/);
  });

  test("a bad seed file, a seed that is no directory, a bad flag: the server's own message", async () => {
    const seed = join(work, "bad-seed");
    mkdirSync(seed, { recursive: true });
    writeFileSync(join(seed, "orders.jsonl"), '{"PartitionKey":"a"\n');
    await assert.rejects(startMalachite({ seed }), /malachite: .*orders\.jsonl:1: InvalidInput/);
    await assert.rejects(startMalachite({ seed: join(work, "no-such-dir") }), /malachite: --seed .*no-such-dir is not a directory/);
    await assert.rejects(startMalachite({ args: ["--colour", "green"] }), /malachite: unknown option '--colour'/);
  });

  test("a binary that never listens: rejected after startTimeoutMs, and killed", async () => {
    const silent = join(work, "silent");
    writeFileSync(silent, "#!/bin/sh\necho starting\nexec sleep 30\n");
    chmodSync(silent, 0o755);
    const started = Date.now();
    const error = await rejection(startMalachite({ binary: silent, startTimeoutMs: 300 }));
    assert.match(error.message, /did not start within 300 ms: starting/);
    assert.ok(Date.now() - started < 2000);
  });
});

describe("stop() on Windows, where there is no SIGTERM (process.platform faked: win32)", () => {
  // A stand-in server (the launcher runs it like the binary): it says it listens, records its
  // stdin closing, then a SIGTERM if one comes within 2 s, and exits 0; or, stubborn, it ignores
  // both.
  function standIn(name, stubborn) {
    const file = join(work, name);
    const body = stubborn
      ? "trap '' TERM\necho 'malachite: listening on 127.0.0.1:1'\nexec sleep 30\n"
      : "trap 'echo SIGTERM >> \"$0.log\"; exit 0' TERM\necho 'malachite: listening on 127.0.0.1:1'\n" +
        "cat >/dev/null\necho stdin-closed >> \"$0.log\"\nsleep 2 </dev/null >/dev/null 2>&1 &\nwait\n";
    writeFileSync(file, `#!/bin/sh\n${body}`);
    chmodSync(file, 0o755);
    return file;
  }
  // startMalachite({ binary }) and stop() in a node process whose platform is `platform`:
  // { ms, error } of the stop.
  async function stopIn(platform, binary) {
    const script =
      `${platform === "win32" ? 'Object.defineProperty(process, "platform", { value: "win32" });' : ""}` +
      'const { startMalachite } = require("@malachite/server");' +
      "startMalachite({ binary: process.argv[1] }).then(async (server) => { const t0 = Date.now(); let error;" +
      "  try { await server.stop(); } catch (e) { error = e.message; }" +
      "  console.log(JSON.stringify({ ms: Date.now() - t0, error })); });";
    const run = await runNode(["-e", script, binary]);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout.trim().split("\n").pop());
  }

  test("the closed stdin is the stop, and no SIGTERM is sent; on Linux SIGTERM still is", async () => {
    const windows = standIn("graceful-win32");
    assert.equal((await stopIn("win32", windows)).error, undefined);
    assert.equal(readFileSync(`${windows}.log`, "utf8"), "stdin-closed\n");
    const linux = standIn("graceful-linux");
    assert.equal((await stopIn("linux", linux)).error, undefined);
    // (SIGTERM may come while it still reads its stdin: then it records no stdin-closed line)
    assert.match(readFileSync(`${linux}.log`, "utf8"), /^(stdin-closed\n)?SIGTERM\n$/);
  });

  test("a server that does not stop when its stdin closes is killed after 5 s, and stop() rejects saying so", async () => {
    const { ms, error } = await stopIn("win32", standIn("stubborn", true));
    assert.ok(ms >= 4900 && ms < 8000, `stop() took ${ms} ms`);
    assert.match(error ?? "", /did not stop within 5000 ms of its stdin closing and was killed/);
  });
});

describe("lifetime: no server outlives its test process", () => {
  test("a test process that ends without stop() exits at once and its server stops", async () => {
    const run = await runNode([join(project, "fixtures", "runner.mjs")]);
    assert.equal(run.code, 0, run.stderr);
    const pid = Number(/server-pid (\d+)/.exec(run.stdout)[1]);
    assert.ok((await waitGone([pid], 2000)) !== undefined, `server ${pid} still runs after its process ended`);
  });

  test("kill -9 of the test process: the server is gone within 2 s", async () => {
    const runner = spawn(process.execPath, [join(project, "fixtures", "runner.mjs"), "--hold"], {
      env: childEnv(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise((resolve, reject) => {
      let out = "";
      runner.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out);
      });
      runner.on("exit", (code) => reject(new Error(`runner exited (${code}) before printing: ${out}`)));
    });
    const pid = Number(/server-pid (\d+)/.exec(line)[1]);
    assert.ok(!processGone(pid));
    runner.kill("SIGKILL");
    const ms = await waitGone([pid], 2000);
    assert.ok(ms !== undefined, `server ${pid} still runs 2 s after its test process was killed`);
    console.log(`# the server stopped ${ms} ms after kill -9 of its test process`);
  });

  // The pids of root and every process below it.
  function processTree(root) {
    const children = new Map();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (!children.has(ppid)) children.set(ppid, []);
        children.get(ppid).push(Number(entry));
      } catch {}
    }
    const out = [];
    const visit = (pid) => {
      out.push(pid);
      for (const c of children.get(pid) ?? []) visit(c);
    };
    visit(root);
    return out;
  }

  // mode "runner": kill -9 of the runner's main process only (a developer's kill -9 <pid>): its
  // workers live on to the end of their test, but their servers stop with the lost runner.
  // mode "tree": kill -9 of every process of the runner (a CI timeout, an OOM kill of the group).
  const holdRunners = {
    "node --test": {
      files: ["fixtures/sigkill-hold-node.mjs", "fixtures/sigkill-hold-node-2.mjs"],
      args: (files) => ["--test", "--test-concurrency=2", ...files],
    },
    vitest: {
      files: ["fixtures/sigkill-hold.test.mjs", "fixtures/sigkill-hold-2.test.mjs"],
      args: (files) => [join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--maxWorkers=2", ...files],
    },
    jest: {
      files: ["fixtures/sigkill-hold.test.js", "fixtures/sigkill-hold-2.test.js"],
      args: () => [join(project, "node_modules", "jest", "bin", "jest.js"), "--maxWorkers=2",
        "--testMatch", "**/fixtures/sigkill-hold*.test.js"],
    },
  };
  for (const [runnerName, { files, args: argsFor }] of Object.entries(holdRunners)) {
    for (const mode of ["runner", "tree"]) {
      const what = mode === "runner" ? "of the runner's main process" : "of the runner's whole process tree";
      test(`${runnerName}: SIGKILL ${what} leaves no server running`, async () => {
        const pidFile = join(work, `${runnerName.replace(/\W/g, "")}-${mode}.pids`);
        writeFileSync(pidFile, "");
        // Two test files, so the runner uses worker processes.
        const second = join(project, files[1]);
        cpSync(join(project, files[0]), second);
        const args = argsFor(files);
        const runner = spawn(process.execPath, args, {
          cwd: project,
          env: childEnv({ MALACHITE_HOLD_PID_FILE: pidFile, CI: "true" }),
          stdio: ["ignore", "ignore", "ignore"],
        });
        let tree = [runner.pid];
        try {
          let pids = [];
          const deadline = Date.now() + 60000;
          while (pids.length < 2 && Date.now() < deadline) {
            await new Promise((r) => setTimeout(r, 50));
            pids = readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number);
          }
          assert.equal(pids.length, 2, `the ${runnerName} tests did not start their servers within 60 s`);
          tree = processTree(runner.pid);
          for (const pid of pids) assert.ok(tree.includes(pid), `server ${pid} is not in ${runnerName}'s process tree`);
          const runnerProcesses = tree.filter((pid) => !pids.includes(pid));
          const victims = mode === "runner" ? [runner.pid] : runnerProcesses;
          for (const pid of victims) {
            try {
              process.kill(pid, "SIGKILL");
            } catch {}
          }
          const ms = await waitGone(pids, 2000);
          assert.ok(ms !== undefined, `servers ${pids.filter((p) => !processGone(p))} still run 2 s after ${runnerName} was killed`);
          const left = runnerProcesses.filter((p) => !processGone(p)).length;
          console.log(`# ${runnerName}: kill -9 ${what} (${victims.length} of its ${runnerProcesses.length} processes); ` +
            `both servers gone after ${ms} ms; ${left} of its worker processes still ran`);
        } finally {
          // The workers a killed runner leaves behind are this test's to end.
          for (const pid of tree) {
            try {
              process.kill(pid, "SIGKILL");
            } catch {}
          }
          rmSync(second, { force: true });
        }
      });
    }
  }
});
