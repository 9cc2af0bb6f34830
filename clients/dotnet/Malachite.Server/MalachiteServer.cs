// Starts the malachite binary as a child process for a test run and stops it.
//
// The lifeline: the server runs with --exit-with-stdin and its standard input is a pipe whose
// write end only this process holds (.NET opens it close-on-exec, on Windows not inheritable, so
// other children do not inherit it). When this process ends, however it ends (SIGKILL and
// TerminateProcess included), the system closes the pipe and the server stops: no server outlives
// the test run. Closing it is also the graceful stop, the only one on Windows (no SIGTERM there).
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;

namespace Malachite;

/// <summary>
/// A Malachite server (Azure Table storage emulator) started for tests:
/// <code>
/// await using var server = await MalachiteServer.StartAsync();
/// var tables = new TableServiceClient(server.ConnectionString);
/// </code>
/// It listens on 127.0.0.1 (a free port by default) and serves the well-known development
/// account <c>devstoreaccount1</c>; <see cref="CreateAccountAsync"/> makes an isolated account
/// per test. Disposing it stops the server.
/// </summary>
public sealed partial class MalachiteServer : IAsyncDisposable
{
    /// <summary>The development account every Malachite serves.</summary>
    public const string DevelopmentAccount = "devstoreaccount1";

    /// <summary>The development account's well-known key (the same as Azurite's).</summary>
    public const string DevelopmentKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private const int OutputLines = 20;
    private readonly Process _process;
    private readonly OutputTail _stdout;
    private readonly OutputTail _stderr;
    private readonly MalachiteAdminClient _admin;
    private readonly string? _temporaryDataDirectory;
    private readonly object _stopLock = new();
    private Task? _stopping;
    private volatile bool _released;  // the process has exited and its Process object is disposed
    private int? _exitCode;            // set before _released

    private MalachiteServer(Process process, OutputTail stdout, OutputTail stderr, int port,
                            string? temporaryDataDirectory)
    {
        _process = process;
        _stdout = stdout;
        _stderr = stderr;
        _temporaryDataDirectory = temporaryDataDirectory;
        Port = port;
        ProcessId = process.Id;
        TableUri = new Uri($"http://{Host}:{port}/{DevelopmentAccount}");
        ConnectionString = $"DefaultEndpointsProtocol=http;AccountName={DevelopmentAccount};" +
                           $"AccountKey={DevelopmentKey};TableEndpoint={TableUrl};";
        // On the server's loopback the admin requests need no credentials.
        _admin = new MalachiteAdminClient(new Uri($"http://{Host}:{port}/"));
    }

    /// <summary>The address the server listens on: always 127.0.0.1.</summary>
    public string Host => "127.0.0.1";

    /// <summary>The TCP port the server listens on.</summary>
    public int Port { get; }

    /// <summary>The account of <see cref="ConnectionString"/>: <c>devstoreaccount1</c>.</summary>
    public string Account => DevelopmentAccount;

    /// <summary>The key of <see cref="Account"/> (the well-known development key).</summary>
    public string Key => DevelopmentKey;

    /// <summary>The table endpoint of <c>devstoreaccount1</c>: <c>http://127.0.0.1:&lt;port&gt;/devstoreaccount1</c>.</summary>
    public Uri TableUri { get; }

    /// <summary><see cref="TableUri"/> as a string.</summary>
    public string TableUrl => TableUri.OriginalString;

    /// <summary>A connection string for <c>devstoreaccount1</c> on this server, for
    /// <c>new TableServiceClient(server.ConnectionString)</c> or <c>new TableClient(server.ConnectionString, "table")</c>.</summary>
    public string ConnectionString { get; }

    /// <summary>The server process's id.</summary>
    public int ProcessId { get; }

    /// <summary>Whether <see cref="StopAsync"/> (or <see cref="DisposeAsync"/>) was called.</summary>
    public bool IsStopped
    {
        get
        {
            lock (_stopLock) return _stopping != null;
        }
    }

    /// <summary>Whether the server process has ended (stopped, or died).</summary>
    public bool HasExited => _released || _process.HasExited;

    /// <summary>The server process's exit status once it has ended, null while it runs: 0 after a
    /// graceful stop (<see cref="StopAsync"/> closes its standard input), 143 when it ended on
    /// SIGTERM, 128 + n when signal n killed it (137: SIGKILL; on Windows -1 when it was killed),
    /// anything else when it failed. A test fixture reads it after <see cref="StopAsync"/> to fail
    /// the tests of a server that crashed or died before being stopped.</summary>
    public int? ExitCode => _released ? _exitCode : _process.HasExited ? _process.ExitCode : null;

    /// <summary>The server's last lines of output, standard output then standard error: what to
    /// print when a test fails.</summary>
    public IReadOnlyList<string> RecentOutput => _stdout.Lines().Concat(_stderr.Lines()).ToArray();

    [GeneratedRegex(@"^malachite: listening on (\S+):(\d+)\s*$")]
    private static partial Regex ListeningLine();

