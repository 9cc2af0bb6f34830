namespace Malachite;

/// <summary>How <see cref="MalachiteServer.StartAsync"/> starts the server. Every property has a
/// default suited to tests: a free port, data in memory, the binary from this package.</summary>
public sealed class MalachiteOptions
{
    /// <summary>The TCP port on 127.0.0.1; 0 (the default) picks a free one
    /// (<see cref="MalachiteServer.Port"/> says which).</summary>
    public int Port { get; set; }

    /// <summary>Keep the data in memory (the default): nothing is written to disk and nothing is
    /// left behind, even after the process is killed. Ignored when <see cref="DataDirectory"/> is
    /// set; when false and no directory is given, a temporary directory is used and deleted by
    /// <see cref="MalachiteServer.StopAsync"/>.</summary>
    public bool InMemory { get; set; } = true;

    /// <summary>Where the server keeps its data (created if missing, kept after the server
    /// stops), or null.</summary>
    public string? DataDirectory { get; set; }

    /// <summary>Fixtures: a directory of <c>&lt;table&gt;.jsonl</c> / <c>&lt;table&gt;.csv</c>
    /// files loaded into <c>devstoreaccount1</c> (and <c>&lt;dir&gt;/&lt;account&gt;/</c> into that
    /// account) at start and by <see cref="MalachiteServer.ResetAsync"/>; the layout
    /// <c>malachite export --output DIR</c> writes. A bad line stops the start with the server's
    /// message naming the file and line.</summary>
    public string? SeedDirectory { get; set; }

    /// <summary>More command-line flags for the server (see <c>malachite --help</c>), appended
    /// after the ones these options make, e.g. <c>"--throttling", "off"</c>.</summary>
    public IList<string> ExtraArguments { get; set; } = new List<string>();

    /// <summary>The server binary to run. Null (the default): the <c>MALACHITE_BINARY</c>
    /// environment variable, else the binary this package ships for the running platform
    /// (<c>runtimes/&lt;rid&gt;/native/malachite</c> in the output directory,
    /// <c>runtimes/win-x64/native/malachite.exe</c> on Windows; see
    /// <see cref="MalachiteServer.ResolveBinary"/>).</summary>
    public string? BinaryPath { get; set; }

    /// <summary>How long to wait for the server to report that it listens (default 10 s); then
    /// it is killed and the start fails with its last lines of output.</summary>
    public TimeSpan StartTimeout { get; set; } = TimeSpan.FromSeconds(10);
}
