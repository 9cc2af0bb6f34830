#!/usr/bin/env node
// `azurite` in the malachite:<version>-azurite image: Azurite's whole command line, with real Azurite
// (npm azurite, pinned in package-lock.json beside this file) serving Blob and Queue in this process,
// as Azurite's own dist/src/azurite.js starts them, and Malachite serving Table as a child process
// (`azurite-table`, the Malachite binary under Azurite's table command name).
//
// What a caller sees, as with Azurite's image:
//   - the flags of `azurite` (Blob, Queue, Table and the shared ones), -l/--location holding every
//     service's data (Malachite's in <location>/__malachite_table__);
//   - on stdout, Azurite's lines "Azurite Blob service is successfully listening at http://h:p", the
//     same for Queue, then Table once Malachite listens (Testcontainers waits for all three), with
//     Malachite's own lines passed through;
//   - AZURITE_ACCOUNTS and AZURITE_SKIP_API_VERSION_CHECK for all three services.
// One process tree: SIGTERM/SIGINT go to Malachite and close Blob and Queue, then exit 0. A bad
// command line: one line on stderr, exit 2, nothing started (Malachite checks its own flags and
// AZURITE_ACCOUNTS before Blob and Queue start). Malachite stopping on its own takes Blob and Queue
// down with its exit status; Blob or Queue failing to start stops Malachite and exits 1 with the
// message, as Azurite does.
//   MALACHITE_AZURITE_TABLE   the table binary (default /usr/local/bin/azurite-table)
"use strict";

const path = require("path");
const readline = require("readline");
const { spawn } = require("child_process");

const kAzurite = path.join(__dirname, "node_modules", "azurite");
const kTableBinary = process.env.MALACHITE_AZURITE_TABLE || "/usr/local/bin/azurite-table";

