// npm azurite (the repository's one pin, node_modules/.bin/azurite) started on this host on
// free loopback ports with a temp workspace: the reference the compatibility image is compared with.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const kRepoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const kWellKnownKey =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

function FreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function ConnectionString(account, key, ports, host = "127.0.0.1") {
  return `DefaultEndpointsProtocol=http;AccountName=${account};AccountKey=${key};` +
    `BlobEndpoint=http://${host}:${ports.blob}/${account};` +
    `QueueEndpoint=http://${host}:${ports.queue}/${account};` +
    `TableEndpoint=http://${host}:${ports.table}/${account};`;
}

// Starts `azurite` with the given extra flags; resolves to { ports, connectionString, stop() } once
// its three readiness lines are out.
export async function StartHostAzurite(extraArgs = [], env = {}) {
  const ports = { blob: await FreePort(), queue: await FreePort(), table: await FreePort() };
  const workspace = mkdtempSync(join(tmpdir(), "malachite-host-azurite-"));
  const child = spawn(join(kRepoRoot, "node_modules", ".bin", "azurite"), [
    "--blobHost", "127.0.0.1", "--blobPort", String(ports.blob),
    "--queueHost", "127.0.0.1", "--queuePort", String(ports.queue),
    "--tableHost", "127.0.0.1", "--tablePort", String(ports.table),
    "-l", workspace, "--silent", "--disableTelemetry", "--skipApiVersionCheck", ...extraArgs,
  ], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let output = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host azurite did not start:\n${output}`)), 60000);
    const onData = (data) => {
      output += data;
      if ((output.match(/service is successfully listening/g) || []).length === 3) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`host azurite exited ${code}:\n${output}`));
    });
  });
  child.removeAllListeners("exit");
  return {
    ports,
    connectionString: ConnectionString("devstoreaccount1", kWellKnownKey, ports),
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10000);
      await exited;
      clearTimeout(timer);
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
