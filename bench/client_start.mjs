// The two start-up figures promised for @malachite/server (README), measured as a test suite meets them
// (tests/e2e/clients/node/packed_install.test.mjs runs it once in its clean project and prints them; no assertion):
//   1. startMalachite() to the first successful SDK call (TableClient.createTable), over --runs
//      starts (median and p95; target 100 ms), and its two parts: the server listening, the call;
//   2. --tests parallel "tests" on one server, each createAccount -> createTable -> upsert + get an
//      entity -> delete the account, all at once (target 1 s in all), --rounds times.
//
//   node bench/client_start.mjs [--runs 20] [--tests 100] [--rounds 3]
// Needs @malachite/server and @azure/data-tables resolvable from where it runs.
import { TableClient } from "@azure/data-tables";
import { startMalachite } from "@malachite/server";

function parseArgs(argv) {
  const options = { runs: 20, tests: 100, rounds: 3 };
  for (let i = 2; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "");
    if (!(name in options) || !(Number(argv[i + 1]) > 0)) throw new Error(`usage: --runs N --tests N --rounds N (got ${argv[i]} ${argv[i + 1]})`);
    options[name] = Number(argv[i + 1]);
  }
  return options;
}

const sdkOptions = { allowInsecureConnection: true };

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (x) => `${x.toFixed(1)} ms`;

async function startToFirstCall(runs) {
  const total = [];
  const listening = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const server = await startMalachite();
    const t1 = performance.now();
    await TableClient.fromConnectionString(server.connectionString, "first", sdkOptions).createTable();
    const t2 = performance.now();
    await server.stop();
    total.push(t2 - t0);
    listening.push(t1 - t0);
  }
  const calls = total.map((t, i) => t - listening[i]);
  console.log(
    `client_start: startMalachite() -> first createTable: median ${ms(percentile(total, 50))}, ` +
      `p95 ${ms(percentile(total, 95))}, max ${ms(Math.max(...total))} over ${runs} starts (target 100 ms); ` +
      `of which listening: median ${ms(percentile(listening, 50))}, the call: median ${ms(percentile(calls, 50))} ` +
      `(the first start, with Node's module loading: ${ms(total[0])})`,
  );
}

async function parallelTests(tests, rounds) {
  const server = await startMalachite();
  try {
    const oneTest = async (i) => {
      const account = await server.createAccount();
      const table = TableClient.fromConnectionString(account.connectionString, "orders", sdkOptions);
      await table.createTable();
      await table.upsertEntity({ partitionKey: "p", rowKey: String(i), total: i });
      const entity = await table.getEntity("p", String(i));
      if (entity.total !== i) throw new Error(`test ${i} read ${entity.total}`);
      await account.delete();
    };
    const times = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: tests }, (_, i) => oneTest(i)));
      times.push(performance.now() - t0);
    }
    const left = (await server.listAccounts()).filter((a) => a.runtime).length;
    console.log(
      `client_start: ${tests} parallel tests (createAccount, createTable, upsert + get, delete account): ` +
        `${times.map(ms).join(", ")} in ${rounds} rounds (target 1 s in all); runtime accounts left: ${left}`,
    );
  } finally {
    await server.stop();
  }
}

const options = parseArgs(process.argv);
await startToFirstCall(options.runs);
await parallelTests(options.tests, options.rounds);
