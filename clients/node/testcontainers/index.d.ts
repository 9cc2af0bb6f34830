// Types of @malachite/testcontainers (hand-written; the package is plain CommonJS).
// The accounts, the admin calls and their error are @malachite/client's.
import type { MalachiteAdmin } from "@malachite/client";
import { AbstractStartedContainer, GenericContainer, StartedTestContainer } from "testcontainers";

export type {
  CreateAccountOptions,
  ListedAccount,
  MalachiteAccount,
  ResetOptions,
  ResetResult,
} from "@malachite/client";
export { MalachiteAdminError } from "@malachite/client";

export class MalachiteContainer extends GenericContainer {
  /**
   * image: the full name with its tag, e.g. "ghcr.io/<owner>/malachite:0.1.0" (required, as
   * @testcontainers/azurite's; an empty one throws a TypeError).
   */
  constructor(image: string);
  /** Data in memory (the container's /dev/shm, 64 MB unless withSharedMemorySize) instead of /data. */
  withInMemory(): this;
  /** Copies the fixtures of hostDir into the container (/seed) and loads them at start (--seed). */
  withSeed(hostDir: string): this;
  /** Extra malachite flags, e.g. ["--throttling", "off"]. */
  withArgs(args: string[]): this;
  start(): Promise<StartedMalachiteContainer>;
}

/**
 * A started container. Its admin calls (reset, createAccount, deleteAccount, listAccounts) are
 * @malachite/client's, through the mapped port with devstoreaccount1's key as their bearer token;
 * the accounts' connection strings use the mapped port.
 */
export interface StartedMalachiteContainer extends MalachiteAdmin {}
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
}
