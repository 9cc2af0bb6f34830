// Malachite.Server on Windows x64, as a user's test project gets it from the feed: the binary is
// the package's runtimes/win-x64/native/malachite.exe; StopAsync ends the server through its closed
// standard input (Windows has no SIGTERM) with exit code 0, well before the kill 5 s later; and the
// server stops when the process that started it is killed (TerminateProcess). The release
// workflow's windows job runs these; on Linux the same package is tested by ../behaviour.
using System.Diagnostics;
using System.Text.RegularExpressions;
using Azure.Data.Tables;
using Malachite;
using Xunit;

[assembly: System.Runtime.Versioning.SupportedOSPlatform("windows")]

public sealed class WindowsTests
{
    private static bool Gone(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return process.HasExited;
        }
        catch (ArgumentException)
        {
            return true;
        }
    }

    [Fact]
    public void TheBinaryIsThePackagesWinX64MalachiteExe()
    {
        Assert.Equal(Path.Combine(AppContext.BaseDirectory, "runtimes", "win-x64", "native", "malachite.exe"),
                     MalachiteServer.ResolveBinary());
    }

    [Fact]
    public async Task ItServesAndStopAsyncEndsItThroughItsClosedStandardInputWithExitCode0()
    {
        string data = Directory.CreateTempSubdirectory("malachite-windows-").FullName;
        var server = await MalachiteServer.StartAsync(new MalachiteOptions { DataDirectory = data });
        var clock = new Stopwatch();
        try
        {
            var orders = new TableClient(server.ConnectionString, "orders");
            await orders.CreateAsync();
            await orders.AddEntityAsync(new TableEntity("customer1", "order1") { ["Amount"] = 12.5 });
            Assert.Equal(12.5, (await orders.GetEntityAsync<TableEntity>("customer1", "order1")).Value.GetDouble("Amount"));
        }
        finally
        {
            clock.Start();
            await server.StopAsync();
        }
        Assert.Equal(0, server.ExitCode);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(4), $"StopAsync took {clock.Elapsed}: it was killed, not stopped");
        Assert.True(File.Exists(Path.Combine(data, "data.mdb")), $"no data.mdb in {data} after the stop");
        Directory.Delete(data, recursive: true);
    }

    [Fact]
    public async Task TheServerStopsWhenItsLauncherIsKilled()
    {
        string? program = Environment.GetEnvironmentVariable("MALACHITE_CONSOLE");
        Assert.False(string.IsNullOrEmpty(program), "MALACHITE_CONSOLE (the console program's dll) is not set");
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add(program!);
        info.ArgumentList.Add("serve");
        using var runner = Process.Start(info)!;
        var line = await runner.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(60));
        var match = Regex.Match(line ?? "", @"^runner (\d+) server (\d+) port (\d+)$");
        Assert.True(match.Success, $"the runner printed '{line}'");
        int server = int.Parse(match.Groups[2].Value);
        Assert.False(Gone(server));

        runner.Kill();  // TerminateProcess: no handler runs, no Dispose
        await runner.WaitForExitAsync();
        var clock = Stopwatch.StartNew();
        while (!Gone(server) && clock.Elapsed < TimeSpan.FromSeconds(2)) await Task.Delay(10);
        Assert.True(Gone(server), $"server pid {server} still runs 2 s after its launcher was killed");
    }
}
