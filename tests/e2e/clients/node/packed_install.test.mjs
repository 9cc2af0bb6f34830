// The npm packages of clients/node/ as a developer gets them: clients/node/pack's tarballs (made from
// scripts/package's bundles in dist/) installed with npm into a clean project outside the
// repository (project/package.json and its lock: @azure/data-tables, vitest, jest, testcontainers,
// typescript), then, in that project, the types (tsc --strict), the README examples under their
// runners (examples/: node --test, vitest, jest), project/behaviour.test.mjs, bench/client_start.mjs
// and, with a Docker engine, @malachite/testcontainers against the image built from scripts/package's
// context. Each inner node:test test is reported here under its own name (results-reporter.mjs).
// The Windows binary package (@malachite/server-win32-x64, from scripts/package's
// malachite-<v>-windows-x86_64.zip) is checked as npm installs it for win32-x64 (npm --os --cpu),
// and @malachite/server picks its bin/malachite.exe when the platform is win32 (faked here; the
// release workflow's windows job runs project/windows.test.mjs on Windows).
//
//   node --test --test-concurrency=1 tests/e2e/clients/node/*.test.mjs      (after scripts/package)
//
// The binary comes from the binary package, as for a user: MALACHITE_BINARY is unset for the
// project. The bundles are in MALACHITE_DIST (default dist/). No bundle there: skipped
// (MALACHITE_PACKAGE_REQUIRED=1: failed), the same for the Windows zip and its tests;
// MALACHITE_REQUIRE_ARM64=1: the aarch64 bundle must be there too. No Docker engine (or
// MALACHITE_NODE_CLIENT_DOCKER=0): the Testcontainers test is skipped (MALACHITE_DOCKER_REQUIRED=1:
// failed). The project's node_modules are cached in ~/.cache/malachite/node-client, keyed by its
// lock, Node and npm.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { unavailable } from "../../../support/required.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..", "..", "..");
const machine = { x64: "x86_64", arm64: "aarch64" }[process.arch] ?? process.arch;
const dist = process.env.MALACHITE_DIST ?? join(repoRoot, "dist");
const work = mkdtempSync(join(tmpdir(), "malachite-node-client-"));
after(() => rmSync(work, { recursive: true, force: true }));
const minutes = (n) => n * 60_000;

// The environment of what runs in the project: no MALACHITE_BINARY (the packages are under test),
// and nothing that would make an inner node --test report to this runner.
function projectEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.MALACHITE_BINARY;
  delete env.NODE_TEST_CONTEXT;
  return env;
}

// Runs a command; resolves to { code, output } (stdout and stderr interleaved, without terminal
// escapes), killing it after timeoutMs (code null then).
function run(command, args, { cwd = work, env = projectEnv(), timeoutMs = minutes(10), input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    if (input !== undefined) child.stdin.end(input);
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs} ms)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "") }); // without colours
    });
  });
}

const tail = (text, lines = 60) => text.trimEnd().split("\n").slice(-lines).join("\n");
async function mustRun(what, command, args, options) {
  const out = await run(command, args, options);
  assert.equal(out.code, 0, `${what} failed (${command} ${args.join(" ")}):\n${tail(out.output)}`);
  return out.output;
}

// ---- the clean project, made once for the file ---------------------------------------------------
let made;
const project = () => (made ??= makeProject());

