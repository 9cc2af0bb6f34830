#!/usr/bin/env node
// `azurite` in the malachite:<version>-azurite image: Azurite's whole command line, served by three
// programs run through their public command lines, as Azurite's own image and its VS Code extension
// start services:
//   azurite-blob, azurite-queue   Azurite's own programs (npm azurite, pinned in the repository's
//                                 package.json), each given the flags it takes;
//   azurite-table                 Malachite under Azurite's table command name.
// A supervisor only: it maps the flags, passes the programs' lines through, forwards SIGTERM and
// SIGINT, and exits when one of them stops.
//
// What a caller sees, as with Azurite's image:
//   - the flags of `azurite` (Blob, Queue, Table and the shared ones), -l/--location holding every
//     service's data (Malachite's in <location>/__malachite_table__);
//   - on stdout the programs' own lines, with the single-service readiness lines in the words of
//     `azurite`: "Azurite Blob service is successfully listening at http://h:p", the same for
//     Queue, then Table once Blob and Queue listen (Testcontainers waits for all three);
//   - AZURITE_ACCOUNTS, AZURITE_SKIP_API_VERSION_CHECK, AZURITE_DB reach all the programs.
// A bad command line: one line on stderr, exit 2, nothing started (Malachite checks its own flags and
// AZURITE_ACCOUNTS before Blob and Queue start). SIGTERM/SIGINT: every program gets it, exit 0 once
// they stopped. A program stopping on its own stops the others; the exit status is its status (1 if
// it was 0).
// Emulator: --queueKeepAliveTimeout is accepted but not applied: azurite-queue has no such flag.
//   MALACHITE_AZURITE_TABLE   the table program (default: azurite-table on PATH)
"use strict";

const readline = require("readline");
const { spawn } = require("child_process");

const kTableProgram = process.env.MALACHITE_AZURITE_TABLE || "azurite-table";

// Azurite 3.37's options (`azurite --help`): long name, short name, whether it takes a value, and
// which programs take it ("blob", "queue", "table", "bq": Blob and Queue, "all", "none").
const kOptions = [
  ["blobHost", "", true, "blob"],
  ["blobPort", "", true, "blob"],
  ["blobKeepAliveTimeout", "", true, "blob"],
  ["queueHost", "", true, "queue"],
  ["queuePort", "", true, "queue"],
  ["queueKeepAliveTimeout", "", true, "none"],
  ["tableHost", "", true, "table"],
  ["tablePort", "", true, "table"],
  ["tableKeepAliveTimeout", "", true, "table"],
  ["location", "l", true, "all"],
  ["silent", "s", false, "all"],
  ["loose", "L", false, "all"],
  ["skipApiVersionCheck", "", false, "all"],
  ["disableProductStyleUrl", "", false, "all"],
  ["oauth", "", true, "all"],
  ["cert", "", true, "all"],
  ["key", "", true, "all"],
  ["pwd", "", true, "all"],
  ["inMemoryPersistence", "", false, "all"],
  ["extentMemoryLimit", "", true, "bq"],
  ["debug", "d", true, "all"],
  ["disableTelemetry", "", false, "all"],
  ["help", "h", false, "self"],
  ["version", "v", false, "self"],
];

class UsageError extends Error {}

// Parses argv into [{option, value}] in order. Accepts --name value, --name=value, -x value and
// grouped short flags (-sL), as Azurite's parser (args, on mri) does.
function ParseCommandLine(argv) {
  const byLong = new Map(kOptions.map((o) => [o[0], o]));
  const byShort = new Map(kOptions.filter((o) => o[1]).map((o) => [o[1], o]));
  const parsed = [];
  const take = (option, inline, i, shown) => {
    if (!option[2]) {
      if (inline !== undefined) throw new UsageError(`${shown} takes no value`);
      parsed.push({ option, value: undefined });
      return i;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length || /^-/.test(argv[i + 1])) throw new UsageError(`${shown} needs a value`);
      value = argv[++i];
    }
    parsed.push({ option, value });
    return i;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const option = byLong.get(name);
      if (!option) throw new UsageError(`unknown option '${arg}' (try --help)`);
      i = take(option, eq < 0 ? undefined : arg.slice(eq + 1), i, `--${name}`);
    } else if (/^-[A-Za-z]+$/.test(arg)) {
      const letters = arg.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const option = byShort.get(letters[k]);
        if (!option) throw new UsageError(`unknown option '-${letters[k]}' (try --help)`);
        if (option[2] && k !== letters.length - 1) throw new UsageError(`-${letters[k]} needs a value`);
        i = take(option, undefined, i, `-${letters[k]}`);
      }
    } else {
      throw new UsageError(`unexpected argument '${arg}' (azurite takes options only; try --help)`);
    }
  }
  return parsed;
}

