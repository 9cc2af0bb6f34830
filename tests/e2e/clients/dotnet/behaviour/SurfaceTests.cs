// Malachite.Server's surface: what StartAsync gives, accounts, reset, stop.
using Azure;
using Azure.Data.Tables;
using Malachite;
using Xunit;

public sealed class SurfaceTests
{
    [Fact]
    public async Task StartsOnAFreePortWithTheDevelopmentAccount()
    {
        await using var server = await MalachiteServer.StartAsync();
        Assert.InRange(server.Port, 1, 65535);
        Assert.Equal("127.0.0.1", server.Host);
        Assert.Equal("devstoreaccount1", server.Account);
        Assert.Equal(MalachiteServer.DevelopmentKey, server.Key);
        Assert.Equal($"http://127.0.0.1:{server.Port}/devstoreaccount1", server.TableUrl);
        Assert.Equal(new Uri(server.TableUrl), server.TableUri);
        Assert.Equal($"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={server.Key};" +
                     $"TableEndpoint={server.TableUrl};", server.ConnectionString);
        // The package's own binary (no MALACHITE_BINARY in this run), in memory, with the lifeline.
        string command = Support.CommandLine(server.ProcessId);
        Assert.StartsWith(Support.PackagedBinary(), command);
        Assert.Contains("--in-memory", command);
        Assert.Contains("--exit-with-stdin", command);

        var table = new TableClient(server.ConnectionString, "orders");
        await table.CreateAsync();
        await table.AddEntityAsync(new TableEntity("p", "1") { ["Amount"] = 3 });
        Assert.Equal(3, (await table.GetEntityAsync<TableEntity>("p", "1")).Value.GetInt32("Amount"));
        var shared = new TableClient(server.TableUri, "orders", new TableSharedKeyCredential(server.Account, server.Key));
        Assert.Single(shared.Query<TableEntity>().ToList());
    }