    /// <summary>
    /// The malachite binary <see cref="StartAsync"/> runs: <paramref name="binaryPath"/> (what
    /// <see cref="MalachiteOptions.BinaryPath"/> says), else the <c>MALACHITE_BINARY</c>
    /// environment variable, else this package's native asset for the platform:
    /// <c>runtimes/linux-x64/native/malachite</c>, <c>runtimes/linux-arm64/native/malachite</c> or
    /// <c>runtimes/win-x64/native/malachite.exe</c> in the output directory (or, for a build with a
    /// RuntimeIdentifier, beside the assembly). The platform is the running one unless
    /// <paramref name="platform"/> or <paramref name="architecture"/> names another, e.g. to find
    /// the Windows binary for a copy made on Linux. For the running platform the file is made
    /// executable when NuGet lost its mode. For the binary's command-line tools
    /// (<c>malachite export</c>, <c>malachite import</c>). Throws <see cref="MalachiteException"/>,
    /// one line naming the platform and how to get a binary, when there is none.
    /// </summary>
    public static string ResolveBinary(string? binaryPath = null, OSPlatform? platform = null,
                                       Architecture? architecture = null) =>
        NativeBinary.Resolve(binaryPath, platform, architecture);

    /// <summary>
    /// Starts a server and waits until it listens. Fails with <see cref="MalachiteException"/>
    /// when there is no binary for this platform, when the server stops while starting (a port in
    /// use, an unusable data directory, a bad seed file, a bad flag: the message is the server's
    /// own), or when it does not report that it listens within
    /// <see cref="MalachiteOptions.StartTimeout"/>.
    /// </summary>
    public static async Task<MalachiteServer> StartAsync(MalachiteOptions? options = null,
                                                         CancellationToken cancellationToken = default)
    {
        options ??= new MalachiteOptions();
        if (options.Port is < 0 or > 65535)
            throw new ArgumentOutOfRangeException(nameof(options), options.Port, "Port must be 0 to 65535");
        if (options.StartTimeout <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(options), options.StartTimeout, "StartTimeout must be positive");
        string binary = NativeBinary.Resolve(options.BinaryPath);

        string? temporary = null;
        var info = new ProcessStartInfo(binary)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string arg in new[] { "--host", "127.0.0.1", "--port", options.Port.ToString(),
                                       "--exit-with-stdin" })
            info.ArgumentList.Add(arg);
        if (options.DataDirectory != null)
        {
            info.ArgumentList.Add("--data-dir");
            info.ArgumentList.Add(Path.GetFullPath(options.DataDirectory));
        }
        else if (options.InMemory)
        {
            info.ArgumentList.Add("--in-memory");
        }
        else
        {
            temporary = Directory.CreateTempSubdirectory("malachite-").FullName;
            info.ArgumentList.Add("--data-dir");
            info.ArgumentList.Add(temporary);
        }
        if (options.SeedDirectory != null)
        {
            info.ArgumentList.Add("--seed");
            info.ArgumentList.Add(Path.GetFullPath(options.SeedDirectory));
        }
        foreach (string arg in options.ExtraArguments) info.ArgumentList.Add(arg);

