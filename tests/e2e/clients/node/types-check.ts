// Compiled (not run) by scripts/check-node-client with tsc --strict: the hand-written .d.ts files of
// @malachite/server and @malachite/testcontainers describe what the README shows.
import { DEV_KEY, MalachiteAdminError, startMalachite } from "@malachite/server";
import type { MalachiteAccount, MalachiteServer, ResetResult } from "@malachite/server";
import { DEFAULT_IMAGE, MalachiteContainer } from "@malachite/testcontainers";
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
  const image: string = DEFAULT_IMAGE;
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
}
