// Types of @malachite/testcontainers (hand-written; the package is plain CommonJS).
import { AbstractStartedContainer, GenericContainer, StartedTestContainer } from "testcontainers";

/** "malachite:<version of this package>", the image scripts/package --image builds. */
export const DEFAULT_IMAGE: string;

export interface ResetOptions {
  /** Reset only this account. Default: every configured account. */
  account?: string;
  /** false: leave the tables empty instead of writing the seed fixtures again. */
  seed?: boolean;
}

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

/** An account made at run time, addressed through the container's mapped port. */
export interface MalachiteAccount {
  name: string;
  key: string;
  created?: string;
  connectionString: string;
  tableUrl: string;
  hostStyleConnectionString?: string;
  hostStyleTableUrl?: string;
  /** Deletes the account and its tables. */
  delete(): Promise<void>;
}

export interface ListedAccount {
  name: string;
  key: string;
  runtime: boolean;
  created?: string;
}

export class MalachiteContainer extends GenericContainer {
  /** image: default DEFAULT_IMAGE. */
  constructor(image?: string);
  /** Data in memory (the container's /dev/shm, 64 MB unless withSharedMemorySize) instead of /data. */
  withInMemory(): this;
  /** Copies the fixtures of hostDir into the container (/seed) and loads them at start (--seed). */
  withSeed(hostDir: string): this;
  /** Extra malachite flags, e.g. ["--throttling", "off"]. */
  withArgs(args: string[]): this;
  start(): Promise<StartedMalachiteContainer>;
}

export class StartedMalachiteContainer extends AbstractStartedContainer {
  constructor(started: StartedTestContainer);
  /** The host port mapped to the container's 10002. */
  getPort(): number;
  /** "devstoreaccount1" */
  getAccountName(): string;
  getAccountKey(): string;
  /** http://<host>:<mapped port>/devstoreaccount1 */
  getTableUrl(): string;
  /** devstoreaccount1's connection string through the mapped port. */
  getConnectionString(): string;
  /** POST /-/reset (empties the tables, writes the seed fixtures again). */
  reset(options?: ResetOptions): Promise<ResetResult>;
  /** POST /-/accounts: an isolated account; its connection string uses the mapped port. */
  createAccount(options?: CreateAccountOptions): Promise<MalachiteAccount>;
  /** DELETE /-/accounts/<name>. */
  deleteAccount(name: string): Promise<void>;
  /** GET /-/accounts. */
  listAccounts(): Promise<ListedAccount[]>;
}

/** An admin call the server refused: status, the service's error code and message. */
export class MalachiteAdminError extends Error {
  statusCode: number;
  code: string | undefined;
  body: string;
}
