// One Malachite per test class (IClassFixture<MalachiteFixture>): a free port and a fresh data
// directory on disk, started through the published launcher (Malachite.Server, clients/dotnet) as
// tests/e2e/dotnet's Support/ServerFixture.cs starts its servers.
using Azure.Data.Tables;
using Xunit;

namespace Malachite.Frameworks.Orleans.Support;

public sealed class MalachiteFixture : IAsyncLifetime
{
    private MalachiteServer? _server;

    public MalachiteServer Server => _server ?? throw new InvalidOperationException("not started");

    // The client the tests read Orleans' tables with, behind Orleans' back.
    public TableClient Table(string name) => new(Server.ConnectionString, name);

    // A server on a free port with its data in a temporary directory (deleted at stop), warnings
    // only in its log, throttling off (Orleans' silos poll the membership table many times a second
    // in these short-timeout clusters). MALACHITE_BINARY names the binary (the launcher reads it);
    // without it, this checkout's Release build.
    public async Task InitializeAsync()
    {
        var options = new MalachiteOptions
        {
            InMemory = false,
            StartTimeout = TimeSpan.FromSeconds(30),
            ExtraArguments = ["--log-level", "warn", "--throttling", "off"],
        };
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MALACHITE_BINARY")))
            options.BinaryPath = Path.Combine(RepoRoot(), "build", "Release", "malachite");
        _server = await MalachiteServer.StartAsync(options);
    }

    // Stops the server and throws if it had exited abnormally (a crash, a sanitizer report), so the
    // class that owned it fails.
    public async Task DisposeAsync()
    {
        if (_server == null) return;
        bool diedFirst = _server.HasExited;
        await _server.StopAsync();
        if (diedFirst || _server.ExitCode is not (0 or 143))
        {
            throw new InvalidOperationException(
                $"malachite (pid {_server.ProcessId}) exited with {_server.ExitCode}" +
                $"{(diedFirst ? " before it was stopped" : "")}; its last lines:\n" +
                string.Join("\n", _server.RecentOutput));
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
