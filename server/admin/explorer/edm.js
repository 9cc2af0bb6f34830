// EDM types in the browser without losing precision: Int64 and Double stay text (beyond 2^53),
// DateTime keeps its 7 fractional digits (100 ns), Guid and Binary stay text. An entity is
// {PartitionKey, RowKey, Timestamp, etag, properties: [{name, type, value}]} where `value` is
// text for every type but Boolean (true/false).

export const kTypes = ["Edm.String", "Edm.Int32", "Edm.Int64", "Edm.Double", "Edm.Boolean",
  "Edm.DateTime", "Edm.Guid", "Edm.Binary"];

const kSystem = new Set(["PartitionKey", "RowKey", "Timestamp"]);
const kInt32 = /^-?\d{1,10}$/;
const kInt64 = /^-?\d{1,19}$/;
const kDouble = /^(-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|NaN|-?Infinity)$/;
const kDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?Z$/;
const kGuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const kBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// A JSON number as its source text ("5", "5.0", "1e+20"), so Int32 and Double stay apart.
class NumberText {
  constructor(text) { this.text = text; }
}

// JSON.parse keeping every number's source text (the reviver's source-text access).
export function parseTypedJson(text) {
  return JSON.parse(text, function (key, value, context) {
    if (typeof value !== "number") return value;
    return new NumberText(context?.source ?? String(value));
  });
}

function inferType(value) {
  if (typeof value === "boolean") return "Edm.Boolean";
  if (value instanceof NumberText) return /[.eE]/.test(value.text) ? "Edm.Double" : "Edm.Int32";
  return "Edm.String";
}

function valueText(value) {
  if (value instanceof NumberText) return value.text;
  return value;
}

// An entity from one object of a JSON answer (any metadata level; full metadata gives every type).
export function entityFromJson(object) {
  const entity = {
    PartitionKey: object.PartitionKey ?? "",
    RowKey: object.RowKey ?? "",
    Timestamp: object.Timestamp ?? "",
    etag: object["odata.etag"] ?? "",
    properties: [],
  };
  for (const [name, value] of Object.entries(object)) {
    if (name.startsWith("odata.") || name.includes("@odata.") || kSystem.has(name)) continue;
    if (value === null) continue;  // a $select of a property the entity lacks
    const type = object[`${name}@odata.type`] ?? inferType(value);
    entity.properties.push({ name, type, value: valueText(value) });
  }
  return entity;
}

// null when `value` (text, or a boolean) is a valid `type` literal, else why not.
export function checkValue(type, value) {
  const text = String(value);
  switch (type) {
    case "Edm.Int32": {
      if (!kInt32.test(text)) return "an integer";
      const n = BigInt(text);
      return n < -(2n ** 31n) || n > 2n ** 31n - 1n ? "an Int32 (-2147483648..2147483647)" : null;
    }
    case "Edm.Int64": {
      if (!kInt64.test(text)) return "an integer";
      const n = BigInt(text);
      return n < -(2n ** 63n) || n > 2n ** 63n - 1n ? "an Int64 (±9223372036854775807)" : null;
    }
    case "Edm.Double":
      return kDouble.test(text) ? null : "a number, NaN or Infinity";
    case "Edm.DateTime":
      return kDateTime.test(text) ? null : "UTC like 2024-05-01T12:30:00.1234567Z";
    case "Edm.Guid":
      return kGuid.test(text) ? null : "a GUID like 0b5a2c1e-7f1d-4c3b-9a8e-1234567890ab";
    case "Edm.Binary":
      return kBase64.test(text) ? null : "base64";
    default:
      return null;
  }
}

// The JSON text of one property value of `type` (with its annotation), exactly as typed.
function appendProperty(members, { name, type, value }) {
  const key = JSON.stringify(name);
  switch (type) {
    case "Edm.String":
      members.push(`${key}:${JSON.stringify(String(value))}`);
      return;
    case "Edm.Boolean":
      members.push(`${key}:${value === true || value === "true" ? "true" : "false"}`);
      return;
    case "Edm.Int32":
      members.push(`${key}:${String(value)}`);
      return;
    case "Edm.Double": {
      const text = String(value);
      const literal = /^-?(NaN|Infinity)$/.test(text) ? JSON.stringify(text) : text;
      members.push(`${JSON.stringify(name + "@odata.type")}:"Edm.Double"`, `${key}:${literal}`);
      return;
    }
    default:
      members.push(`${JSON.stringify(name + "@odata.type")}:${JSON.stringify(type)}`,
        `${key}:${JSON.stringify(String(value))}`);
  }
}

// The request body of an insert or update. Throws an Error naming the first invalid value.
export function entityToJson(entity) {
  const members = [
    `"PartitionKey":${JSON.stringify(entity.PartitionKey)}`,
    `"RowKey":${JSON.stringify(entity.RowKey)}`,
  ];
  for (const property of entity.properties) {
    const problem = checkValue(property.type, property.value);
    if (problem) throw new Error(`${property.name} must be ${problem}`);
    appendProperty(members, property);
  }
  return `{${members.join(",")}}`;
}

// Now as an Edm.DateTime with 100 ns digits (the browser knows milliseconds).
export function nowDateTime() {
  return new Date().toISOString().replace(/\.(\d{3})Z$/, ".$10000Z");
}

export function newGuid() {
  return crypto.randomUUID();
}

// base64 of a file's bytes.
export async function fileToBase64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

// A short label for a type: "Int64" for "Edm.Int64".
export function shortType(type) {
  return type.replace(/^Edm\./, "");
}
