// The SDK's view of the lone request: @azure/data-tables awaiting N inserts, N point reads, N
// upserts and N deletes one at a time over one keep-alive connection, as a test suite does.
// Prints ms per call (mean and p50/p99) for each. Works against any Table endpoint on loopback
// that accepts the well-known emulator account (Malachite, Azurite).
//
//   node bench/sdk_bench.mjs --port 10002 [--host 127.0.0.1] [--count 1000] [--label malachite]
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from "@azure/data-tables";

const kAccount = "devstoreaccount1";
const kKey =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

function parseArgs(argv) {
  const options = { host: "127.0.0.1", port: 10002, count: 1000, label: "server" };
  for (let i = 2; i + 1 < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "");
    if (!(name in options)) throw new Error(`unknown option ${argv[i]}`);
    options[name] = typeof options[name] === "number" ? Number(argv[i + 1]) : argv[i + 1];
  }
  return options;
}

async function timeEach(count, call) {
  const samples = [];
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await call(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const total = Number(process.hrtime.bigint() - started) / 1e6;
  samples.sort((a, b) => a - b);
  const at = (p) => samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
  return { mean: total / count, p50: at(50), p99: at(99) };
}

const options = parseArgs(process.argv);
const url = `http://${options.host}:${options.port}/${kAccount}`;
const credential = new AzureNamedKeyCredential(kAccount, kKey);
const clientOptions = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
const table = `sdkbench${Date.now()}`;
await new TableServiceClient(url, credential, clientOptions).createTable(table);
const client = new TableClient(url, table, credential, clientOptions);
const entity = (i, v) => ({
  partitionKey: `p${i % 16}`,
  rowKey: `r${String(i).padStart(8, "0")}`,
  Name: "bench",
  Qty: v,
  Price: 1.25,
  Active: true,
  Payload: "x".repeat(100),
});
// Warm-up: connection, table, JIT.
for (let i = 0; i < 20; i++) await client.upsertEntity({ ...entity(1e7 + i, 0) }, "Replace");

const rows = [
  ["createEntity", (i) => client.createEntity(entity(i, i))],
  ["getEntity", (i) => client.getEntity(`p${i % 16}`, `r${String(i).padStart(8, "0")}`)],
  ["upsertEntity", (i) => client.upsertEntity(entity(i, i + 1), "Replace")],
  ["deleteEntity", (i) => client.deleteEntity(`p${i % 16}`, `r${String(i).padStart(8, "0")}`)],
];
for (const [name, call] of rows) {
  const t = await timeEach(options.count, call);
  console.log(
    `sdk ${options.label.padEnd(16)} ${name.padEnd(13)} ${options.count} awaited calls: ` +
      `${t.mean.toFixed(3)} ms/call (p50 ${t.p50.toFixed(3)}, p99 ${t.p99.toFixed(3)})`,
  );
}
