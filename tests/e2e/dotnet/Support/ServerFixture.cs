// One server per test class (IClassFixture<ServerFixture>), like the JS and Python suites' one
// server per file or module; xUnit runs classes in parallel, each against its own process. The
// servers are started by the published launcher, Malachite.Server (clients/dotnet), as a user's
// tests start them.
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;
using Azure.Data.Tables;
using Xunit;

namespace Malachite.E2E.Support;

public class ServerFixture : IAsyncLifetime
{
    private MalachiteServer? _server;

    public MalachiteServer Server => _server ?? throw new InvalidOperationException("not started");

    // Extra server flags for a derived fixture (e.g. throttling on).
    protected virtual string[] ServerArgs => [];

    public async Task InitializeAsync() => _server = await Servers.StartAsync(args: ServerArgs);

    public async Task DisposeAsync()
    {
        if (_server != null) await Servers.StopAsync(_server);
    }

    public TableServiceClient ServiceClient(TableClientOptions? options = null) =>
        new(Server.ConnectionString, options ?? Clients.NoRetries());

    public TableClient TableClient(string table, TableClientOptions? options = null) =>
        new(Server.ConnectionString, table, options ?? Clients.NoRetries());

    // A fresh table, created; the caller owns it.
    public async Task<TableClient> NewTableAsync(string prefix = "net", TableClientOptions? options = null)
    {
        var client = TableClient(Names.Table(prefix), options);
        await client.CreateAsync();
        return client;
    }
}

// How these suites start and stop a server through Malachite.Server.
public static class Servers
{
    // A server on `port` (0: a free one) with its data on disk in a temporary directory (deleted at
    // stop), warnings only in its log, and throttling (on by default in the binary) off unless
    // `args` turns it back on ("--throttling on": a later flag wins), since most suites load one
    // partition far past its target. MALACHITE_BINARY names the binary (the launcher reads it);
    // without it, this checkout's Release build.
    public static Task<MalachiteServer> StartAsync(int port = 0, params string[] args)
    {
        var options = new MalachiteOptions
        {
            Port = port,
            InMemory = false,
            StartTimeout = TimeSpan.FromSeconds(30),
            ExtraArguments = ["--log-level", "warn", "--throttling", "off", .. args],
        };
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MALACHITE_BINARY")))
            options.BinaryPath = Path.Combine(RepoRoot(), "build", "Release", "malachite");
        return MalachiteServer.StartAsync(options);
    }

    // Stops the server and throws if it had exited abnormally (a crash, a sanitizer report): before
    // being stopped, or with a status other than a clean stop's (0, or 143 after SIGTERM), so the
    // test class that owned it fails.
    public static async Task StopAsync(MalachiteServer server)
    {
        bool diedFirst = server.HasExited;
        await server.StopAsync();
        if (diedFirst || server.ExitCode is not (0 or 143))
        {
            throw new InvalidOperationException(
                $"malachite (pid {server.ProcessId}) exited with {server.ExitCode}" +
                $"{(diedFirst ? " before it was stopped" : "")}; its last lines:\n" +
                string.Join("\n", server.RecentOutput));
        }
    }

    // The repository root: the nearest ancestor of the test assembly holding scripts/test.
    private static string RepoRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "scripts", "test"))) return dir.FullName;
        }
        throw new DirectoryNotFoundException("repository root (with scripts/test) not found above " +
                                             AppContext.BaseDirectory + ": set MALACHITE_BINARY");
    }
}

public static class Clients
{
    // No retries: a failing server should fail the test at once, not after back-off.
    public static TableClientOptions NoRetries()
    {
        var options = new TableClientOptions();
        options.Retry.MaxRetries = 0;
        return options;
    }

    // Options whose pipeline records every response (status, headers) and request the SDK sent.
    public static TableClientOptions Recording(Recorder recorder, int maxRetries = 0)
    {
        var options = NoRetries();
        options.Retry.MaxRetries = maxRetries;
        options.Retry.Delay = TimeSpan.FromMilliseconds(20);
        options.Retry.MaxDelay = TimeSpan.FromMilliseconds(200);
        options.AddPolicy(recorder, HttpPipelinePosition.PerRetry);
        return options;
    }
}

// Records each attempt the SDK sends (after retries, so every try shows) and what came back.
public sealed class Recorder : HttpPipelineSynchronousPolicy
{
    public sealed record Exchange(string Method, Uri Uri, IReadOnlyDictionary<string, string> RequestHeaders,
                                  int Status, IReadOnlyDictionary<string, string> ResponseHeaders);

    private readonly List<Exchange> _exchanges = new();

    public IReadOnlyList<Exchange> Exchanges
    {
        get { lock (_exchanges) return _exchanges.ToList(); }
    }

    public override void OnReceivedResponse(HttpMessage message)
    {
        var request = message.Request;
        var requestHeaders = request.Headers.ToDictionary(h => h.Name, h => h.Value, StringComparer.OrdinalIgnoreCase);
        var responseHeaders =
            message.Response.Headers.ToDictionary(h => h.Name, h => h.Value, StringComparer.OrdinalIgnoreCase);
        lock (_exchanges)
        {
            _exchanges.Add(new Exchange(request.Method.Method, request.Uri.ToUri(), requestHeaders,
                                        message.Response.Status, responseHeaders));
        }
    }

    public void Clear()
    {
        lock (_exchanges) _exchanges.Clear();
    }
}

public static class Names
{
    private static int _counter;

    // A fresh, valid table name (letters and digits only, starting with a letter).
    public static string Table(string prefix = "net") =>
        $"{prefix}{Environment.ProcessId}x{Interlocked.Increment(ref _counter)}{Random.Shared.Next(1_000_000)}";
}

public static class Expect
{
    // Asserts that `call` fails with the given HTTP status and Azure error code.
    public static async Task<RequestFailedException> Error(int status, string code, Func<Task> call)
    {
        var error = await Assert.ThrowsAnyAsync<RequestFailedException>(call);
        Assert.True(status == error.Status && code == error.ErrorCode,
                    $"expected {status} {code}, got {error.Status} {error.ErrorCode}: {error.Message}");
        return error;
    }

    // The same for the XML operations (ACL, service properties): their error body is XML, which
    // Azure.Data.Tables does not parse (it reads only the JSON odata.error), so ErrorCode stays empty;
    // the code is in the x-ms-error-code header.
    public static async Task<RequestFailedException> XmlError(int status, string code, Func<Task> call)
    {
        var error = await Assert.ThrowsAnyAsync<RequestFailedException>(call);
        string? header = null;
        error.GetRawResponse()?.Headers.TryGetValue("x-ms-error-code", out header);
        Assert.True(status == error.Status && code == header,
                    $"expected {status} {code}, got {error.Status} {header}: {error.Message}");
        return error;
    }
}
