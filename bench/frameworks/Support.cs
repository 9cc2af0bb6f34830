// Starting the servers (Malachite through its published launcher, npm azurite's services as
// processes), the options, and a count of the Table requests each side answered.
using System.Diagnostics;
using System.Text.RegularExpressions;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Malachite.FrameworksBench;

public sealed record BenchOptions(int Grains, int Writes, int Concurrency, int Orchestrations, int Activities,
                                  int Payload, bool Warmup)
{
    public static BenchOptions Parse(string[] args)
    {
        var o = new BenchOptions(2000, 5, 64, 100, 4, 256, true);
        for (int i = 0; i < args.Length; i++)
        {
            string value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value");
            int n = int.Parse(value);
            o = args[i] switch
            {
                "--grains" => o with { Grains = n },
                "--writes" => o with { Writes = n },
                "--concurrency" => o with { Concurrency = n },
                "--orchestrations" => o with { Orchestrations = n },
                "--activities" => o with { Activities = n },
                "--payload" => o with { Payload = n },
                "--warmup" => o with { Warmup = n != 0 },
                _ => throw new ArgumentException($"unknown option {args[i]} (--grains --writes --concurrency " +
                                                 "--orchestrations --activities --payload --warmup)"),
            };
            i++;
        }
        return o;
    }
}

public static class Endpoints
{
    public const string WellKnownKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    public static string ConnectionString(string tableEndpoint, string? blob = null, string? queue = null) =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={WellKnownKey};" +
        (blob != null ? $"BlobEndpoint={blob};" : "") + (queue != null ? $"QueueEndpoint={queue};" : "") +
        $"TableEndpoint={tableEndpoint};";

    // A free port, a fresh data directory on disk (removed at stop), throttling off (Azurite has
    // none; Malachite's default answers 503 ServerBusy over Azure's per-partition targets).
    public static Task<MalachiteServer> StartMalachiteAsync()
    {
        var options = new MalachiteOptions
        {
            InMemory = false,
            StartTimeout = TimeSpan.FromSeconds(30),
            ExtraArguments = ["--log-level", "warn", "--throttling", "off"],
        };
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MALACHITE_BINARY")))
            options.BinaryPath = Path.Combine(RepoRoot(), "build", "Release", "malachite");
        return MalachiteServer.StartAsync(options);
    }

    // The nearest ancestor of the assembly holding scripts/test.
    public static string RepoRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "scripts", "test"))) return dir.FullName;
        }
        throw new DirectoryNotFoundException($"no scripts/test above {AppContext.BaseDirectory}");
    }
}

// npm azurite's `azurite-<service>` (table, blob or queue) on a free loopback port, in memory, as
// tests/frameworks/durabletask/Support/Azurite.cs starts it.
public sealed partial class AzuriteProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly List<string> _output = [];

    private AzuriteProcess(Process process) => _process = process;

    public int Port { get; private set; }

    public string Endpoint => $"http://127.0.0.1:{Port}/devstoreaccount1";

    public static async Task<AzuriteProcess> StartAsync(string service)
    {
        string bin = Path.Combine(Endpoints.RepoRoot(), "node_modules", ".bin", $"azurite-{service}");
        if (!File.Exists(bin)) throw new FileNotFoundException($"{bin} is missing (scripts/install-deps runs npm ci)");
        var info = new ProcessStartInfo(bin)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Directory.CreateTempSubdirectory("malachite-frameworks-bench-azurite-").FullName,
        };
        // azurite-table does not report the port it got for 0 ("successfully started on
        // 127.0.0.1:0"): it gets a free one picked here (a race with another process shows as a
        // failed start); blob and queue print theirs.
        string port = service == "table" ? FreePort().ToString() : "0";
        foreach (var arg in new[] {
                     $"--{service}Host", "127.0.0.1", $"--{service}Port", port, "--inMemoryPersistence",
                     "--skipApiVersionCheck", "--disableTelemetry" })
            info.ArgumentList.Add(arg);
        var listening = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var started = new AzuriteProcess(process);
        DataReceivedEventHandler onLine = (_, e) =>
        {
            if (e.Data == null) return;
            lock (started._output) started._output.Add(e.Data);
            var match = ListeningLine().Match(e.Data);
            if (match.Success) listening.TrySetResult(int.Parse(match.Groups[2].Value));
        };
        process.OutputDataReceived += onLine;
        process.ErrorDataReceived += onLine;
        process.Exited += (_, _) => listening.TrySetException(new InvalidOperationException(
            $"azurite-{service} exited with {process.ExitCode}:\n{string.Join("\n", started._output)}"));
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var timeout = Task.Delay(TimeSpan.FromSeconds(60));
        if (await Task.WhenAny(listening.Task, timeout) == timeout)
        {
            process.Kill();
            throw new TimeoutException($"azurite-{service} was not listening after 60 s");
        }
        started.Port = await listening.Task;
        return started;
    }

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

    [GeneratedRegex(@"service successfully (listens on http://|started on )127\.0\.0\.1:([1-9]\d*)")]
    private static partial Regex ListeningLine();
}

// Counts the Table requests of one side (each try, retries included) and those answered 5xx.
public sealed class RequestCounter : HttpPipelineSynchronousPolicy
{
    private long _total, _serverErrors;

    public override void OnReceivedResponse(HttpMessage message)
    {
        Interlocked.Increment(ref _total);
        if (message.Response.Status >= 500) Interlocked.Increment(ref _serverErrors);
    }

    public override string ToString() => $"{Interlocked.Read(ref _total)} ({Interlocked.Read(ref _serverErrors)} 5xx)";
}
