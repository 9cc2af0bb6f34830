// The server never outlives the test process: the console program (MALACHITE_CONSOLE) starts one
// and is killed with SIGKILL; the server's standard input ends with it and it stops.
using System.Diagnostics;
using System.Text.RegularExpressions;
using Xunit;

public sealed class LifelineTests
{
    [Fact]
    public async Task TheServerStopsWhenItsLauncherIsKilled()
    {
        string? program = Environment.GetEnvironmentVariable("MALACHITE_CONSOLE");
        Assert.False(string.IsNullOrEmpty(program), "MALACHITE_CONSOLE (the console program's dll) is not set: tests/e2e/clients/dotnet/test_nuget_tests.py sets it");
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add(program!);
        info.ArgumentList.Add("serve");
        using var runner = Process.Start(info)!;
        var stderr = runner.StandardError.ReadToEndAsync();
        var line = await runner.StandardOutput.ReadLineAsync().WaitAsync(TimeSpan.FromSeconds(30));
        var match = Regex.Match(line ?? "", @"^runner (\d+) server (\d+) port (\d+)$");
        Assert.True(match.Success, $"the runner printed '{line}'; stderr: {(runner.HasExited ? await stderr : "")}");
        int server = int.Parse(match.Groups[2].Value), port = int.Parse(match.Groups[3].Value);
        Assert.True(Support.Accepts(port));

        runner.Kill();  // SIGKILL: no handler runs, no Dispose
        await runner.WaitForExitAsync();
        var clock = Stopwatch.StartNew();
        while (!Support.ProcessGone(server) && clock.Elapsed < TimeSpan.FromSeconds(2)) await Task.Delay(10);
        Assert.True(Support.ProcessGone(server), $"server pid {server} still runs 2 s after its launcher was SIGKILLed");
        Assert.False(Support.Accepts(port));
    }
}
