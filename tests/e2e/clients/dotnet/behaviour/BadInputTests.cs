// Bad input: one clear error naming the platform or the server's own message, never a hang.
using System.Diagnostics;
using Malachite;
using Xunit;

public sealed class BadInputTests
{
    private static async Task<MalachiteException> StartFails(MalachiteOptions options, TimeSpan within)
    {
        var clock = Stopwatch.StartNew();
        var e = await Assert.ThrowsAsync<MalachiteException>(() => MalachiteServer.StartAsync(options));
        Assert.True(clock.Elapsed < within, $"it took {clock.Elapsed} to fail: {e.Message}");
        return e;
    }

    [Fact]
    public async Task MissingBinaryNamesItAndHowToGetOne()
    {
        var e = await StartFails(new MalachiteOptions { BinaryPath = "/no/such/malachite" }, TimeSpan.FromSeconds(1));
        Assert.Contains("MalachiteOptions.BinaryPath names /no/such/malachite, which does not exist", e.Message);
        Assert.Contains("MALACHITE_BINARY", e.Message);

        var directory = await StartFails(new MalachiteOptions { BinaryPath = "/tmp" }, TimeSpan.FromSeconds(1));
        Assert.Contains("names a directory", directory.Message);
    }

    [Fact]
    public async Task PortInUseIsTheServersMessage()
    {
        await using var first = await MalachiteServer.StartAsync();
        var e = await StartFails(new MalachiteOptions { Port = first.Port }, TimeSpan.FromSeconds(5));
        Assert.StartsWith("malachite: ", e.Message);
        Assert.Contains(first.Port.ToString(), e.Message);
        Assert.Equal(1, e.ExitCode);
        Assert.NotEmpty(e.Output);
    }

    [Fact]
    public async Task UnusableDataDirectoryIsTheServersMessage()
    {
        // A path under a regular file: unusable even for root, who may write anywhere else.
        string file = Path.GetTempFileName();
        var e = await StartFails(new MalachiteOptions { DataDirectory = Path.Combine(file, "data") }, TimeSpan.FromSeconds(5));
        Assert.StartsWith("malachite: data directory", e.Message);
        Assert.Contains(file, e.Message);
        Assert.Equal(1, e.ExitCode);
        File.Delete(file);
    }

    [Fact]
    public async Task BadSeedFileIsTheServersMessage()
    {
        string seed = Support.TempDirectory("malachite-badseed-");
        File.WriteAllText(Path.Combine(seed, "orders.jsonl"),
                          "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}\n{\"PartitionKey\":\"p\",\"RowKey\":\n");
        var e = await StartFails(new MalachiteOptions { SeedDirectory = seed }, TimeSpan.FromSeconds(5));
        Assert.Contains("orders.jsonl:2", e.Message);
        Assert.NotNull(e.ExitCode);
        Directory.Delete(seed, true);
    }

    [Fact]
    public async Task BadFlagIsTheServersMessage()
    {
        var e = await StartFails(new MalachiteOptions { ExtraArguments = { "--colour", "green" } }, TimeSpan.FromSeconds(5));
        Assert.StartsWith("malachite: ", e.Message);
        Assert.Contains("colour", e.Message);
        Assert.Equal(2, e.ExitCode);
    }

    [Fact]
    public async Task ABinaryThatNeverListensTimesOut()
    {
        string script = Support.Script("echo 'starting, honestly'; exec sleep 60");
        var e = await StartFails(new MalachiteOptions { BinaryPath = script, StartTimeout = TimeSpan.FromMilliseconds(500) },
                                 TimeSpan.FromSeconds(5));
        Assert.Contains("did not report that it listens within 0.5 s", e.Message);
        Assert.Contains("starting, honestly", e.Output);
    }

    [Fact]
    public async Task ABinaryThatExitsSaysWhatItPrinted()
    {
        string script = Support.Script("echo 'something is wrong' >&2; exit 3");
        var e = await StartFails(new MalachiteOptions { BinaryPath = script }, TimeSpan.FromSeconds(5));
        Assert.StartsWith("something is wrong (malachite exited with status 3 while starting)", e.Message);
        Assert.Equal(3, e.ExitCode);
    }

    [Fact]
    public async Task CancellingTheStartKillsTheServer()
    {
        string script = Support.Script("echo $$ > \"$(dirname \"$0\")/pid\"; exec sleep 60");
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(1));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            MalachiteServer.StartAsync(new MalachiteOptions { BinaryPath = script }, cancel.Token));
        int pid = int.Parse(File.ReadAllText(Path.Combine(Path.GetDirectoryName(script)!, "pid")).Trim());
        Assert.True(Support.ProcessGone(pid), $"pid {pid} still runs after the start was cancelled");
    }

    [Fact]
    public async Task OptionsAreChecked()
    {
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => MalachiteServer.StartAsync(new MalachiteOptions { Port = 70000 }));
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() =>
            MalachiteServer.StartAsync(new MalachiteOptions { StartTimeout = TimeSpan.Zero }));
    }
}

[Collection("process-wide")]
public sealed class ProcessWideTests
{
    [Fact]
    public async Task MalachiteBinaryIsUsedAndCheckedToo()
    {
        Environment.SetEnvironmentVariable("MALACHITE_BINARY", "/no/such/binary");
        try
        {
            var e = await Assert.ThrowsAsync<MalachiteException>(() => MalachiteServer.StartAsync());
            Assert.Contains("MALACHITE_BINARY names /no/such/binary, which does not exist", e.Message);

            Environment.SetEnvironmentVariable("MALACHITE_BINARY", Support.PackagedBinary());
            await using var server = await MalachiteServer.StartAsync();
            Assert.StartsWith(Support.PackagedBinary(), Support.CommandLine(server.ProcessId));
        }
        finally
        {
            Environment.SetEnvironmentVariable("MALACHITE_BINARY", null);
        }
    }

    [Fact]
    public async Task NoBinaryForThePlatformNamesItAndHowToGetOne()
    {
        string binary = Support.PackagedBinary();
        File.Move(binary, binary + ".away");
        try
        {
            var e = await Assert.ThrowsAsync<MalachiteException>(() => MalachiteServer.StartAsync());
            string rid = Path.GetFileName(Path.GetDirectoryName(Path.GetDirectoryName(binary)))!;
            Assert.Contains($"no malachite binary for {rid}", e.Message);
            Assert.Contains("MALACHITE_BINARY", e.Message);
            Assert.Contains("bin/malachite", e.Message);
            Assert.DoesNotContain('\n', e.Message);
        }
        finally
        {
            File.Move(binary + ".away", binary);
        }
    }

    [Fact]
    public async Task AnExecutableBitLostOnTheWayIsPutBack()
    {
        // NuGet does not keep file modes: the package's binary may arrive without its x bit.
        string binary = Support.PackagedBinary();
        File.SetUnixFileMode(binary, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead |
                                     UnixFileMode.OtherRead);
        await using var server = await MalachiteServer.StartAsync();
        Assert.True((File.GetUnixFileMode(binary) & UnixFileMode.UserExecute) != 0);
    }
}