async function makeProject() {
  const version = (await mustRun("scripts/package --version", join(repoRoot, "scripts", "package"), ["--version"])).trim();
  const bundle = join(dist, `malachite-${version}-linux-${machine}.tar.gz`);
  if (!existsSync(bundle)) return { missing: `no ${bundle}: run scripts/package first` };
  const npmDir = join(work, "npm");
  // clients/node/pack reads MALACHITE_REQUIRE_ARM64 itself: then the aarch64 bundle must be there.
  await mustRun("clients/node/pack", join(repoRoot, "clients", "node", "pack"), ["--out", npmDir, "--dist", dist], { env: process.env });
  const tarballs = readdirSync(npmDir).filter((f) => f.endsWith(".tgz")).sort();

  // node_modules of project/package.json's lock, cached; hard-linked into the project (a copy in a
  // second). npm adds the tarballs beside them and rewrites only its hidden lock file, which is
  // unlinked first so the cache keeps its own.
  const files = join(here, "project");
  const versions = (await mustRun("node/npm --version", "sh", ["-c", "node --version && npm --version"])).trim();
  const key = createHash("sha256")
    .update(readFileSync(join(files, "package.json")))
    .update(readFileSync(join(files, "package-lock.json")))
    .update(versions)
    .digest("hex")
    .slice(0, 16);
  const cache = join(process.env.MALACHITE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "malachite"), "node-client");
  const modules = join(cache, `modules-${key}`);
  if (!existsSync(join(modules, "node_modules"))) {
    rmSync(`${modules}.tmp`, { recursive: true, force: true });
    mkdirSync(`${modules}.tmp`, { recursive: true });
    cpSync(join(files, "package.json"), join(`${modules}.tmp`, "package.json"));
    cpSync(join(files, "package-lock.json"), join(`${modules}.tmp`, "package-lock.json"));
    await mustRun("npm ci of project/package-lock.json", "npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: `${modules}.tmp`,
    });
    rmSync(modules, { recursive: true, force: true });
    renameSync(`${modules}.tmp`, modules);
    // Entries of another lock are of no further use.
    for (const entry of readdirSync(cache)) {
      if (entry.startsWith("modules-") && entry !== `modules-${key}`) rmSync(join(cache, entry), { recursive: true, force: true });
    }
  }
  const dir = join(work, "project");
  mkdirSync(dir);
  if ((await run("cp", ["-al", join(modules, "node_modules"), dir])).code !== 0) {
    rmSync(join(dir, "node_modules"), { recursive: true, force: true }); // another file system
    await mustRun("copy of the cached node_modules", "cp", ["-a", join(modules, "node_modules"), dir]);
  }
  rmSync(join(dir, "node_modules", ".package-lock.json"), { force: true });
  // The committed package.json plus the tarballs; the binary packages of other platforms as
  // optional dependencies (npm skips them, as it does for a user of the registry).
  const pkg = JSON.parse(readFileSync(join(files, "package.json"), "utf8"));
  pkg.optionalDependencies = {};
  for (const file of tarballs) {
    const m = /^malachite-(client|server|server-(linux-x64|linux-arm64|win32-x64)|testcontainers)-\d.*\.tgz$/.exec(file);
    if (!m) continue;
    const thisPlatform = m[2] === undefined || m[2] === `${process.platform}-${process.arch}`;
    (thisPlatform ? pkg.devDependencies : pkg.optionalDependencies)[`@malachite/${m[1]}`] = `file:${join(npmDir, file)}`;
  }
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  cpSync(join(files, "package-lock.json"), join(dir, "package-lock.json"));
  await mustRun("npm install of the tarballs", "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
  });
  for (const entry of readdirSync(files)) {
    if (!["package.json", "package-lock.json"].includes(entry)) cpSync(join(files, entry), join(dir, entry), { recursive: true });
  }
  cpSync(join(here, "examples"), join(dir, "examples"), { recursive: true });
  cpSync(join(repoRoot, "bench", "client_start.mjs"), join(dir, "client_start.mjs"));
  return { version, dir, npmDir, tarballs };
}

// The project, or undefined after marking the test skipped (failed where packages are required).
async function ready(t) {
  const p = await project();
  if (p.missing) return unavailable(t, "MALACHITE_PACKAGE_REQUIRED", p.missing);
  return p;
}

