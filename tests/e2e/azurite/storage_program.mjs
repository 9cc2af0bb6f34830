// One program a team might run against Azurite: Blob, Queue and Table through the official SDKs,
// from one connection string. RunStorageProgram returns what it saw as plain JSON with the parts
// that differ between runs (ETags, timestamps, dates, request ids) left out, so two emulators can
// be compared with one deepStrictEqual.
import { BlobServiceClient } from "@azure/storage-blob";
import { QueueServiceClient } from "@azure/storage-queue";
import { TableClient, TableServiceClient, odata } from "@azure/data-tables";

const kNoRetry = { retryOptions: { maxTries: 1 } };

// An entity as the application sees it, without the service's bookkeeping.
function Plain(entity) {
  const out = {};
  for (const name of Object.keys(entity).sort()) {
    if (name === "etag" || name === "timestamp" || name.startsWith("odata")) continue;
    const value = entity[name];
    if (value instanceof Date) out[name] = value.toISOString();
    else if (typeof value === "bigint") out[name] = { Int64: String(value) };
    else out[name] = value;
  }
  return out;
}

async function Failure(promise) {
  try {
    await promise;
    return "no error";
  } catch (err) {
    return { status: err.statusCode, code: err.code };
  }
}

async function BlobPart(connectionString) {
  const service = BlobServiceClient.fromConnectionString(connectionString, kNoRetry);
  const container = service.getContainerClient("compat");
  await container.create();
  const text = "hello from the compatibility test";
  const blob = container.getBlockBlobClient("dir/hello.txt");
  await blob.upload(text, Buffer.byteLength(text), {
    metadata: { origin: "compat" },
    blobHTTPHeaders: { blobContentType: "text/plain" },
  });
  const download = await blob.download();
  const chunks = [];
  for await (const chunk of download.readableStreamBody) chunks.push(chunk);
  const names = [];
  for await (const item of container.listBlobsFlat()) names.push(item.name);
  return {
    downloaded: Buffer.concat(chunks).toString("utf8"),
    contentType: download.contentType,
    metadata: download.metadata,
    names,
    missing: await Failure(container.getBlobClient("absent").getProperties()),
  };
}

async function QueuePart(connectionString) {
  const service = QueueServiceClient.fromConnectionString(connectionString, kNoRetry);
  const queue = service.getQueueClient("compat-queue");
  await queue.create();
  await queue.sendMessage("hello queue");
  await queue.sendMessage("second message");
  const received = await queue.receiveMessages({ numberOfMessages: 1 });
  const message = received.receivedMessageItems[0];
  await queue.deleteMessage(message.messageId, message.popReceipt);
  const peeked = await queue.peekMessages({ numberOfMessages: 5 });
  const properties = await queue.getProperties();
  return {
    received: message.messageText,
    dequeueCount: message.dequeueCount,
    left: peeked.peekedMessageItems.map((m) => m.messageText),
    approximateMessagesCount: properties.approximateMessagesCount,
  };
}

async function TablePart(connectionString) {
  const options = { ...kNoRetry, allowInsecureConnection: true };
  const service = TableServiceClient.fromConnectionString(connectionString, options);
  await service.createTable("compat");
  const table = TableClient.fromConnectionString(connectionString, "compat", options);
  const result = {};

  // CRUD
  await table.createEntity({
    partitionKey: "crud",
    rowKey: "1",
    Name: "one",
    Count: 1,
    Price: { value: "1.5", type: "Double" },
    Big: { value: "123456789012", type: "Int64" },
    When: new Date("2024-05-06T07:08:09.000Z"),
    Flag: true,
  });
  result.created = Plain(await table.getEntity("crud", "1"));
  result.duplicate = await Failure(table.createEntity({ partitionKey: "crud", rowKey: "1" }));
  await table.updateEntity({ partitionKey: "crud", rowKey: "1", Count: 2, Extra: "merged" }, "Merge");
  result.merged = Plain(await table.getEntity("crud", "1"));
  await table.upsertEntity({ partitionKey: "crud", rowKey: "1", Name: "replaced" }, "Replace");
  result.replaced = Plain(await table.getEntity("crud", "1"));
  await table.deleteEntity("crud", "1");
  result.deleted = await Failure(table.getEntity("crud", "1"));

  // A batch of 25 inserts, then a query read in pages of 10.
  const inserts = [];
  for (let i = 0; i < 25; i++) {
    inserts.push(["create", { partitionKey: "page", rowKey: `r${String(i).padStart(2, "0")}`, Index: i }]);
  }
  result.insertBatch = (await table.submitTransaction(inserts)).subResponses.map((r) => r.status);
  const pages = [];
  const iterator = table
    .listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"page"}` } })
    .byPage({ maxPageSize: 10 });
  for await (const page of iterator) pages.push(page.map((e) => e.rowKey));
  result.pages = pages;
  const filtered = [];
  for await (const entity of table.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${"page"} and Index ge ${20}`, select: ["Index"] },
  })) {
    filtered.push(entity.Index);
  }
  result.filtered = filtered;

  // A mixed batch: insert, merge, delete in one partition.
  const mixed = await table.submitTransaction([
    ["create", { partitionKey: "page", rowKey: "r99", Index: 99 }],
    ["update", { partitionKey: "page", rowKey: "r00", Index: 100 }, "Merge"],
    ["delete", { partitionKey: "page", rowKey: "r01" }],
  ]);
  result.mixedBatch = mixed.subResponses.map((r) => r.status);
  result.afterBatch = [];
  for await (const entity of table.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${"page"} and (RowKey le ${"r02"} or RowKey eq ${"r99"})` },
  })) {
    result.afterBatch.push(Plain(entity));
  }
  result.failedBatch = await Failure(table.submitTransaction([
    ["create", { partitionKey: "page", rowKey: "r50" }],
    ["create", { partitionKey: "page", rowKey: "r02" }],
  ]));
  result.tables = [];
  for await (const t of service.listTables()) result.tables.push(t.name);
  return result;
}

export async function RunStorageProgram(connectionString) {
  return {
    blob: await BlobPart(connectionString),
    queue: await QueuePart(connectionString),
    table: await TablePart(connectionString),
  };
}