    [Fact]
    public async Task ThePackagesBinaryIsStaticSoAnyLibcWillDo()
    {
        // runtimes/linux-<arch>/native/malachite, the one binary for glibc and musl: the running
        // server maps its own file and no shared library (no loader, nothing of the C library).
        await using var server = await MalachiteServer.StartAsync();
        var mapped = File.ReadAllLines($"/proc/{server.ProcessId}/maps")
            .Select(line => line.Split(' ', 6, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            .Where(fields => fields.Length == 6 && fields[5].StartsWith('/'))
            .Select(fields => fields[5]).ToHashSet();
        Assert.Contains(Support.PackagedBinary(), mapped);
        Assert.DoesNotContain(mapped, file => Path.GetFileName(file).EndsWith(".so", StringComparison.Ordinal) ||
                                              Path.GetFileName(file).Contains(".so.", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AccountsAreIsolatedAndRefusedInTheServicesWords()
    {
        await using var server = await MalachiteServer.StartAsync();
        await using var first = await server.CreateAccountAsync();
        await using var second = await server.CreateAccountAsync();
        Assert.NotEqual(first.Name, second.Name);
        Assert.Equal($"http://127.0.0.1:{server.Port}/{first.Name}", first.TableUrl);
        Assert.Contains($"AccountName={first.Name};AccountKey={first.Key};", first.ConnectionString);

        await new TableClient(first.ConnectionString, "orders").CreateAsync();
        await new TableClient(first.ConnectionString, "orders").AddEntityAsync(new TableEntity("p", "1"));
        await new TableClient(second.ConnectionString, "orders").CreateAsync();  // no conflict
        Assert.Empty(new TableClient(second.ConnectionString, "orders").Query<TableEntity>().ToList());
        Assert.Empty(new TableServiceClient(server.ConnectionString).Query().ToList());

        string name = "named" + Guid.NewGuid().ToString("N")[..8];
        string key = Convert.ToBase64String(Guid.NewGuid().ToByteArray());
        await using var named = await server.CreateAccountAsync(name, key);
        Assert.Equal((name, key), (named.Name, named.Key));
        var signed = new TableServiceClient(named.TableUri, new TableSharedKeyCredential(name, key));
        await signed.CreateTableAsync("signed");

        var taken = await Assert.ThrowsAsync<MalachiteException>(() => server.CreateAccountAsync(name));
        Assert.Equal((409, "StorageAccountAlreadyTaken"), (taken.Status, taken.ErrorCode));
        Assert.Contains("StorageAccountAlreadyTaken", taken.Message);
        var invalid = await Assert.ThrowsAsync<MalachiteException>(() => server.CreateAccountAsync("No_Such"));
        Assert.Equal((400, "AccountNameInvalid"), (invalid.Status, invalid.ErrorCode));
        var badKey = await Assert.ThrowsAsync<MalachiteException>(() => server.CreateAccountAsync(key: "not base64!"));
        Assert.Equal((400, "InvalidInput"), (badKey.Status, badKey.ErrorCode));
        var configured = await Assert.ThrowsAsync<MalachiteException>(() => server.DeleteAccountAsync("devstoreaccount1"));
        Assert.Equal((409, "OperationNotAllowed"), (configured.Status, configured.ErrorCode));

        await first.DeleteAsync();
        var unknown = await Assert.ThrowsAsync<MalachiteException>(() => server.DeleteAccountAsync(first.Name));
        Assert.Equal((404, "ResourceNotFound"), (unknown.Status, unknown.ErrorCode));
        await Assert.ThrowsAsync<RequestFailedException>(() =>
            new TableClient(first.ConnectionString, "orders").GetEntityAsync<TableEntity>("p", "1"));
        await first.DisposeAsync();  // deleted already: nothing to do
    }

    [Fact]
    public async Task ResetLoadsTheSeedAgain()
    {
        string seed = Support.TempDirectory("malachite-seed-");
        File.WriteAllText(Path.Combine(seed, "orders.jsonl"),
                          "{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"Amount\":1}\n{\"PartitionKey\":\"p\",\"RowKey\":\"2\",\"Amount\":2}\n");
        await using var server = await MalachiteServer.StartAsync(new MalachiteOptions { SeedDirectory = seed });
        var orders = new TableClient(server.ConnectionString, "orders");
        Assert.Equal(2, orders.Query<TableEntity>().Count());

        await orders.DeleteEntityAsync("p", "1");
        await using var account = await server.CreateAccountAsync();
        var mine = new TableClient(account.ConnectionString, "mine");
        await mine.CreateAsync();
        await server.ResetAsync(account.Name);  // that account only
        Assert.Single(orders.Query<TableEntity>());
        Assert.Empty(new TableServiceClient(account.ConnectionString).Query().ToList());

        await server.ResetAsync();
        Assert.Equal(2, orders.Query<TableEntity>().Count());
        await server.ResetAsync(seed: false);
        Assert.Empty(new TableServiceClient(server.ConnectionString).Query().ToList());
        Directory.Delete(seed, true);
    }

    [Fact]
    public async Task StopEndsTheServerAndIsIdempotent()
    {
        var server = await MalachiteServer.StartAsync();
        var account = await server.CreateAccountAsync();
        int port = server.Port, pid = server.ProcessId;
        Assert.True(Support.Accepts(port));
        Assert.Null(server.ExitCode);

        var clock = System.Diagnostics.Stopwatch.StartNew();
        await server.StopAsync();
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(2), $"stop took {clock.Elapsed}: stdin's end should stop it at once");
        Assert.True(server.IsStopped);
        Assert.True(server.HasExited);
        Assert.True(Support.ProcessGone(pid));
        Assert.False(Support.Accepts(port));
        Assert.True(server.ExitCode == 0, $"a graceful stop exited with {server.ExitCode}");
        await server.StopAsync();
        await server.DisposeAsync();
        await account.DisposeAsync();  // the server is gone, so is the account: no error
        await Assert.ThrowsAsync<ObjectDisposedException>(() => server.CreateAccountAsync());
        await Assert.ThrowsAsync<ObjectDisposedException>(() => server.ResetAsync());
    }

    [Fact]
    public async Task AServerThatDiedSaysSo()
    {
        await using var server = await MalachiteServer.StartAsync();
        System.Diagnostics.Process.GetProcessById(server.ProcessId).Kill();  // SIGKILL, as a crash would
        for (int i = 0; i < 200 && !server.HasExited; i++) await Task.Delay(10);
        var e = await Assert.ThrowsAsync<MalachiteException>(() => server.CreateAccountAsync());
        Assert.Contains($"(pid {server.ProcessId}) exited with status 137", e.Message);
        Assert.Equal(137, e.ExitCode);
        Assert.Equal(137, server.ExitCode);
        await server.StopAsync();
        Assert.Equal(137, server.ExitCode);  // still the crash's status once stopped
    }

    [Fact]
    public async Task DataDirectoryKeepsTheDataAndATemporaryOneIsRemoved()
    {
        string data = Path.Combine(Support.TempDirectory("malachite-data-"), "store");
        await using (var server = await MalachiteServer.StartAsync(new MalachiteOptions { DataDirectory = data, Port = 0 }))
        {
            await new TableClient(server.ConnectionString, "kept").CreateAsync();
            Assert.Contains($"--data-dir {data}", Support.CommandLine(server.ProcessId));
        }
        await using (var server = await MalachiteServer.StartAsync(new MalachiteOptions { DataDirectory = data }))
        {
            Assert.Equal(["kept"], new TableServiceClient(server.ConnectionString).Query().Select(t => t.Name));
        }
        Directory.Delete(Path.GetDirectoryName(data)!, true);

        string temporary;
        await using (var server = await MalachiteServer.StartAsync(new MalachiteOptions { InMemory = false }))
        {
            var args = Support.CommandLine(server.ProcessId).Split(' ');
            temporary = args[Array.IndexOf(args, "--data-dir") + 1];
            Assert.True(Directory.Exists(temporary));
        }
        Assert.False(Directory.Exists(temporary), $"{temporary} is still there");
    }

    [Fact]
    public async Task GivenPortAndExtraArguments()
    {
        int port;
        await using (var probe = await MalachiteServer.StartAsync()) port = probe.Port;
        await using var server = await MalachiteServer.StartAsync(new MalachiteOptions
        {
            Port = port,
            ExtraArguments = { "--throttling", "off" },
        });
        Assert.Equal(port, server.Port);
        Assert.EndsWith("--throttling off", Support.CommandLine(server.ProcessId).TrimEnd());
    }
}