        var stdout = new OutputTail(OutputLines);
        var stderr = new OutputTail(OutputLines);
        var listening = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var process = new Process { StartInfo = info };
        // Both pipes are drained for the server's whole life: a pipe nobody reads would block it.
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data == null) return;
            stdout.Add(e.Data);
            var match = ListeningLine().Match(e.Data);
            if (match.Success) listening.TrySetResult(int.Parse(match.Groups[2].Value));
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data != null) stderr.Add(e.Data);
        };
        try
        {
            process.Start();
        }
        catch (Win32Exception e)
        {
            process.Dispose();
            DeleteDirectory(temporary);
            throw new MalachiteException($"cannot run {binary}: {e.Message}", inner: e);
        }
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var exited = process.WaitForExitAsync(CancellationToken.None);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.StartTimeout);
        var gaveUp = Task.Delay(Timeout.Infinite, timeout.Token);
        await Task.WhenAny(listening.Task, exited, gaveUp).ConfigureAwait(false);
        if (listening.Task.IsCompletedSuccessfully && !process.HasExited)
            return new MalachiteServer(process, stdout, stderr, listening.Task.Result, temporary);

        string reason;
        int? exitCode = null;
        if (exited.IsCompleted)
        {
            exitCode = process.ExitCode;
            reason = FailureLine(stderr, stdout) is { } line
                ? $"{line} (malachite exited with status {exitCode} while starting)"
                : $"malachite exited with status {exitCode} before it listened";
        }
        else
        {
            KillAndWait(process);
            if (cancellationToken.IsCancellationRequested)
            {
                process.Dispose();
                DeleteDirectory(temporary);
                cancellationToken.ThrowIfCancellationRequested();
            }
            reason = $"malachite did not report that it listens within {options.StartTimeout.TotalSeconds:0.#} s " +
                     "(MalachiteOptions.StartTimeout); it was killed";
        }
        var output = stdout.Lines().Concat(stderr.Lines()).ToArray();
        process.Dispose();
        DeleteDirectory(temporary);
        throw new MalachiteException($"{reason}; command: {Describe(info)}")
        {
            ExitCode = exitCode,
            Output = output,
        };
    }

    // The server says why it could not start in one "malachite: <reason>" line on stderr.
    private static string? FailureLine(OutputTail stderr, OutputTail stdout)
    {
        var errors = stderr.Lines();
        return errors.LastOrDefault(l => l.StartsWith("malachite: ", StringComparison.Ordinal)) ??
               errors.LastOrDefault(l => !string.IsNullOrWhiteSpace(l)) ??
               stdout.Lines().LastOrDefault(l => l.StartsWith("malachite: ", StringComparison.Ordinal));
    }

    private static string Describe(ProcessStartInfo info) =>
        string.Join(" ", new[] { info.FileName }.Concat(info.ArgumentList)
                             .Select(a => a.Contains(' ') ? $"'{a}'" : a));

    /// <inheritdoc cref="MalachiteAdminClient.CreateAccountAsync"/>
    public Task<MalachiteAccount> CreateAccountAsync(string? name = null, string? key = null,
                                                     CancellationToken cancellationToken = default) =>
        Call(() => _admin.CreateAccountAsync(name, key, cancellationToken));

    /// <inheritdoc cref="MalachiteAdminClient.DeleteAccountAsync"/>
    public Task DeleteAccountAsync(string name, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return Call(() => _admin.DeleteAccountAsync(name, cancellationToken));
    }

    /// <summary>
    /// Deletes every table of every account (or of <paramref name="account"/> only) and loads the
    /// seed fixtures (<see cref="MalachiteOptions.SeedDirectory"/>) again unless
    /// <paramref name="seed"/> is false. Service properties are kept.
    /// </summary>
    public Task ResetAsync(string? account = null, bool seed = true, CancellationToken cancellationToken = default) =>
        Call(() => _admin.ResetAsync(account, seed, cancellationToken));

    /// <summary>
    /// Stops the server and waits until it has exited: its standard input is closed (it stops
    /// gracefully on that), then SIGTERM after 2 s, SIGKILL after 5 s; on Windows, which has no
    /// SIGTERM, it is killed (TerminateProcess) when it has not exited 5 s after its standard input
    /// closed. A temporary data directory is deleted. Calling it again returns the same task.
    /// </summary>
    public Task StopAsync()
    {
        lock (_stopLock) return _stopping ??= StopCoreAsync();
    }

    /// <summary>Stops the server (<see cref="StopAsync"/>).</summary>
    public async ValueTask DisposeAsync() => await StopAsync().ConfigureAwait(false);

    private async Task StopCoreAsync()
    {
        // The accounts go with the server: from now on disposing one deletes nothing.
        _admin.Dispose();
        try
        {
            _process.StandardInput.Close();
        }
        catch (IOException)
        {
        }
        if (OperatingSystem.IsWindows())
        {
            // No SIGTERM: the closed standard input is the only graceful stop, Kill a hard one.
            if (!await ExitsWithin(TimeSpan.FromSeconds(5)).ConfigureAwait(false)) KillAndWait(_process);
        }
        else if (!await ExitsWithin(TimeSpan.FromSeconds(2)).ConfigureAwait(false))
        {
            if (!_process.HasExited) Kill(_process.Id, SigTerm);
            if (!await ExitsWithin(TimeSpan.FromSeconds(3)).ConfigureAwait(false)) KillAndWait(_process);
        }
        _exitCode = _process.ExitCode;
        _released = true;
        _process.Dispose();
        DeleteDirectory(_temporaryDataDirectory);
    }

    private async Task<bool> ExitsWithin(TimeSpan wait)
    {
        using var timeout = new CancellationTokenSource(wait);
        try
        {
            await _process.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    // An admin request; when the server has died under it (a crash, a kill), the failure says so
    // with the server's last lines instead of a bare "connection refused".
    private Task Call(Func<Task> request) => Call(async () =>
    {
        await request().ConfigureAwait(false);
        return true;
    });

    private async Task<T> Call<T>(Func<Task<T>> request)
    {
        if (IsStopped) throw new ObjectDisposedException(nameof(MalachiteServer), "the server was stopped");
        try
        {
            return await request().ConfigureAwait(false);
        }
        catch (HttpRequestException e) when (_process.HasExited)
        {
            throw new MalachiteException(
                $"the malachite server (pid {ProcessId}) exited with status {_process.ExitCode} before the request; " +
                $"its last lines: {string.Join(" | ", RecentOutput.TakeLast(5))}", inner: e)
            {
                ExitCode = _process.ExitCode,
                Output = RecentOutput,
            };
        }
    }

    private static void KillAndWait(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
        }
        process.WaitForExit();
    }

    private static void DeleteDirectory(string? path)
    {
        if (path == null) return;
        try
        {
            Directory.Delete(path, recursive: true);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private const int SigTerm = 15;

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);
}
