// For tests/docker (the Azurite-compatible image's tests): one step against a running emulator,
// from a connection string.
//   node cli.mjs program <connection string>   the whole storage program; prints its JSON result
//   node cli.mjs host-program                  the same against npm azurite started on this host
//   node cli.mjs write <connection string>     a blob, a queue message and a table entity
//   node cli.mjs verify <connection string>    reads them back (exit 1 when any is missing)
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueServiceClient } from "@azure/storage-queue";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { RunStorageProgram } from "./storage_program.mjs";
import { StartHostAzurite } from "./host_azurite.mjs";

const [step, connectionString] = process.argv.slice(2);
const options = { retryOptions: { maxTries: 1 }, allowInsecureConnection: true };
const blobs = () => BlobServiceClient.fromConnectionString(connectionString, options).getContainerClient("kept");
const queue = () => QueueServiceClient.fromConnectionString(connectionString, options).getQueueClient("kept");
const table = () => TableClient.fromConnectionString(connectionString, "kept", options);

if (step === "host-program") {
  const azurite = await StartHostAzurite();
  try {
    console.log(JSON.stringify(await RunStorageProgram(azurite.connectionString)));
  } finally {
    await azurite.stop();
  }
} else if (step === "program") {
  const result = await RunStorageProgram(connectionString);
  console.log(JSON.stringify(result));
} else if (step === "write") {
  await blobs().create();
  await blobs().getBlockBlobClient("kept.txt").upload("kept across a restart", 21);
  await queue().create();
  await queue().sendMessage("kept message");
  await TableServiceClient.fromConnectionString(connectionString, options).createTable("kept");
  await table().createEntity({ partitionKey: "p", rowKey: "r", Kept: "yes" });
  console.log("written: blob kept/kept.txt, a message on queue kept, entity kept(p, r)");
} else if (step === "verify") {
  const blob = (await blobs().getBlockBlobClient("kept.txt").downloadToBuffer()).toString();
  const peeked = (await queue().peekMessages()).peekedMessageItems.map((m) => m.messageText);
  const entity = await table().getEntity("p", "r");
  const seen = { blob, queue: peeked, table: entity.Kept };
  const expected = { blob: "kept across a restart", queue: ["kept message"], table: "yes" };
  if (JSON.stringify(seen) !== JSON.stringify(expected)) {
    console.error(`verify: saw ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
    process.exit(1);
  }
  console.log("verified: the blob, the queue message and the entity are there");
} else {
  console.error("usage: node cli.mjs program|write|verify <connection string>");
  process.exit(2);
}
