// Every EDM type round-trips through @azure/data-tables (spec §5.1–5.2).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, capture, expectError, uniqueTableName } from "./harness.mjs";

let server;
let client;

before(async () => {
  server = await startServer();
  client = server.tableClient(uniqueTableName("edm"));
  await client.createTable();
});
after(async () => {
  await server?.stop();
});

const kGuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
const kBinary = new Uint8Array([0, 1, 2, 127, 128, 254, 255]);

// What we send, and what the SDK reports with disableTypeConversion (value as text plus its EDM type).
// Unannotated JSON numbers come back typed by the SDK's own inference (integral => Int32).
const kCases = {
  Str: ["hello, wörld 😀", { value: "hello, wörld 😀", type: "String" }],
  EmptyStr: ["", { value: "", type: "String" }],
  I32: [42, { value: "42", type: "Int32" }],
  I32Max: [2147483647, { value: "2147483647", type: "Int32" }],
  I32Min: [-2147483648, { value: "-2147483648", type: "Int32" }],
  I64: [{ value: "9007199254740993", type: "Int64" }, { value: "9007199254740993", type: "Int64" }],
  I64Max: [{ value: "9223372036854775807", type: "Int64" }, { value: "9223372036854775807", type: "Int64" }],
  I64Min: [{ value: "-9223372036854775808", type: "Int64" }, { value: "-9223372036854775808", type: "Int64" }],
  I64Big: [2n ** 62n, { value: (2n ** 62n).toString(), type: "Int64" }],
  Dbl: [1.5, { value: "1.5", type: "Double" }],
  DblTiny: [5e-324, { value: "5e-324", type: "Double" }],
  DblBig: [1.7976931348623157e308, { value: "1.7976931348623157e+308", type: "Double" }],
  DblNeg: [-0.1, { value: "-0.1", type: "Double" }],
  NaN: [{ value: "NaN", type: "Double" }, { value: "NaN", type: "Double" }],
  PosInf: [{ value: "Infinity", type: "Double" }, { value: "Infinity", type: "Double" }],
  NegInf: [{ value: "-Infinity", type: "Double" }, { value: "-Infinity", type: "Double" }],
  True: [true, { value: "true", type: "Boolean" }],
  False: [false, { value: "false", type: "Boolean" }],
  When: [
    { value: "2024-01-02T03:04:05.1234567Z", type: "DateTime" },
    { value: "2024-01-02T03:04:05.1234567Z", type: "DateTime" },
  ],
  WhenTrimmed: [
    { value: "1973-10-04T00:00:00.0000000Z", type: "DateTime" },
    { value: "1973-10-04T00:00:00Z", type: "DateTime" },
  ],
  WhenMin: [
    { value: "1601-01-01T00:00:00Z", type: "DateTime" },
    { value: "1601-01-01T00:00:00Z", type: "DateTime" },
  ],
  WhenMax: [
    { value: "9999-12-31T23:59:59.9999999Z", type: "DateTime" },
    { value: "9999-12-31T23:59:59.9999999Z", type: "DateTime" },
  ],
  WhenDate: [new Date("2020-02-29T12:34:56.789Z"), { value: "2020-02-29T12:34:56.789Z", type: "DateTime" }],
  Id: [{ value: kGuid, type: "Guid" }, { value: kGuid, type: "Guid" }],
  Bytes: [kBinary, { value: Buffer.from(kBinary).toString("base64"), type: "Binary" }],
  EmptyBytes: [new Uint8Array(0), { value: "", type: "Binary" }],
};

test("edm: every type round-trips with its value and EDM type", async () => {
  const entity = { partitionKey: "edm", rowKey: "all" };
  for (const [name, [sent]] of Object.entries(kCases)) entity[name] = sent;
  await client.createEntity(entity);

  const got = await client.getEntity("edm", "all", { disableTypeConversion: true });
  for (const [name, [, expected]] of Object.entries(kCases)) {
    assert.deepEqual(got[name], expected, `property ${name}`);
  }
  const expectedNames = Object.keys(kCases).sort();
  const gotNames = Object.keys(got).filter(
    (k) => !["partitionKey", "rowKey", "etag", "timestamp"].includes(k) && !k.startsWith("odata."),
  );
  assert.deepEqual(gotNames.sort(), expectedNames);

  // The same entity read through a listing carries the same types.
  const [listed] = await collect(client.listEntities({
    disableTypeConversion: true,
    queryOptions: { filter: "PartitionKey eq 'edm' and RowKey eq 'all'" },
  }));
  for (const [name, [, expected]] of Object.entries(kCases)) {
    assert.deepEqual(listed?.[name], expected, `listed property ${name}`);
  }
});

