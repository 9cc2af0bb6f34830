"use strict";
// @malachite/client: the admin endpoints of a running Malachite (/-/accounts, /-/reset) over Node's
// own http module, no dependencies. @malachite/server (a local process: loopback, no credentials)
// and @malachite/testcontainers (a container reached through a mapped port: a bearer key) make
// their admin calls with it and hand out its accounts and errors.
const http = require("node:http");

// The well-known development account every Malachite has.
const kDevAccount = "devstoreaccount1";
const kDevKey =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const kRequestTimeoutMs = 30000;

// An admin call the server refused: the service's status, error code and message.
class MalachiteAdminError extends Error {
  constructor(method, path, status, code, message, body) {
    super(`${method} ${path}: ${status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ""}`);
    this.name = "MalachiteAdminError";
    this.statusCode = status;
    this.code = code;
    this.body = body;
  }
}

// One server's admin endpoints: { host = "127.0.0.1", port = 10002, bearer?, agent? } (see
// index.d.ts). Every call resolves to the parsed JSON body (or undefined for 204) and rejects with
// MalachiteAdminError (an answer other than 2xx) or the socket's own error (ECONNREFUSED once the
// server stopped). @malachite/server's MalachiteServer extends it.
class MalachiteAdminClient {
  #host;
  #port;
  #agent;
  #bearer;

  constructor({ host = "127.0.0.1", port = 10002, bearer, agent } = {}) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new TypeError(`MalachiteAdminClient: port must be an integer from 1 to 65535, not ${port}`);
    }
    this.#host = host;
    this.#port = port;
    this.#agent = agent;
    this.#bearer = bearer;
  }

  #request(method, path, body) {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { Accept: "application/json" };
    if (payload) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(payload.length);
    } else if (method !== "GET" && method !== "DELETE") {
      headers["Content-Length"] = "0";
    }
    if (this.#bearer) headers.Authorization = `Bearer ${this.#bearer}`;
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: this.#host, port: this.#port, method, path, headers, agent: this.#agent },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let json;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            if (res.statusCode >= 200 && res.statusCode < 300) return resolve(json);
            const odata = json && json["odata.error"];
            const code = (odata && odata.code) || res.headers["x-ms-error-code"];
            const message = odata && odata.message ? odata.message.value : text.slice(0, 300);
            reject(new MalachiteAdminError(method, path, res.statusCode, code, message, text));
          });
        },
      );
      req.setTimeout(kRequestTimeoutMs, () =>
        req.destroy(new Error(`${method} ${path}: no answer within ${kRequestTimeoutMs} ms`)),
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  // POST /-/reset[?account=][&seed=false]: empties the tables (of one account) and writes the --seed
  // fixtures again unless seed is false.
  reset({ account, seed } = {}) {
    const query = new URLSearchParams();
    if (account !== undefined) query.set("account", account);
    if (seed === false) query.set("seed", "false");
    const qs = query.toString();
    return this.#request("POST", `/-/reset${qs ? `?${qs}` : ""}`);
  }

  // POST /-/accounts: an account made at run time (a generated name and key unless given).
  async createAccount({ name, key } = {}) {
    const body = {};
    if (name !== undefined) body.name = name;
    if (key !== undefined) body.key = key;
    const made = await this.#request("POST", "/-/accounts", Object.keys(body).length ? body : undefined);
    const account = {
      name: made.name,
      key: made.key,
      created: made.created,
      connectionString: made.connectionString,
      tableUrl: made.tableEndpoint,
      hostStyleConnectionString: made.hostStyleConnectionString,
      hostStyleTableUrl: made.hostStyleTableEndpoint,
    };
    Object.defineProperty(account, "delete", {
      value: () => this.deleteAccount(made.name),
      enumerable: false,
    });
    return account;
  }

  // DELETE /-/accounts/<name>: the account and its tables (reclaimed in the background).
  async deleteAccount(name) {
    if (typeof name !== "string" || name === "") throw new TypeError("deleteAccount(name): name must be a non-empty string");
    await this.#request("DELETE", `/-/accounts/${encodeURIComponent(name)}`);
  }

  // GET /-/accounts: every account, configured and made at run time.
  async listAccounts() {
    const listed = await this.#request("GET", "/-/accounts");
    return listed.accounts;
  }
}

// The connection string of an account served at tableUrl.
function connectionStringFor(account, key, tableUrl) {
  return `DefaultEndpointsProtocol=http;AccountName=${account};AccountKey=${key};TableEndpoint=${tableUrl};`;
}

exports.MalachiteAdminClient = MalachiteAdminClient;
exports.MalachiteAdminError = MalachiteAdminError;
exports.connectionStringFor = connectionStringFor;
exports.DEV_ACCOUNT = kDevAccount;
exports.DEV_KEY = kDevKey;
