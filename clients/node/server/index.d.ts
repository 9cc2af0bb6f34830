// Types of @malachite/server (hand-written; the package is plain CommonJS with no build step).
// The accounts, the admin calls and their error are @malachite/client's.
import type { MalachiteAdmin } from "@malachite/client";

export type {
  CreateAccountOptions,
  ListedAccount,
  MalachiteAccount,
  ResetOptions,
  ResetResult,
} from "@malachite/client";
export { DEV_ACCOUNT, DEV_KEY, MalachiteAdminError } from "@malachite/client";

export interface StartMalachiteOptions {
  /** TCP port on 127.0.0.1. Default 0: a free port, read back from the server. */
  port?: number;
  /** Keep the data in memory (deleted when the server stops). Default true unless dataDir is given. */
  inMemory?: boolean;
  /** Keep the data in this directory (created if missing; kept after stop()). Excludes inMemory: true. */
  dataDir?: string;
  /** A fixtures directory: every <table>.jsonl/.csv file (and <account>/<table>.jsonl) is loaded at start; reset() writes them again. */
  seed?: string;
  /** Extra command-line flags, appended last (a later flag wins), e.g. ["--throttling", "off"]. See `malachite --help`. */
  args?: string[];
  /** The malachite binary to run. Default: MALACHITE_BINARY, else the binary package of this platform (@malachite/server-linux-x64, -linux-arm64 or -win32-x64, whose bin/malachite.exe runs on Windows). */
  binary?: string;
  /** How long to wait for the server to listen before killing it and rejecting. Default 10000. */
  startTimeoutMs?: number;
  /** Environment variables added to this process's for the server (MALACHITE_* options, for example). */
  env?: Record<string, string>;
  /** Called with every line the server prints (its log), e.g. (line) => console.error(line). */
  onLog?: (line: string, stream: "stdout" | "stderr") => void;
}

/**
 * A running Malachite. Stop it with stop() or `await using`. Its admin calls (reset, createAccount,
 * deleteAccount, listAccounts) are @malachite/client's, over loopback.
 */
export interface MalachiteServer extends MalachiteAdmin {
  /** "127.0.0.1" */
  readonly host: string;
  readonly port: number;
  /** The server's process id. */
  readonly pid: number;
  /** "devstoreaccount1", the well-known development account. */
  readonly account: string;
  /** devstoreaccount1's well-known key. */
  readonly key: string;
  /** `http://127.0.0.1:<port>/devstoreaccount1` */
  readonly tableUrl: string;
  /** The connection string of devstoreaccount1 on this server. */
  readonly connectionString: string;
  /** The server's last lines of output (up to 20 of stdout and of stderr). */
  output(): string;
  /**
   * Stops the server (its stdin closed and SIGTERM; SIGKILL after 5 s. On Windows, which has no
   * SIGTERM, its stdin closed, then killed after 5 s) and resolves once it has exited. Rejects,
   * with its last output, when it had crashed or had to be killed. Calling it again returns the
   * same promise. A server not stopped stops anyway when this process exits.
   */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts Malachite and resolves once it listens. Rejects with the server's own one-line reason
 * (port in use, a data directory it cannot use, a bad seed file, a bad flag), after startTimeoutMs,
 * or when there is no binary this machine can run (none for this platform, or one built for another
 * machine: the one-line message names the platform, the package and MALACHITE_BINARY). The server stops when this process exits, however it exits (SIGKILL too).
 */
export function startMalachite(options?: StartMalachiteOptions): Promise<MalachiteServer>;

/**
 * The binary startMalachite() would run for `binary` (options.binary): it, else MALACHITE_BINARY,
 * else this platform's binary package's bin/malachite (bin/malachite.exe on Windows); or throws
 * why there is none, or why that file cannot run here (an ELF or PE file of another system or CPU).
 */
export function resolveBinary(binary?: string): string;
