// Types of @malachite/client (hand-written; the package is plain CommonJS with no build step).
// @malachite/server and @malachite/testcontainers re-export them.
import type { Agent } from "node:http";

export interface MalachiteAdminClientOptions {
  /** Default "127.0.0.1". */
  host?: string;
  /** Default 10002. */
  port?: number;
  /** A key of one of the server's accounts, sent as `Authorization: Bearer`: the admin endpoints want one from any address but the server's loopback. */
  bearer?: string;
  /** The http.Agent to send with (keep-alive, for one). Default: Node's global agent. */
  agent?: Agent;
}

export interface ResetOptions {
  /** Reset only this account (a configured one or one made with createAccount()). Default: every configured account. */
  account?: string;
  /** false: leave the tables empty instead of writing the seed fixtures again. Default true. */
  seed?: boolean;
}

/** What POST /-/reset answers. */
export interface ResetResult {
  accounts: string[];
  tables_deleted: number;
  tables_seeded: number;
  entities_seeded: number;
  ms: number;
  [key: string]: unknown;
}

export interface CreateAccountOptions {
  /** 3 to 24 lowercase letters and digits. Default: a generated name. */
  name?: string;
  /** The account key, base64. Default: 64 random bytes. */
  key?: string;
}

/** An account made at run time: isolated from every other account (its own tables). */
export interface MalachiteAccount {
  name: string;
  key: string;
  /** When it was made (ISO 8601). */
  created?: string;
  /** `DefaultEndpointsProtocol=http;AccountName=<name>;AccountKey=<key>;TableEndpoint=<tableUrl>;` */
  connectionString: string;
  /** `http://<host>:<port>/<name>` (path style; through a container's mapped port, for one). */
  tableUrl: string;
  /** The same account addressed by host name: `http://<name>.localhost:<port>`. */
  hostStyleConnectionString?: string;
  hostStyleTableUrl?: string;
  /** Deletes the account and its tables (the same as deleteAccount(name)). */
  delete(): Promise<void>;
}

/** An account as GET /-/accounts lists it. */
export interface ListedAccount {
  name: string;
  key: string;
  /** true: made at run time; false: configured (devstoreaccount1, --accounts). */
  runtime: boolean;
  created?: string;
}

/** The admin calls of a running Malachite: what a MalachiteServer and a started MalachiteContainer offer too. */
export interface MalachiteAdmin {
  /** Empties the tables (of one account) and writes the seed fixtures again (POST /-/reset). */
  reset(options?: ResetOptions): Promise<ResetResult>;
  /** Makes an account (POST /-/accounts): one per test keeps parallel tests apart. */
  createAccount(options?: CreateAccountOptions): Promise<MalachiteAccount>;
  /** Deletes an account made with createAccount() and its tables (DELETE /-/accounts/<name>). */
  deleteAccount(name: string): Promise<void>;
  /** Every account: configured ones and those made at run time (GET /-/accounts). */
  listAccounts(): Promise<ListedAccount[]>;
}

/** The admin endpoints of the Malachite at host:port. */
export interface MalachiteAdminClient extends MalachiteAdmin {}
export class MalachiteAdminClient {
  constructor(options?: MalachiteAdminClientOptions);
}

/** An admin call (reset, createAccount, deleteAccount, listAccounts) the server refused. */
export class MalachiteAdminError extends Error {
  /** The HTTP status, e.g. 409. */
  statusCode: number;
  /** The service's error code, e.g. "StorageAccountAlreadyTaken". */
  code: string | undefined;
  /** The response body. */
  body: string;
}

/** The connection string of `account` (with `key`) served at `tableUrl`. */
export function connectionStringFor(account: string, key: string, tableUrl: string): string;

/** "devstoreaccount1", the well-known development account every Malachite has. */
export const DEV_ACCOUNT: string;
/** devstoreaccount1's well-known key. */
export const DEV_KEY: string;
