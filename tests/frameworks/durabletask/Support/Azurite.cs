// npm azurite's services (the repository's pin, node_modules/.bin from package.json, installed by
// scripts/install-deps) started as real processes on free loopback ports, in memory: Durable Task's
// blobs (leases, large messages) and queues (control and work-item queues) live there. Also
// bench/frameworks' starter (linked into it), which runs azurite-table as well.
using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Malachite.DurableTask.Support;

public sealed partial class AzuriteService : IAsyncDisposable
{
    private readonly Process _process;
    private readonly List<string> _output = new();

    private AzuriteService(Process process) => _process = process;

    // The port the service listens on (it was started with port 0 and printed the one it got).
    public int Port { get; private set; }

    public string Endpoint => $"http://127.0.0.1:{Port}/devstoreaccount1";

    // What the process printed, for a failure's message.
    public string Output
    {
        get { lock (_output) return string.Join("\n", _output); }
    }

    // Starts `azurite-blob`, `azurite-queue` or `azurite-table` (service: "blob", "queue" or "table")
    // and returns once it has printed the port it listens on. Throws,
    // with what it printed, if it exits first or is not listening within 60 s.
    public static async Task<AzuriteService> StartAsync(string service)
    {
        string bin = Path.Combine(Repository.Root(), "node_modules", ".bin", $"azurite-{service}");
        if (!File.Exists(bin))
        {
            throw new FileNotFoundException(
                $"{bin} is missing: npm azurite (package.json) is installed by scripts/install-deps (npm ci)");
        }
        var info = new ProcessStartInfo(bin)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            // Azurite writes nothing with --inMemoryPersistence, but its working directory is its
            // default location: a fresh one keeps the checkout clean whatever it does.
            WorkingDirectory = Directory.CreateTempSubdirectory("malachite-durabletask-azurite-").FullName,
        };
        // azurite-table does not report the port it got for 0 ("successfully started on
        // 127.0.0.1:0"): it gets a free one picked here (a race with another process shows as a
        // failed start); blob and queue print theirs.
        string port = service == "table" ? FreePort().ToString() : "0";
        foreach (var arg in new[] {
                     $"--{service}Host", "127.0.0.1", $"--{service}Port", port, "--inMemoryPersistence",
                     "--skipApiVersionCheck", "--disableTelemetry", "--silent" })
            info.ArgumentList.Add(arg);

        var listening = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var started = new AzuriteService(process);
        DataReceivedEventHandler onLine = (_, e) =>
        {
            if (e.Data == null) return;
            lock (started._output) started._output.Add(e.Data);
            var match = ListeningLine().Match(e.Data);
            if (match.Success) listening.TrySetResult(int.Parse(match.Groups[2].Value));
        };
        process.OutputDataReceived += onLine;
        process.ErrorDataReceived += onLine;
        process.Exited += (_, _) => listening.TrySetException(
            new InvalidOperationException($"azurite-{service} exited with {process.ExitCode}:\n{started.Output}"));
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var timeout = Task.Delay(TimeSpan.FromSeconds(60));
        if (await Task.WhenAny(listening.Task, timeout) == timeout)
        {
            process.Kill();
            throw new TimeoutException($"azurite-{service} was not listening after 60 s:\n{started.Output}");
        }
        started.Port = await listening.Task;
        return started;
    }

    // Stops the process (its id only) and removes its working directory.
    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited) _process.Kill();
        await _process.WaitForExitAsync();
        try
        {
            Directory.Delete(_process.StartInfo.WorkingDirectory, recursive: true);
        }
        catch (IOException)
        {
        }
        _process.Dispose();
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    // Blob and queue print "... service successfully listens on http://127.0.0.1:<port>", table
    // "Azurite Table service successfully started on 127.0.0.1:<port>".
    [GeneratedRegex(@"service successfully (listens on http://|started on )127\.0\.0\.1:([1-9]\d*)")]
    private static partial Regex ListeningLine();
}

public static class Repository
{
    // The repository root: the nearest ancestor of the test assembly holding scripts/test.
    public static string Root()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "scripts", "test"))) return dir.FullName;
        }
        throw new DirectoryNotFoundException($"no scripts/test above {AppContext.BaseDirectory}");
    }
}