// Azurite 3.37's options (dist/src/common/Environment.js): long name, short name, whether it takes
// a value, and which side gets it ("bq": Blob and Queue here; "table": Malachite; "all": both).
const kOptions = [
  ["blobHost", "", true, "bq"],
  ["blobPort", "", true, "bq"],
  ["blobKeepAliveTimeout", "", true, "bq"],
  ["queueHost", "", true, "bq"],
  ["queuePort", "", true, "bq"],
  ["queueKeepAliveTimeout", "", true, "bq"],
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
  const byLong = new Map(kOptions.map((o) => [o[0].toLowerCase(), o]));
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
      const option = byLong.get(name.toLowerCase());
      if (!option || option[0] !== name) throw new UsageError(`unknown option '${arg}' (try --help)`);
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

// What Azurite refuses before starting, refused here the same way but with exit 2 and nothing
// started; the table options are Malachite's to check.
function CheckBlobQueueValues(parsed) {
  const has = (name) => parsed.some((p) => p.option[0] === name);
  for (const { option, value } of parsed) {
    const name = option[0];
    if ((name === "blobPort" || name === "queuePort") && (!/^\d{1,5}$/.test(value) || Number(value) > 65535)) {
      throw new UsageError(`--${name} '${value}': not a port number (0-65535)`);
    }
    if (/KeepAliveTimeout$/.test(name) && option[3] === "bq" && !/^\d+$/.test(value)) {
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

function ToArgv(parsed, sides) {
  const out = [];
  for (const { option, value } of parsed) {
    if (!sides.includes(option[3])) continue;
    out.push(`--${option[0]}`);
    if (option[2]) out.push(value);
  }
  return out;
}

function HelpText() {
  const lines = kOptions.filter((o) => o[3] !== "self").map((o) => {
    const names = (o[1] ? `-${o[1]}, ` : "    ") + `--${o[0]}` + (o[2] ? " <value>" : "");
    const side = { bq: "Blob and Queue (Azurite)", table: "Table (Malachite)", all: "all three" }[o[3]];
    return `  ${names.padEnd(36)} ${side}`;
  });
  return [
    "Usage: azurite [options]",
    "Azurite's command line: Blob and Queue served by Azurite " + AzuriteVersion() +
      ", Table by Malachite (azurite-table --help: what each table option does there).",
    ...lines,
    "  -h, --help, -v, --version",
    "Variables: AZURITE_ACCOUNTS, AZURITE_SKIP_API_VERSION_CHECK=true (all three services), AZURITE_DB (Blob).",
  ].join("\n");
}

function AzuriteVersion() {
  return require(path.join(kAzurite, "package.json")).version;
}

// The exit status a shell would report for a child that ended with (code, signal).
function ChildStatus(code, signal) {
  if (code !== null) return code;
  const number = require("os").constants.signals[signal] || 0;
  return 128 + number;
}

async function Main() {
  let parsed;
  try {
    parsed = ParseCommandLine(process.argv.slice(2));
    if (parsed.some((p) => p.option[0] === "help")) {
      console.log(HelpText());
      return 0;
    }
    if (parsed.some((p) => p.option[0] === "version")) {
      console.log(AzuriteVersion());
      return 0;
    }
    CheckBlobQueueValues(parsed);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`azurite: ${err.message}`);
    return 2;
  }
  // Azurite (ConfigurationBase.hasCert): HTTPS with --cert and --key (PEM) or --pwd (PFX); --cert
  // alone serves plain HTTP, on Malachite's side too.
  const given = (name) => parsed.some((p) => p.option[0] === name && p.value);
  const hasCert = given("cert") && (given("key") || given("pwd"));

  // Malachite first: it checks the table flags and AZURITE_ACCOUNTS and says "is starting" before
  // Blob and Queue are started, so a bad line never leaves a half-started container.
  const table = spawn(kTableBinary, ToArgv(parsed, ["table", "all"]), {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let tableExit = null;
  let stopping = false;
  const tableExited = new Promise((resolve) => {
    table.on("exit", (code, signal) => {
      tableExit = ChildStatus(code, signal);
      resolve(tableExit);
    });
    table.on("error", (err) => {
      stopping = true;  // this line is the whole message
      console.error(`azurite: cannot run the table service ${kTableBinary}: ${err.message}`);
      tableExit = 1;
      resolve(1);
    });
  });
  let tableStarting;
  let tableListening;
  let tableAccepted = false;
  const tableStartingSeen = new Promise((resolve) => (tableStarting = resolve));
  const tableListeningSeen = new Promise((resolve) => (tableListening = resolve));
  readline.createInterface({ input: table.stdout, crlfDelay: Infinity }).on("line", (line) => {
    console.log(line);
    if (/^Azurite Table service is starting on /.test(line)) {
      tableAccepted = true;
      tableStarting();
    }
    const started = /^Azurite Table service successfully started on (.+)$/.exec(line);
    if (started) tableListening(started[1]);
  });

  // Azurite's modules read process.argv when an Environment is made: give them the Blob, Queue and
  // shared options only, as `azurite` would have parsed them.
  process.argv = [process.argv[0], process.argv[1], ...ToArgv(parsed, ["bq", "all"])];
  const Environment = require(path.join(kAzurite, "dist/src/common/Environment")).default;
  const { BlobServerFactory } = require(path.join(kAzurite, "dist/src/blob/BlobServerFactory"));
  const Logger = require(path.join(kAzurite, "dist/src/common/Logger"));
  const QueueConfiguration = require(path.join(kAzurite, "dist/src/queue/QueueConfiguration")).default;
  const QueueServer = require(path.join(kAzurite, "dist/src/queue/QueueServer")).default;
  const queueConstants = require(path.join(kAzurite, "dist/src/queue/utils/constants"));
  const { setExtentMemoryLimit } = require(path.join(kAzurite, "dist/src/common/ConfigurationBase"));
  const { AzuriteTelemetryClient } = require(path.join(kAzurite, "dist/src/common/Telemetry"));

  const servers = [];
  const stop = async (status, message) => {
    if (stopping) return;
    stopping = true;
    if (message) console.error(message);
    if (tableExit === null) table.kill("SIGTERM");
    const closing = servers.map(({ name, server }) => {
      console.log(`Azurite ${name} service is closing...`);
      return server.close().then(
        () => console.log(`Azurite ${name} service successfully closed`),
        (err) => console.error(`Azurite ${name} service: close failed: ${err.message}`),
      );
    });
    // A table server that does not stop within docker stop's grace period is killed.
    const killTimer = setTimeout(() => table.kill("SIGKILL"), 9000);
    await Promise.all([...closing, tableExited]);
    clearTimeout(killTimer);
    process.exit(status);
  };
  process.once("SIGTERM", () => stop(0));
  process.once("SIGINT", () => stop(0));
  tableExited.then((status) => {
    if (stopping) {
      if (servers.length === 0) process.exit(status);  // spawn failed: nothing else runs
    } else if (!tableAccepted) {
      stop(status);  // it refused its command line: its one line on stderr is the message
    } else {
      stop(status === 0 ? 1 : status, `azurite: the table service (Malachite) stopped with exit status ${status}`);
    }
  });

  // Start only once Malachite has accepted its command line (or never: it exited).
  await Promise.race([tableStartingSeen, tableExited]);
  if (stopping || tableExit !== null) return new Promise(() => {});
  try {
    const env = new Environment();
    const location = await env.location();
    await require("fs").promises.mkdir(location, { recursive: true });
    const debugFile = await env.debug();
    const blobServer = await new BlobServerFactory().createServer(env);
    const blobConfig = blobServer.config;
    queueConstants.DEFAULT_QUEUE_PERSISTENCE_ARRAY[0].locationPath = path.join(
      location, queueConstants.DEFAULT_QUEUE_PERSISTENCE_PATH);
    const queueConfig = new QueueConfiguration(env.queueHost(), env.queuePort(),
      env.queueKeepAliveTimeout(), path.join(location, queueConstants.DEFAULT_QUEUE_LOKI_DB_PATH),
      path.join(location, queueConstants.DEFAULT_QUEUE_EXTENT_LOKI_DB_PATH),
      queueConstants.DEFAULT_QUEUE_PERSISTENCE_ARRAY, !env.silent(), undefined,
      debugFile !== undefined, debugFile, env.loose(), env.skipApiVersionCheck(), env.cert(),
      env.key(), env.pwd(), env.oauth(), env.disableProductStyleUrl(), env.inMemoryPersistence());
    Logger.configLogger(blobConfig.enableDebugLog, blobConfig.debugLogFilePath);
    const queueServer = new QueueServer(queueConfig);
    setExtentMemoryLimit(env, true);

    console.log(`Azurite Blob service is starting at ${blobConfig.getHttpServerAddress()}`);
    await blobServer.start();
    servers.push({ name: "Blob", server: blobServer });
    console.log(`Azurite Blob service is successfully listening at ${blobServer.getHttpServerAddress()}`);
    console.log(`Azurite Queue service is starting at ${queueConfig.getHttpServerAddress()}`);
    await queueServer.start();
    servers.push({ name: "Queue", server: queueServer });
    console.log(`Azurite Queue service is successfully listening at ${queueServer.getHttpServerAddress()}`);

    const tableAddress = await Promise.race([tableListeningSeen, tableExited.then(() => null)]);
    if (tableAddress === null || stopping) return new Promise(() => {});
    console.log(`Azurite Table service is successfully listening at http${hasCert ? "s" : ""}://${tableAddress}`);
    AzuriteTelemetryClient.init(location, !env.disableTelemetry(), env);
    await AzuriteTelemetryClient.TraceStartEvent();
  } catch (err) {
    await stop(1, `Exit due to unhandled error: ${err.message}`);
  }
  return new Promise(() => {});  // runs until a signal or the table service stops
}

Main().then(
  (status) => process.exit(status),
  (err) => {
    console.error(`Exit due to unhandled error: ${err.message}`);
    process.exit(1);
  },
);