test("edm: with type conversion the SDK gets native values back (BigInt, Date, Uint8Array)", async () => {
  await client.createEntity({
    partitionKey: "edm",
    rowKey: "native",
    big: 2n ** 53n + 1n,
    when: new Date("2021-06-01T10:20:30.456Z"),
    bytes: kBinary,
    id: { value: kGuid, type: "Guid" },
  });
  const got = await client.getEntity("edm", "native");
  assert.equal(got.big, 2n ** 53n + 1n);
  assert.equal(new Date(got.when).toISOString(), "2021-06-01T10:20:30.456Z");
  assert.deepEqual(new Uint8Array(got.bytes), kBinary);
  assert.deepEqual(got.id, { value: kGuid, type: "Guid" });
});

test("edm: a typed Double with an integral value comes back as a Double (3.0), not an Int32", async () => {
  await client.createEntity({
    partitionKey: "edm",
    rowKey: "double",
    D3: { value: 3.0, type: "Double" },
    DNeg: { value: -7, type: "Double" },
    I3: 3,
  });
  const got = capture();
  await client.getEntity("edm", "double", got.options);
  // Azure: integral Doubles are written `3.0` so Python/.NET clients re-type them as Double (spec §5.2).
  const body = got.body;
  const asDouble = (name) =>
    new RegExp(`"${name}"\\s*:\\s*-?\\d+\\.0\\b`).test(body) ||
    new RegExp(`"${name}@odata.type"\\s*:\\s*"Edm.Double"`).test(body);
  assert.ok(asDouble("D3"), `D3 not a Double in ${body}`);
  assert.ok(asDouble("DNeg"), `DNeg not a Double in ${body}`);
  assert.match(body, /"I3"\s*:\s*3[,}]/);
  assert.doesNotMatch(body, /"I3@odata\.type"/);
});

test("edm: minimal metadata annotates Int64, DateTime, Guid, Binary and non-finite Doubles only", async () => {
  await client.createEntity({
    partitionKey: "edm",
    rowKey: "annotations",
    s: "x",
    i: 1,
    d: 1.5,
    b: true,
    l: { value: "5", type: "Int64" },
    t: { value: "2024-01-01T00:00:00Z", type: "DateTime" },
    g: { value: kGuid, type: "Guid" },
    x: new Uint8Array([1]),
    n: { value: "NaN", type: "Double" },
  });
  const got = capture();
  await client.getEntity("edm", "annotations", got.options);
  const body = JSON.parse(got.body);
  const annotated = Object.keys(body)
    .filter((k) => k.endsWith("@odata.type"))
    .map((k) => `${k}=${body[k]}`)
    .sort();
  assert.deepEqual(annotated, [
    "g@odata.type=Edm.Guid",
    "l@odata.type=Edm.Int64",
    "n@odata.type=Edm.Double",
    "t@odata.type=Edm.DateTime",
    "x@odata.type=Edm.Binary",
  ]);
  assert.equal(body.l, "5");
});

test("edm: values that do not fit their declared type answer 400", async () => {
  const bad = {
    "Int64 not a number": { value: "abc", type: "Int64" },
    "Int64 overflow": { value: "9223372036854775808", type: "Int64" },
    "Int32 overflow": { value: 2147483648, type: "Int32" },
    "bad Guid": { value: "not-a-guid", type: "Guid" },
    "bad DateTime": { value: "yesterday", type: "DateTime" },
    "empty DateTime": { value: "", type: "DateTime" },
    "bad Binary": { value: "***", type: "Binary" },
  };
  for (const [label, value] of Object.entries(bad)) {
    await expectError(
      client.createEntity({ partitionKey: "bad", rowKey: label.replace(/ /g, "_"), v: value }),
      400,
      ["InvalidInput", "InvalidValueType", "OutOfRangeInput"],
    ).catch((e) => {
      throw new Error(`${label}: ${e.message}`);
    });
  }
  await expectError(
    client.createEntity({ partitionKey: "bad", rowKey: "early", v: { value: "1600-12-31T23:59:59Z", type: "DateTime" } }),
    400,
    ["OutOfRangeInput", "InvalidInput"],
  );
});

async function collect(iterable) {
  const out = [];
  for await (const item of iterable) out.push(item);
  return out;
}

test("edm: a typed null (value null with its @odata.type) is not stored, and a merge keeps the old value", async () => {
  // spec §3: the SDK sends {"X": null, "X@odata.type": "Edm.String"} for { value: null, type };
  // like an untyped null, the property is not stored, and Merge leaves the stored value.
  await client.createEntity({ partitionKey: "tn", rowKey: "1", X: { value: null, type: "String" },
    Y: { value: "kept", type: "String" } });
  let got = await client.getEntity("tn", "1");
  assert.equal("X" in got, false);
  assert.equal(got.Y, "kept");
  await client.updateEntity({ partitionKey: "tn", rowKey: "1", Y: { value: null, type: "String" } }, "Merge");
  got = await client.getEntity("tn", "1");
  assert.equal(got.Y, "kept");
  await client.updateEntity({ partitionKey: "tn", rowKey: "1", Y: { value: null, type: "String" } }, "Replace");
  got = await client.getEntity("tn", "1");
  assert.equal("Y" in got, false);
});