// What Azurite refuses before starting, refused here with exit 2 and nothing started (Azurite's
// programs would print usage and exit 0, or fail after starting the other service); the table
// options are Malachite's to check.
function CheckBlobQueueValues(parsed) {
  const has = (name) => parsed.some((p) => p.option[0] === name);
  for (const { option, value } of parsed) {
    const name = option[0];
    if ((name === "blobPort" || name === "queuePort") && (!/^\d{1,5}$/.test(value) || Number(value) > 65535)) {
      throw new UsageError(`--${name} '${value}': not a port number (0-65535)`);
    }
    if (/^(blob|queue)KeepAliveTimeout$/.test(name) && !/^\d+$/.test(value)) {
      throw new UsageError(`--${name} '${value}': not a number of seconds`);
    }
    if (name === "extentMemoryLimit" && !(Number(value) >= 0)) {
      throw new UsageError(`--extentMemoryLimit '${value}': not a number of megabytes (0 or more)`);
    }
  }
  if (has("inMemoryPersistence") && has("location")) {
    throw new UsageError("The --inMemoryPersistence option is not supported when the --location option is set.");
  }
  if (has("extentMemoryLimit") && !has("inMemoryPersistence")) {
    throw new UsageError("The --extentMemoryLimit option is only supported when the --inMemoryPersistence option is set.");
  }
}

// The flags one program takes: its own ("blob"), those of Blob and Queue ("bq") and the shared ones.
function ArgvFor(parsed, program) {
  const out = [];
  for (const { option, value } of parsed) {
    const side = option[3];
    if (side !== program && side !== "all" && !(side === "bq" && program !== "table")) continue;
    out.push(`--${option[0]}`);
    if (option[2]) out.push(value);
  }
  return out;
}

function AzuriteVersion() {
  return require("azurite/package.json").version;
}

function HelpText() {
  const where = { blob: "Blob", queue: "Queue", bq: "Blob and Queue", table: "Table (Malachite)",
    all: "all three", none: "accepted, not applied (azurite-queue has no such flag)" };
  const lines = kOptions.filter((o) => o[3] !== "self").map((o) => {
    const names = (o[1] ? `-${o[1]}, ` : "    ") + `--${o[0]}` + (o[2] ? " <value>" : "");
    return `  ${names.padEnd(36)} ${where[o[3]]}`;
  });
  return [
    "Usage: azurite [options]",
    `Azurite's command line: Blob and Queue served by Azurite ${AzuriteVersion()} (azurite-blob, ` +
      "azurite-queue), Table by Malachite (azurite-table --help: what each table option does there).",
    ...lines,
    "  -h, --help, -v, --version",
    "Variables: AZURITE_ACCOUNTS, AZURITE_SKIP_API_VERSION_CHECK=true (all three services), AZURITE_DB (Blob).",
  ].join("\n");
}

// The exit status a shell would report for a child that ended with (code, signal).
function ChildStatus(code, signal) {
  if (code !== null) return code;
  return 128 + (require("os").constants.signals[signal] || 0);
}

// Runs one program with its stdout read line by line (each line printed, after `translate`);
// resolves `exited` with its exit status.
function Run(name, program, argv, translate) {
  const child = spawn(program, argv, { stdio: ["ignore", "pipe", "inherit"] });
  const run = { name, child, status: null };
  run.exited = new Promise((resolve) => {
    // "close", not "exit": its last lines are read by then.
    child.on("close", (code, signal) => resolve((run.status = ChildStatus(code, signal))));
    child.on("error", (err) => {
      console.error(`azurite: cannot run ${program}: ${err.message}`);
      resolve((run.status = 1));
    });
  });
  run.lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  run.lines.on("line", (line) => console.log(translate(line)));
  return run;
}

