// The Node Testcontainers Azurite module (@testcontainers/azurite) given the compatibility image's
// name instead of Azurite's: it starts it (entrypoint `azurite`, Azurite's flags, waiting for the
// three "... service is successfully listening" lines), and one program using its
// getConnectionString() sees the same Blob, Queue and Table results as with npm azurite on this
// host (the same pinned version). Run by tests/docker/test_azurite_image.py with
//   MALACHITE_AZURITE_IMAGE   the image (malachite:<version>-azurite)
//   DOCKER_HOST               its engine; TESTCONTAINERS_RYUK_DISABLED=true where Ryuk's image cannot
//                             be pulled (each test stops its container itself)
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { AzuriteContainer } from "@testcontainers/azurite";
import { RunStorageProgram } from "./storage_program.mjs";
import { StartHostAzurite } from "./host_azurite.mjs";

const image = process.env.MALACHITE_AZURITE_IMAGE;
let reference;

before(async () => {
  assert.ok(image, "MALACHITE_AZURITE_IMAGE names the compatibility image");
  const azurite = await StartHostAzurite();
  try {
    reference = await RunStorageProgram(azurite.connectionString);
  } finally {
    await azurite.stop();
  }
});

async function RunInContainer(container) {
  const started = await container.start();
  try {
    const logs = [];
    (await started.logs()).on("data", (line) => logs.push(String(line)));
    const result = await RunStorageProgram(started.getConnectionString());
    return { result, logs };
  } finally {
    await started.stop({ timeout: 10000 });
  }
}

test("AzuriteContainer starts the compatibility image; Blob, Queue and Table answer as npm azurite does", async () => {
  const { result, logs } = await RunInContainer(new AzuriteContainer(image).withSkipApiVersionCheck());
  assert.deepStrictEqual(result, reference);
  // The tables were Malachite's: its own line is in the log beside Azurite's.
  assert.ok(logs.some((line) => line.includes("malachite: listening on 0.0.0.0:10002")), logs.join(""));
});

test("withAccountName/withAccountKey (AZURITE_ACCOUNTS): the same results under that account", async () => {
  const key = Buffer.from("compatibility-image-test-key-0123456789").toString("base64");
  const container = new AzuriteContainer(image)
    .withSkipApiVersionCheck()
    .withAccountName("compatacct")
    .withAccountKey(key);
  const { result } = await RunInContainer(container);
  assert.deepStrictEqual(result, reference);
});

test("withInMemoryPersistence: Blob, Queue and Table keep nothing on disk and still answer", async () => {
  const { result } = await RunInContainer(
    new AzuriteContainer(image).withSkipApiVersionCheck().withInMemoryPersistence());
  assert.deepStrictEqual(result, reference);
});
