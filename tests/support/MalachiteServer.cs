// Starts the real `malachite` binary on a free port (or a given one) with a temp data dir, and stops
// it by PID: SIGTERM, then SIGKILL after 10 s. A server that exited abnormally (a crash, a sanitizer
// report) makes Stop throw, so the test class that owned it fails.
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

namespace Malachite.E2E.Support;

public sealed partial class MalachiteServer : IDisposable
{
    public const string Account = "devstoreaccount1";
    public const string Key =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);
    private readonly Process _process;
    private readonly StringBuilder _log = new();
    private readonly string _dataDir;
    private bool _stopped;

    public int Port { get; private set; }
    public string AccountUrl => $"http://127.0.0.1:{Port}/{Account}";
    public string ConnectionString =>
        $"DefaultEndpointsProtocol=http;AccountName={Account};AccountKey={Key};TableEndpoint={AccountUrl};";

    public string Log
    {
        get { lock (_log) return _log.ToString(); }
    }

    [GeneratedRegex(@"listening on ([0-9.]+):(\d+)")]
    private static partial Regex ListeningLine();

    // Throttling (on by default in the binary) is off unless `args` turns it back on ("--throttling
    // on": a later flag wins), since most suites load one partition far past its target.
    private MalachiteServer(int port, IEnumerable<string> args)
    {
        _dataDir = Directory.CreateTempSubdirectory("malachite-e2e-").FullName;
        var info = new ProcessStartInfo(BinaryPath())
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        foreach (var arg in new[] { "--host", "127.0.0.1", "--port", port.ToString(), "--data-dir",
                                    _dataDir, "--log-level", "warn", "--throttling", "off" })
            info.ArgumentList.Add(arg);
        foreach (var arg in args) info.ArgumentList.Add(arg);
        _process = new Process { StartInfo = info };
        // Both pipes are drained into the log: a pipe nobody reads would block the server.
        _process.OutputDataReceived += (_, e) => Append(e.Data);
        _process.ErrorDataReceived += (_, e) => Append(e.Data);
    }

    public static Task<MalachiteServer> StartAsync(params string[] args) => StartOnAsync(0, args);

    public static async Task<MalachiteServer> StartOnAsync(int port, params string[] args)
    {
        var server = new MalachiteServer(port, args);
        await server.WaitUntilListeningAsync();
        return server;
    }

    public static string BinaryPath()
    {
        string? configured = Environment.GetEnvironmentVariable("MALACHITE_BIN");
        string root = RepoRoot();
        string path = Path.GetFullPath(Path.Combine(root, configured ?? "build/Release/server/malachite"));
        if (!File.Exists(path))
            throw new FileNotFoundException($"server binary not found: {path} (set MALACHITE_BIN)");
        return path;
    }

    // The repository root: the nearest ancestor of the test assembly holding scripts/test.
    public static string RepoRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "scripts", "test"))) return dir.FullName;
        }
        throw new DirectoryNotFoundException("repository root (with scripts/test) not found above " +
                                             AppContext.BaseDirectory);
    }

    private void Append(string? line)
    {
        if (line == null) return;
        lock (_log) _log.AppendLine(line);
    }

    private async Task WaitUntilListeningAsync()
    {
        _process.Start();
        _process.StandardInput.Close();
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        var deadline = DateTime.UtcNow + StartTimeout;
        while (DateTime.UtcNow < deadline)
        {
            var match = ListeningLine().Match(Log);
            if (match.Success)
            {
                Port = int.Parse(match.Groups[2].Value);
                return;
            }
            if (_process.HasExited) break;
            await Task.Delay(25);
        }
        string log = Log;
        Kill();
        Cleanup();
        throw new InvalidOperationException(
            $"malachite did not report its port (exited: {_process.HasExited}); log:\n{log}");
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int kill(int pid, int signal);

    private const int SigTerm = 15;

    // SIGTERM and wait (SIGKILL after 10 s). Throws if the server had exited abnormally.
    public void Stop()
    {
        if (_stopped) return;
        _stopped = true;
        bool wasRunning = !_process.HasExited;
        if (wasRunning)
        {
            kill(_process.Id, SigTerm);
            if (!_process.WaitForExit(TimeSpan.FromSeconds(10))) Kill();
        }
        _process.WaitForExit();
        int code = _process.ExitCode;
        string log = Log;
        Cleanup();
        // 143 = 128 + SIGTERM: a server that died of the signal rather than shutting down cleanly.
        if (!wasRunning || (code != 0 && code != 143))
            throw new InvalidOperationException($"malachite exited with {code}; log:\n{log}");
    }

    private void Kill()
    {
        try
        {
            if (!_process.HasExited) _process.Kill();
            _process.WaitForExit();
        }
        catch (InvalidOperationException)
        {
            // Never started or already reaped.
        }
    }

    private void Cleanup()
    {
        try
        {
            Directory.Delete(_dataDir, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    // For a test that failed before Stop: never leave a server behind.
    public void Dispose()
    {
        if (_stopped) return;
        _stopped = true;
        Kill();
        Cleanup();
        _process.Dispose();
    }
}