// Resolves with the first line of `run` matching `pattern` (its match), or null when it exits first.
function LineOf(run, pattern) {
  return new Promise((resolve) => {
    run.lines.on("line", (line) => {
      const match = pattern.exec(line);
      if (match) resolve(match);
    });
    run.exited.then(() => resolve(null));
  });
}

// azurite-blob and azurite-queue say "is starting on h:p" and "successfully listens on <url>";
// `azurite` (what Testcontainers and Aspire wait for) says "is starting at <url>" and "is
// successfully listening at <url>".
function AsAzurite(scheme) {
  return (line) => line
    .replace(/^(Azurite (?:Blob|Queue) service) is starting on (.+)$/, `$1 is starting at ${scheme}://$2`)
    .replace(/^(Azurite (?:Blob|Queue) service) successfully listens on (.+)$/, "$1 is successfully listening at $2");
}

async function Main() {
  let parsed;
  try {
    parsed = ParseCommandLine(process.argv.slice(2));
    if (parsed.some((p) => p.option[0] === "help")) return console.log(HelpText()), 0;
    if (parsed.some((p) => p.option[0] === "version")) return console.log(AzuriteVersion()), 0;
    CheckBlobQueueValues(parsed);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`azurite: ${err.message}`);
    return 2;
  }
  // Azurite (ConfigurationBase.hasCert): HTTPS with --cert and --key (PEM) or --pwd (PFX).
  const given = (name) => parsed.some((p) => p.option[0] === name && p.value);
  const scheme = given("cert") && (given("key") || given("pwd")) ? "https" : "http";

  const runs = [];
  let stopping = false;
  const stop = async (status) => {
    if (stopping) return;
    stopping = true;
    for (const run of runs) {
      if (run.status !== null) continue;
      // Emulator: Azurite's programs leave their telemetry client running after "successfully
      // closed", so that they would exit only at docker stop's SIGKILL; once closed they are ended.
      run.lines.on("line", (line) => {
        if (!/ service successfully closed$/.test(line)) return;
        setTimeout(() => run.child.kill("SIGKILL"), 100).unref();
      });
      run.child.kill("SIGTERM");
    }
    // A program that does not stop within docker stop's grace period is killed.
    const killTimer = setTimeout(() => runs.forEach((run) => run.status === null && run.child.kill("SIGKILL")), 9000);
    await Promise.all(runs.map((run) => run.exited));
    clearTimeout(killTimer);
    process.exit(status);
  };
  process.once("SIGTERM", () => stop(0));
  process.once("SIGINT", () => stop(0));
  // A program that stops on its own stops the others; one that refused its command line has said
  // why in its own line.
  const watch = (run, started) => run.exited.then(async (status) => {
    if (stopping) return;
    if (await Promise.race([started, Promise.resolve(null)])) {
      console.error(`azurite: ${run.name} stopped with exit status ${status}`);
    }
    stop(status === 0 ? 1 : status);
  });

  // Malachite first: it checks the table flags and AZURITE_ACCOUNTS and says "is starting" before
  // Blob and Queue are started, so a bad line never leaves a half-started container.
  const table = Run("the table service (Malachite)", kTableProgram, ArgvFor(parsed, "table"), (l) => l);
  runs.push(table);
  const tableStarting = LineOf(table, /^Azurite Table service is starting on /);
  const tableStarted = LineOf(table, /^Azurite Table service successfully started on (.+)$/);
  watch(table, tableStarting);
  if (!(await tableStarting)) return new Promise(() => {});  // watch() reports and exits

  const blob = Run("azurite-blob", "azurite-blob", ArgvFor(parsed, "blob"), AsAzurite(scheme));
  const queue = Run("azurite-queue", "azurite-queue", ArgvFor(parsed, "queue"), AsAzurite(scheme));
  runs.push(blob, queue);
  const listening = [blob, queue].map((run) => LineOf(run, /successfully listens on /));
  watch(blob, Promise.resolve(true));
  watch(queue, Promise.resolve(true));
  const ready = await Promise.all([...listening, tableStarted]);
  if (ready.every(Boolean) && !stopping) {
    console.log(`Azurite Table service is successfully listening at ${scheme}://${ready[2][1]}`);
  }
  return new Promise(() => {});  // runs until a signal or a program stops
}

Main().then(
  (status) => process.exit(status),
  (err) => {
    console.error(`Exit due to unhandled error: ${err.message}`);
    process.exit(1);
  },
);
