// Finds the malachite binary to run: MalachiteOptions.BinaryPath, MALACHITE_BINARY, or the native
// asset this package ships for the platform (the running one unless another is named). NuGet and
// MSBuild do not keep the executable bit of a package's files, so it is set here when missing.
using System.Runtime.InteropServices;

namespace Malachite;

internal static class NativeBinary
{
    internal const string EnvironmentVariable = "MALACHITE_BINARY";

    private static readonly string HowToGet =
        $"set MalachiteOptions.BinaryPath or {EnvironmentVariable} to a Malachite binary (the release " +
        "bundle's bin/malachite, malachite-<version>-linux-<x86_64|aarch64>.tar.gz, or malachite.exe of " +
        "malachite-<version>-windows-x86_64.zip), or use the malachite Docker image through " +
        "Malachite.Testcontainers";

    /// <summary>The RID whose runtimes/&lt;rid&gt;/native/ folder of this package holds the binary for
    /// a platform: linux-x64 or linux-arm64, whatever the C library, or win-x64; null where the
    /// package has none (macOS, another architecture).</summary>
    /// <remarks>The Linux binary is one static executable that needs nothing of the C library, so
    /// the linux-x64 folder serves musl (Alpine, RuntimeInformation.RuntimeIdentifier
    /// linux-musl-x64) too: a build for linux-musl-x64 gets it through NuGet's RID graph, and a build
    /// without a RuntimeIdentifier finds it here by the architecture alone.</remarks>
    internal static string? Rid(OSPlatform os, Architecture architecture)
    {
        if (os == OSPlatform.Linux)
        {
            return architecture switch
            {
                Architecture.X64 => "linux-x64",
                Architecture.Arm64 => "linux-arm64",
                _ => null,
            };
        }
        return os == OSPlatform.Windows && architecture == Architecture.X64 ? "win-x64" : null;
    }

    /// <summary>The binary's file name on a platform: malachite.exe on Windows, else malachite.</summary>
    internal static string FileName(OSPlatform os) => os == OSPlatform.Windows ? "malachite.exe" : "malachite";

    /// <summary>The running platform's system, as this package names them.</summary>
    internal static OSPlatform RunningSystem() =>
        OperatingSystem.IsWindows() ? OSPlatform.Windows
        : OperatingSystem.IsLinux() ? OSPlatform.Linux
        : OperatingSystem.IsMacOS() ? OSPlatform.OSX
        : OperatingSystem.IsFreeBSD() ? OSPlatform.FreeBSD
        : OSPlatform.Create("OTHER");

    /// <summary>The binary to run on <paramref name="os"/> and <paramref name="architecture"/>
    /// (default: this machine's), executable when it is for this machine. Throws
    /// <see cref="MalachiteException"/> with a one-line message naming the platform and how to get
    /// a binary when there is none.</summary>
    internal static string Resolve(string? configured, OSPlatform? os = null, Architecture? architecture = null)
    {
        bool given = os != null || architecture != null;
        OSPlatform system = os ?? RunningSystem();
        Architecture machine = architecture ?? RuntimeInformation.OSArchitecture;
        if (!string.IsNullOrEmpty(configured)) return Checked(configured, "MalachiteOptions.BinaryPath", system);
        string? fromEnvironment = Environment.GetEnvironmentVariable(EnvironmentVariable);
        if (!string.IsNullOrEmpty(fromEnvironment)) return Checked(fromEnvironment, EnvironmentVariable, system);

        string? rid = Rid(system, machine);
        if (rid == null)
        {
            string platform = given
                ? $"{system} {machine}"
                : $"{RuntimeInformation.RuntimeIdentifier}, {RuntimeInformation.OSDescription}";
            throw new MalachiteException(
                "Malachite.Server ships a binary for Linux on x64 and arm64 (any libc, glibc or musl) and " +
                $"for Windows on x64, not for this platform ({platform}): use the malachite Docker image " +
                $"through Malachite.Testcontainers, or set MalachiteOptions.BinaryPath or {EnvironmentVariable} " +
                "to a malachite binary that runs here");
        }
        string file = FileName(system);
        var looked = new List<string>();
        foreach (string dir in Candidates(rid))
        {
            string path = Path.Combine(dir, file);
            looked.Add(path);
            if (File.Exists(path)) return MakeExecutable(path, system);
        }
        throw new MalachiteException(
            $"Malachite.Server: no malachite binary for {rid} (looked for {string.Join(", ", looked)}); " +
            $"the package has runtimes/{rid}/native/{file} when it was packed with that " +
            $"platform's release archive: {HowToGet}");
    }

    // Where a build puts the package's native asset: runtimes/<rid>/native/ under the output
    // directory (a build without a RuntimeIdentifier), or the output directory itself (a build or
    // publish for one RID); the assembly's own directory too, for hosts that load it from elsewhere.
    private static IEnumerable<string> Candidates(string rid)
    {
        var roots = new List<string> { AppContext.BaseDirectory };
        string? assemblyDir = Path.GetDirectoryName(typeof(NativeBinary).Assembly.Location);
        if (!string.IsNullOrEmpty(assemblyDir)) roots.Add(assemblyDir);
        foreach (string root in roots.Distinct())
        {
            yield return Path.Combine(root, "runtimes", rid, "native");
            yield return root;
            // The package's own folder: lib/<tfm>/ beside runtimes/ (a host that loads the assembly
            // straight from the NuGet cache).
            yield return Path.GetFullPath(Path.Combine(root, "..", "..", "runtimes", rid, "native"));
        }
    }

    private static string Checked(string path, string source, OSPlatform system)
    {
        string full = Path.GetFullPath(path);
        if (Directory.Exists(full))
            throw new MalachiteException($"{source} names a directory, not the malachite binary: {full}");
        if (!File.Exists(full))
            throw new MalachiteException($"{source} names {full}, which does not exist: {HowToGet}");
        return MakeExecutable(full, system);
    }

    // Windows has no executable bit; a binary for another system than this one is not run here.
    private static string MakeExecutable(string path, OSPlatform system)
    {
        if (OperatingSystem.IsWindows() || system != RunningSystem()) return path;
        var mode = File.GetUnixFileMode(path);
        const UnixFileMode execute = UnixFileMode.UserExecute | UnixFileMode.GroupExecute |
                                     UnixFileMode.OtherExecute;
        if ((mode & UnixFileMode.UserExecute) != 0) return path;
        try
        {
            File.SetUnixFileMode(path, mode | execute);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            throw new MalachiteException(
                $"{path} is not executable and its mode cannot be changed ({e.Message}): chmod +x it", inner: e);
        }
        return path;
    }
}
