using System.Net.Sockets;
using Xunit;

// These tests run where the package has a binary: Linux.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]

// Tests that change process-wide state (environment variables, the package's binary in the output
// directory) run alone, after the others.
[CollectionDefinition("process-wide", DisableParallelization = true)]
public sealed class ProcessWideCollection;

internal static class Support
{
    internal static string TempDirectory(string prefix) => Directory.CreateTempSubdirectory(prefix).FullName;

    internal static bool Accepts(int port)
    {
        try
        {
            using var client = new TcpClient();
            client.Connect("127.0.0.1", port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    // Gone, or a zombie waiting for a parent that is not ours to reap it.
    internal static bool ProcessGone(int pid)
    {
        string stat = $"/proc/{pid}/stat";
        try
        {
            string text = File.ReadAllText(stat);
            return text[(text.LastIndexOf(')') + 2)..].StartsWith('Z');
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return true;
        }
    }

    internal static string CommandLine(int pid) =>
        File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ');

    // The binary this package put in the output directory (a build without a RuntimeIdentifier).
    internal static string PackagedBinary() =>
        Path.Combine(AppContext.BaseDirectory, "runtimes",
                     System.Runtime.InteropServices.RuntimeInformation.OSArchitecture ==
                     System.Runtime.InteropServices.Architecture.Arm64 ? "linux-arm64" : "linux-x64",
                     "native", "malachite");

    internal static string Script(string body)
    {
        string path = Path.Combine(TempDirectory("malachite-script-"), "fake-malachite");
        File.WriteAllText(path, "#!/bin/sh\n" + body + "\n");
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        return path;
    }
}
