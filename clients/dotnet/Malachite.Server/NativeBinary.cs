// Finds the malachite binary to run: MalachiteOptions.BinaryPath, MALACHITE_BINARY, or the native
// asset this package ships for the running platform. NuGet and MSBuild do not keep the executable
// bit of a package's files, so it is set here when missing.
using System.Reflection;
using System.Runtime.InteropServices;

namespace Malachite;

internal static class NativeBinary
{
    internal const string EnvironmentVariable = "MALACHITE_BINARY";
    private const string FileName = "malachite";

    private static readonly string HowToGet =
        $"set MalachiteOptions.BinaryPath or {EnvironmentVariable} to a Malachite binary (the release " +
        "bundle's bin/malachite, malachite-<version>-linux-<x86_64|aarch64>.tar.gz, or the malachite " +
        "Docker image through Malachite.Testcontainers)";

    /// <summary>The platform as NuGet names it: linux-x64, linux-arm64, linux-musl-x64, osx-arm64, ...</summary>
    internal static string Rid()
    {
        string arch = RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant();
        if (OperatingSystem.IsWindows()) return "win-" + arch;
        if (OperatingSystem.IsMacOS()) return "osx-" + arch;
        if (OperatingSystem.IsLinux())
        {
            return RuntimeInformation.RuntimeIdentifier.Contains("musl", StringComparison.Ordinal) ||
                   GlibcVersion() == null ? "linux-musl-" + arch : "linux-" + arch;
        }
        return RuntimeInformation.RuntimeIdentifier;
    }

    /// <summary>The binary to run, executable. Throws <see cref="MalachiteException"/> naming the
    /// platform and how to get a binary when there is none.</summary>
    internal static string Resolve(string? configured)
    {
        if (!string.IsNullOrEmpty(configured)) return Checked(configured, "MalachiteOptions.BinaryPath");
        string? fromEnvironment = Environment.GetEnvironmentVariable(EnvironmentVariable);
        if (!string.IsNullOrEmpty(fromEnvironment)) return Checked(fromEnvironment, EnvironmentVariable);

        string rid = Rid();
        if (rid is not ("linux-x64" or "linux-arm64"))
        {
            throw new MalachiteException(
                $"Malachite.Server ships a binary for linux-x64 and linux-arm64 (glibc), not for this " +
                $"platform ({rid}, {RuntimeInformation.OSDescription}): {HowToGet}");
        }
        var looked = new List<string>();
        foreach (string dir in Candidates(rid))
        {
            string path = Path.Combine(dir, FileName);
            looked.Add(path);
            if (File.Exists(path))
            {
                CheckGlibc(rid);
                return MakeExecutable(path);
            }
        }
        throw new MalachiteException(
            $"Malachite.Server: no malachite binary for {rid} (looked for {string.Join(", ", looked)}); " +
            $"the package has runtimes/{rid}/native/malachite when it was packed with that platform's " +
            $"bundle: {HowToGet}");
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

    private static string Checked(string path, string source)
    {
        string full = Path.GetFullPath(path);
        if (Directory.Exists(full))
            throw new MalachiteException($"{source} names a directory, not the malachite binary: {full}");
        if (!File.Exists(full))
            throw new MalachiteException($"{source} names {full}, which does not exist: {HowToGet}");
        return MakeExecutable(full);
    }

    private static string MakeExecutable(string path)
    {
        if (OperatingSystem.IsWindows()) return path;
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

    // Azure: nothing; glibc: the bundle's libraries need the glibc that scripts/package measured
    // (stamped into this assembly at pack time). An older glibc would fail in the dynamic loader
    // with a line about GLIBC_2.xx; this says it in the launcher's words instead.
    private static void CheckGlibc(string rid)
    {
        string? floor = typeof(NativeBinary).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .FirstOrDefault(a => a.Key == "Malachite.GlibcFloor")?.Value;
        string? have = GlibcVersion();
        if (floor == null || have == null) return;
        if (Version.TryParse(floor, out var need) && Version.TryParse(have, out var got) && got < need)
        {
            throw new MalachiteException(
                $"Malachite.Server's {rid} binary needs glibc {floor} or newer and this system has glibc " +
                $"{have}: use the malachite Docker image (Malachite.Testcontainers) or {HowToGet}");
        }
    }

    [DllImport("libc", EntryPoint = "gnu_get_libc_version")]
    private static extern IntPtr GnuGetLibcVersion();

    /// <summary>glibc's version ("2.36"), or null where the C library is not glibc.</summary>
    internal static string? GlibcVersion()
    {
        if (!OperatingSystem.IsLinux()) return null;
        try
        {
            return Marshal.PtrToStringAnsi(GnuGetLibcVersion());
        }
        catch (Exception e) when (e is EntryPointNotFoundException or DllNotFoundException)
        {
            return null;
        }
    }
}