// Runs `node --test args` in the project and reports each of its tests as a subtest of t, under its
// name, failing with its own error; then the run as a whole must have passed.
let runs = 0;
async function nodeTestInProject(t, p, args, extraEnv = {}) {
  const results = join(work, `results-${++runs}.jsonl`);
  const reporter = join(here, "results-reporter.mjs");
  const argv = ["--test", `--test-reporter=${reporter}`, `--test-reporter-destination=${results}`, "--test-reporter=spec",
    "--test-reporter-destination=stdout", ...args];
  const out = await run(process.execPath, argv, { cwd: p.dir, env: projectEnv(extraEnv), timeoutMs: minutes(15) });
  const inner = existsSync(results) ? readFileSync(results, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  for (const line of out.output.split("\n")) if (/^\s*# /.test(line)) t.diagnostic(line.trim().slice(2)); // figures
  const files = new Set(inner.map((r) => r.file));
  for (const r of inner) {
    const name = files.size > 1 && r.file ? `${relative(p.dir, r.file)}: ${r.name}` : r.name;
    await t.test(name, { skip: r.skip }, () => {
      if (!r.ok) assert.fail(r.error);
    });
  }
  assert.ok(inner.length > 0, `node --test ${args.join(" ")} reported no test:\n${tail(out.output)}`);
  assert.equal(out.code, 0, `node --test ${args.join(" ")} exited with ${out.code}:\n${tail(out.output)}`);
}

// ---- the tarballs and the install ----------------------------------------------------------------
describe("the npm tarballs installed into a clean project", () => {
  test("clients/node/pack makes client, server, testcontainers and this platform's binary package at scripts/package's version", async (t) => {
    const p = await ready(t);
    if (!p) return;
    const wanted = ["client", "server", `server-linux-${process.arch}`, "testcontainers"];
    if (process.env.MALACHITE_REQUIRE_ARM64 === "1" && process.arch !== "arm64") wanted.push("server-linux-arm64");
    for (const name of wanted) {
      assert.ok(p.tarballs.includes(`malachite-${name}-${p.version}.tgz`), `no malachite-${name}-${p.version}.tgz among ${p.tarballs.join(" ")}`);
    }
  });

  test("npm install puts client, server, this platform's binary package and testcontainers in node_modules/@malachite", async (t) => {
    const p = await ready(t);
    if (!p) return;
    const installed = readdirSync(join(p.dir, "node_modules", "@malachite")).sort();
    assert.deepEqual(installed, ["client", "server", `server-linux-${process.arch}`, "testcontainers"],
      `node_modules/@malachite holds ${installed.join(" ")}, not client, server, this platform's binary package and testcontainers`);
  });

  test("one @malachite/client, shared: neither @malachite/server nor @malachite/testcontainers has a copy of its own", async (t) => {
    const p = await ready(t);
    if (!p) return;
    for (const pkg of ["server", "testcontainers"]) {
      assert.ok(!existsSync(join(p.dir, "node_modules", "@malachite", pkg, "node_modules")),
        `node_modules/@malachite/${pkg} has a node_modules of its own (a second @malachite/client?)`);
    }
  });

  test("tsc --strict accepts types-check.ts: the .d.ts files describe what the READMEs show", async (t) => {
    const p = await ready(t);
    if (!p) return;
    const out = await run(process.execPath, [join("node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: p.dir });
    assert.equal(out.code, 0, `tsc --strict rejects types-check.ts:\n${tail(out.output)}`);
  });
});

// ---- the Windows binary package, as npm installs it on Windows x64 --------------------------------
// The machine of a PE file (0x8664: x86-64), or undefined when the bytes are not one.
function peMachine(bytes) {
  if (bytes.length < 64 || bytes.toString("latin1", 0, 2) !== "MZ") return undefined;
  const at = bytes.readUInt32LE(0x3c);
  if (at + 6 > bytes.length || bytes.readUInt32BE(at) !== 0x50450000) return undefined; // "PE\0\0"
  return bytes.readUInt16LE(at + 4);
}

let windowsMade;
// { zip, unzipped, unpacked (the win32-x64 tarball's package/), user (a project where npm installed
// the packages as on Windows x64) }, or undefined after marking the test skipped (failed where
// packages are required).
async function windowsReady(t) {
  const p = await ready(t);
  if (!p) return undefined;
  const w = await (windowsMade ??= makeWindows(p));
  if (w.missing) return unavailable(t, "MALACHITE_PACKAGE_REQUIRED", w.missing);
  return { ...w, p };
}

async function makeWindows(p) {
  const name = `malachite-${p.version}-windows-x86_64`;
  const zip = join(dist, `${name}.zip`);
  if (!existsSync(zip)) return { missing: `no ${zip}: run scripts/package --windows-exe <the cross build's malachite.exe>` };
  const file = `malachite-server-win32-x64-${p.version}.tgz`;
  assert.ok(p.tarballs.includes(file), `clients/node/pack made no ${file} from ${zip}: ${p.tarballs.join(" ")}`);
  const unpacked = join(work, "win32-x64");
  mkdirSync(unpacked);
  await mustRun(`tar -xzf ${file}`, "tar", ["-xzf", join(p.npmDir, file), "-C", unpacked]);
  await mustRun(`unzip ${zip}`, "unzip", ["-q", zip, "-d", join(work, "windows-zip")]);
  // A user's project: @malachite/client and /server, every binary package as an optional
  // dependency (as @malachite/server names them); npm --os --cpu plays Windows x64, and no script
  // runs (install.js would look for this machine's package).
  const user = join(work, "windows-user");
  mkdirSync(user);
  const tgz = (f) => `file:${join(p.npmDir, f)}`;
  const optional = {};
  for (const f of p.tarballs) {
    const m = /^malachite-(server-(?:linux|win32)-[a-z0-9]+)-\d/.exec(f);
    if (m) optional[`@malachite/${m[1]}`] = tgz(f);
  }
  const pkg = {
    name: "windows-user",
    version: "1.0.0",
    dependencies: { "@malachite/client": tgz(`malachite-client-${p.version}.tgz`), "@malachite/server": tgz(`malachite-server-${p.version}.tgz`) },
    optionalDependencies: optional,
  };
  writeFileSync(join(user, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  await mustRun("npm install --os=win32 --cpu=x64", "npm",
    ["install", "--os=win32", "--cpu=x64", "--ignore-scripts", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: user });
  return { zip, unzipped: join(work, "windows-zip", name), unpacked: join(unpacked, "package"), user };
}

// What @malachite/server's resolveBinary() answers in the Windows user's project: { binary } or
// { error }; win32: process.platform and process.arch faked to win32 and x64 first (binary.js reads
// them when it is called).
async function resolvedInWindowsProject(w, { win32, binary }) {
  const fake = win32 ? 'Object.defineProperty(process, "platform", { value: "win32" }); Object.defineProperty(process, "arch", { value: "x64" });' : "";
  const script = `${fake} let out; try { out = { binary: require("@malachite/server").resolveBinary() }; } ` +
    "catch (e) { out = { error: e.message }; } console.log(JSON.stringify(out));";
  const out = await mustRun("resolveBinary() in the Windows user's project", process.execPath, ["-e", script],
    { cwd: w.user, env: binary ? { ...projectEnv(), MALACHITE_BINARY: binary } : projectEnv() });
  return JSON.parse(out.trim().split("\n").pop());
}

describe("the Windows binary package @malachite/server-win32-x64, from the Windows zip", () => {
  test("it holds bin/malachite.exe (the zip's, a PE x86-64 executable), LICENSE, THIRD-PARTY-NOTICES, README.md and package.json only", async (t) => {
    const w = await windowsReady(t);
    if (!w) return;
    assert.deepEqual(readdirSync(w.unpacked).sort(), ["LICENSE", "README.md", "THIRD-PARTY-NOTICES", "bin", "package.json"]);
    assert.deepEqual(readdirSync(join(w.unpacked, "bin")), ["malachite.exe"]);
    const exe = readFileSync(join(w.unpacked, "bin", "malachite.exe"));
    assert.equal(peMachine(exe), 0x8664, "bin/malachite.exe is not a PE x86-64 executable");
    assert.ok(exe.equals(readFileSync(join(w.unzipped, "malachite.exe"))), "bin/malachite.exe is not the zip's malachite.exe");
    assert.ok(readFileSync(join(w.unpacked, "LICENSE")).equals(readFileSync(join(repoRoot, "LICENSE"))));
    assert.ok(readFileSync(join(w.unpacked, "THIRD-PARTY-NOTICES")).equals(readFileSync(join(w.unzipped, "THIRD-PARTY-NOTICES.txt"))),
      "THIRD-PARTY-NOTICES is not the zip's THIRD-PARTY-NOTICES.txt");
  });

  test("its package.json says os win32, cpu x64, no libc, files bin/malachite.exe, at the version; @malachite/server names it at that version", async (t) => {
    const w = await windowsReady(t);
    if (!w) return;
    const manifest = JSON.parse(readFileSync(join(w.unpacked, "package.json"), "utf8"));
    assert.deepEqual([manifest.name, manifest.version, manifest.os, manifest.cpu, manifest.libc],
      ["@malachite/server-win32-x64", w.p.version, ["win32"], ["x64"], undefined]);
    assert.ok(manifest.files.includes("bin/malachite.exe"), `files: ${manifest.files}`);
    const server = JSON.parse(readFileSync(join(w.user, "node_modules", "@malachite", "server", "package.json"), "utf8"));
    assert.equal(server.optionalDependencies["@malachite/server-win32-x64"], w.p.version);
  });

  test("npm installs it, and no Linux binary package, for win32-x64", async (t) => {
    const w = await windowsReady(t);
    if (!w) return;
    const installed = readdirSync(join(w.user, "node_modules", "@malachite")).sort();
    assert.deepEqual(installed, ["client", "server", "server-win32-x64"]);
    assert.ok(existsSync(join(w.user, "node_modules", "@malachite", "server-win32-x64", "bin", "malachite.exe")));
  });

  test("resolveBinary() on win32-x64 picks its bin/malachite.exe, and refuses a Linux binary there in one line", async (t) => {
    const w = await windowsReady(t);
    if (!w) return;
    const picked = await resolvedInWindowsProject(w, { win32: true });
    assert.deepEqual(picked, { binary: join(w.user, "node_modules", "@malachite", "server-win32-x64", "bin", "malachite.exe") });
    // node itself is an ELF executable of this machine.
    const elf = await resolvedInWindowsProject(w, { win32: true, binary: process.execPath });
    assert.match(elf.error ?? "", new RegExp(`^@malachite/server: MALACHITE_BINARY names .*, a linux-${machine} binary, and this is win32-x64; .*MALACHITE_BINARY`));
    assert.doesNotMatch(elf.error, /\n/);
  });

  test("on Linux, the same project says its Linux package is not installed, and refuses malachite.exe in one line", async (t) => {
    const w = await windowsReady(t);
    if (!w) return;
    const here = `${process.platform}-${process.arch}`;
    const none = await resolvedInWindowsProject(w, { win32: false });
    assert.match(none.error ?? "", new RegExp(`^@malachite/server: the binary package @malachite/server-${here} for ${here} is not installed`));
    const exe = join(w.unzipped, "malachite.exe");
    const pe = await resolvedInWindowsProject(w, { win32: false, binary: exe });
    assert.equal(pe.error?.split(";")[0], `@malachite/server: MALACHITE_BINARY names ${exe}, a windows-x86_64 binary, and this is ${here}`);
    assert.doesNotMatch(pe.error, /\n/);
  });
});

// ---- the README examples, as they are (their snippets are checked by tests/docs) ----------------
describe("the README examples pass against the installed packages", () => {
  test("node --test examples/node-test.test.mjs", async (t) => {
    const p = await ready(t);
    if (p) await nodeTestInProject(t, p, ["examples/node-test.test.mjs"]);
  });

  test("vitest run examples/vitest.test.mjs", async (t) => {
    const p = await ready(t);
    if (!p) return;
    const out = await run(process.execPath, [join("node_modules", "vitest", "vitest.mjs"), "run", "examples/vitest.test.mjs"], { cwd: p.dir });
    assert.equal(out.code, 0, `vitest failed on the README's example:\n${tail(out.output)}`);
    assert.match(out.output, /Tests\s+2 passed/, `vitest did not run the example's two tests:\n${tail(out.output)}`);
  });

  test("jest examples/jest.test.js", async (t) => {
    const p = await ready(t);
    if (!p) return;
    const out = await run(process.execPath, [join("node_modules", "jest", "bin", "jest.js"), "--ci", "examples/jest.test.js"], { cwd: p.dir });
    assert.equal(out.code, 0, `jest failed on the README's example:\n${tail(out.output)}`);
    assert.match(out.output, /Tests:\s+2 passed, 2 total/, `jest did not run the example's two tests:\n${tail(out.output)}`);
  });
});

// ---- behaviour: the surface, bad input, install time, lifetime -----------------------------------
test("project/behaviour.test.mjs against the installed @malachite/server", async (t) => {
  const p = await ready(t);
  if (p) await nodeTestInProject(t, p, ["--test-concurrency=1", "behaviour.test.mjs"], { MALACHITE_NPM_TARBALLS: p.npmDir });
});

test("bench/client_start.mjs runs against the installed package (figures printed, not asserted)", async (t) => {
  const p = await ready(t);
  if (!p) return;
  const out = await run(process.execPath, ["client_start.mjs"], { cwd: p.dir });
  assert.equal(out.code, 0, `bench/client_start.mjs failed:\n${tail(out.output)}`);
  for (const line of out.output.trimEnd().split("\n")) t.diagnostic(line);
});

// ---- @malachite/testcontainers with a real Docker engine ----------------------------------------
// tests/docker/engine.py (the running engine, or Debian's dockerd started under a lock) in a Python
// process that holds the engine until its stdin closes: when this test ends, or its process dies,
// the engine it started stops and the host is put back as it was.
const engineProgram = `
import os, sys
sys.path.insert(0, sys.argv[1])
from engine import Engine
engine = Engine(sys.argv[2])
why = engine.start()
if why:
    engine.stop()
    print("unavailable: " + why, flush=True)
    sys.exit(3)
print("ready %s %s" % (os.environ.get("DOCKER_HOST", ""), engine.what), flush=True)
try:
    sys.stdin.read()
finally:
    engine.stop()
`;

function startEngine() {
  const args = ["-c", engineProgram, join(repoRoot, "tests", "docker"), join(work, "engine")];
  const child = spawn("/usr/bin/python3", args, { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stderr.on("data", (d) => (output += d));
    child.stdout.on("data", (d) => {
      output += d;
      const m = /^ready (\S*) (.*)$/m.exec(output);
      if (m) resolve({ host: m[1], what: m[2], stop: () => new Promise((r) => (child.stdin.end(), child.on("close", r))) });
    });
    child.on("close", (code) => {
      const why = /^unavailable: (.*)$/m.exec(output);
      if (code === 3 && why) resolve({ unavailable: why[1] });
      else reject(new Error(`the Docker engine did not start (exit ${code}):\n${tail(output)}`));
    });
  });
}

test("@malachite/testcontainers with a Docker engine: the README example and project/testcontainers.test.mjs", async (t) => {
  if (process.env.MALACHITE_NODE_CLIENT_DOCKER === "0") {
    return unavailable(t, "MALACHITE_DOCKER_REQUIRED", "MALACHITE_NODE_CLIENT_DOCKER=0 leaves the Docker engine out");
  }
  const p = await ready(t);
  if (!p) return;
  const engine = await startEngine();
  if (engine.unavailable) return unavailable(t, "MALACHITE_DOCKER_REQUIRED", engine.unavailable);
  const env = projectEnv(engine.host ? { DOCKER_HOST: engine.host } : {});
  const image = `malachite:${p.version}`;
  let tagged = false;
  try {
    t.diagnostic(engine.what);
    const context = join(dist, `malachite-${p.version}-image-${machine}`);
    assert.ok(existsSync(join(context, "build-args")), `no image context ${context} (scripts/package)`);
    // A tag the engine had before stays; one made here goes at the end.
    tagged = (await run("docker", ["image", "inspect", image], { env })).code !== 0;
    const buildArgs = readFileSync(join(context, "build-args"), "utf8").split("\n").filter(Boolean).flatMap((a) => ["--build-arg", a]);
    await mustRun(`docker build of ${context}`, "docker", ["build", "-q", ...buildArgs, "-t", image, context], {
      env: { ...env, DOCKER_BUILDKIT: "0" },
      timeoutMs: minutes(15),
    });
    await nodeTestInProject(t, p, ["--test-concurrency=1", "examples/testcontainers.test.mjs", "testcontainers.test.mjs"], {
      ...(engine.host ? { DOCKER_HOST: engine.host } : {}),
      TESTCONTAINERS_RYUK_DISABLED: "true",
      MALACHITE_IMAGE: image,
    });
  } finally {
    if (tagged) await run("docker", ["rmi", image], { env });
    await engine.stop();
  }
});
