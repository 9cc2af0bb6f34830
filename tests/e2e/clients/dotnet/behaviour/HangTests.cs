// Run only by test_nuget_tests.py (dotnet test --filter Category=Hang): holds a server
// until the test SIGKILLs the test run's processes, then the test sees the server gone.
using Malachite;
using Xunit;

public sealed class HangTests
{
    [Fact]
    [Trait("Category", "Hang")]
    public async Task HoldsAServerUntilTheRunnerIsKilled()
    {
        string pidFile = Environment.GetEnvironmentVariable("MALACHITE_HANG_PIDFILE") ??
                         throw new InvalidOperationException("MALACHITE_HANG_PIDFILE is not set");
        await using var server = await MalachiteServer.StartAsync();
        File.WriteAllText(pidFile + ".tmp", $"{Environment.ProcessId} {server.ProcessId}\n");
        File.Move(pidFile + ".tmp", pidFile);
        await Task.Delay(TimeSpan.FromMinutes(2));
    }
}
