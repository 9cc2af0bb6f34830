// Compiled (not run) by ../packed_install.test.mjs with tsc --strict: the hand-written .d.ts files of
// @malachite/server, @malachite/testcontainers and @malachite/client describe what the READMEs show.
import * as client from "@malachite/client";
import type { MalachiteAdmin } from "@malachite/client";
import { DEV_KEY, MalachiteAdminError, startMalachite } from "@malachite/server";
import type { MalachiteAccount, MalachiteServer, ResetResult } from "@malachite/server";
import { MalachiteContainer } from "@malachite/testcontainers";
import type { StartedMalachiteContainer } from "@malachite/testcontainers";

export async function server(): Promise<void> {
  await using scoped = await startMalachite();
  const port: number = scoped.port;
  const server: MalachiteServer = await startMalachite({
    port: 0,
    inMemory: true,
    seed: "fixtures",
    args: ["--throttling", "off"],
    env: { MALACHITE_LOG_LEVEL: "warn" },
    startTimeoutMs: 5000,
    onLog: (line: string, stream: "stdout" | "stderr") => void [line, stream],
  });
  const account: MalachiteAccount = await server.createAccount({ name: "abc", key: DEV_KEY });
  const text: string = account.connectionString + account.tableUrl + account.name + account.key + port;
  await account.delete();
  await server.deleteAccount("abc");
  const reset: ResetResult = await server.reset({ account: "abc", seed: false });
  const deleted: number = reset.tables_deleted;
  const runtime: boolean[] = (await server.listAccounts()).map((a) => a.runtime);
  try {
    await server.createAccount({ name: "abc" });
  } catch (e) {
    if (e instanceof MalachiteAdminError) void [e.statusCode, e.code, e.body];
  }
  void [text, deleted, runtime, server.output()];
  await server.stop();
  // @ts-expect-error the port is a number
  await startMalachite({ port: "10002" });
  // @ts-expect-error there is no option named inmemory
  await startMalachite({ inmemory: true });
}

export async function container(): Promise<void> {
  const image = "ghcr.io/owner/malachite:0.1.0";
  const started: StartedMalachiteContainer = await new MalachiteContainer(image)
    .withInMemory()
    .withSeed("fixtures")
    .withArgs(["--throttling", "off"])
    .withSharedMemorySize(256 * 1024 * 1024)
    .start();
  const text: string = started.getConnectionString() + started.getTableUrl() + started.getPort();
  const account = await started.createAccount();
  await account.delete();
  await started.reset({ seed: false });
  void text;
  await started.stop();
  // @ts-expect-error the image is required, as @testcontainers/azurite's
  new MalachiteContainer();
}

export async function adminClient(): Promise<void> {
  // One MalachiteAdminError and one account type, whichever package names them.
  const sameError: typeof client.MalachiteAdminError = MalachiteAdminError;
  const admin = new client.MalachiteAdminClient({ host: "127.0.0.1", port: 10002, bearer: client.DEV_KEY });
  const account: client.MalachiteAccount = await admin.createAccount({ name: "abc" });
  const text: string = client.connectionStringFor(account.name, account.key, account.tableUrl) + client.DEV_ACCOUNT;
  await admin.deleteAccount(account.name);
  const both: MalachiteAdmin[] = [admin, await startMalachite(), await new MalachiteContainer("ghcr.io/owner/malachite:0.1.0").start()];
  void [sameError, text, both];
  // @ts-expect-error the port is a number
  new client.MalachiteAdminClient({ port: "10002" });
}
