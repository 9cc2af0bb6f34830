// The membership protocol of Orleans' Azure Table clustering (its OrleansSiloInstances table),
// replayed with Azure.Data.Tables under forced contention. Orleans itself runs against Malachite in
// tests/frameworks/orleans (MembershipTests: silos join through the table with no lost version, and
// stopped or killed silos turn Dead), but a few silos joining rarely race on the version row, so
// these two cases stay: they make the races happen. One partition per cluster holds a version row
// and one row per silo; every membership change is a transaction that replaces the silo row and the
// version row, both under their ETags, while the silos' liveness heartbeats merge their own rows
// unconditionally. A server that checked ETags non-atomically would let two changes commit on the
// same version and the final version would fall short of the number of committed changes; one that
// applied part of a losing transaction would leave its silo row behind.
using Azure;
using Azure.Data.Tables;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public class MembershipProtocolTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private const string Cluster = "cluster-1";
    private const string VersionRow = "VersionRow";
    private const int Silos = 4;
    private const int ChangesPerSilo = 8;

    private static TableEntity SiloRow(int silo, string status) => new(Cluster, $"127.0.0.1-{11111 + silo}-{silo}")
    {
        ["DeploymentId"] = Cluster, ["Address"] = "127.0.0.1", ["Port"] = 11111 + silo, ["Generation"] = silo,
        ["SiloName"] = $"silo{silo}", ["Status"] = status, ["IAmAliveTime"] = DateTimeOffset.UtcNow,
    };

    // Runs `change` until it commits; a 412 (another silo won the version) means read and try again.
    private static async Task UntilCommittedAsync(Func<Task> change)
    {
        for (int attempt = 0; attempt < 500; attempt++)
        {
            try
            {
                await change();
                return;
            }
            catch (TableTransactionFailedException e) when (e.Status == 412)
            {
                Assert.Equal("UpdateConditionNotSatisfied", e.ErrorCode);
                Assert.NotNull(e.FailedTransactionActionIndex);
                await Task.Delay(Random.Shared.Next(1, 5));
            }
        }
        Assert.Fail("a membership change did not commit in 500 attempts");
    }

    private static async Task<TableEntity> ReadVersionAsync(TableClient table) =>
        (await table.GetEntityAsync<TableEntity>(Cluster, VersionRow)).Value;

    private static TableTransactionAction BumpVersion(TableEntity version) =>
        new(TableTransactionActionType.UpdateReplace,
            new TableEntity(Cluster, VersionRow) { ["MembershipVersion"] = version.GetInt32("MembershipVersion")!.Value + 1 },
            version.ETag);

    [Fact]
    public async Task ConcurrentMembershipChangesNeverLoseAVersion()
    {
        var table = await fixture.NewTableAsync("OrleansSiloInstances");
        await table.AddEntityAsync(new TableEntity(Cluster, VersionRow) { ["MembershipVersion"] = 0 });
        using var stop = new CancellationTokenSource();

        async Task Silo(int silo)
        {
            // Join: insert the silo row and bump the version in one transaction.
            await UntilCommittedAsync(async () =>
            {
                var version = await ReadVersionAsync(table);
                await table.SubmitTransactionAsync(
                    [new(TableTransactionActionType.Add, SiloRow(silo, "Joining")), BumpVersion(version)]);
            });
            for (int change = 0; change < ChangesPerSilo; change++)
            {
                string status = change == ChangesPerSilo - 1 ? "Active" : $"Step{change}";
                await UntilCommittedAsync(async () =>
                {
                    var version = await ReadVersionAsync(table);
                    var mine = (await table.GetEntityAsync<TableEntity>(Cluster, SiloRow(silo, "").RowKey)).Value;
                    await table.SubmitTransactionAsync(
                    [
                        new(TableTransactionActionType.UpdateReplace, SiloRow(silo, status), mine.ETag),
                        BumpVersion(version),
                    ]);
                });
            }
        }

        // Heartbeats: unconditional merges of IAmAliveTime, which change the silo rows' ETags under
        // the membership transactions (so some of those fail on the silo row, index 0).
        async Task Heartbeats()
        {
            while (!stop.IsCancellationRequested)
            {
                for (int silo = 0; silo < Silos; silo++)
                {
                    var alive = new TableEntity(Cluster, SiloRow(silo, "").RowKey) { ["IAmAliveTime"] = DateTimeOffset.UtcNow };
                    try
                    {
                        await table.UpdateEntityAsync(alive, ETag.All, TableUpdateMode.Merge);
                    }
                    catch (RequestFailedException e) when (e.Status == 404)
                    {
                        // Not joined yet.
                    }
                }
                await Task.Delay(2);
            }
        }

        var heartbeats = Heartbeats();
        try
        {
            await Task.WhenAll(Enumerable.Range(0, Silos).Select(Silo));
        }
        finally
        {
            stop.Cancel();
            await heartbeats;
        }

        var rows = await table.QueryAsync<TableEntity>(e => e.PartitionKey == Cluster).ToListAsync();
        var version = rows.Single(r => r.RowKey == VersionRow);
        Assert.Equal(Silos * (1 + ChangesPerSilo), version.GetInt32("MembershipVersion"));
        var silos = rows.Where(r => r.RowKey != VersionRow).ToList();
        Assert.Equal(Silos, silos.Count);
        Assert.All(silos, s => Assert.Equal("Active", s.GetString("Status")));
    }

    [Fact]
    public async Task TwoChangesFromOneVersionCommitOnlyOnce()
    {
        var table = await fixture.NewTableAsync("OrleansSiloInstances");
        await table.AddEntityAsync(new TableEntity(Cluster, VersionRow) { ["MembershipVersion"] = 0 });
        var seenByA = await ReadVersionAsync(table);
        var seenByB = await ReadVersionAsync(table);
        await table.SubmitTransactionAsync([new(TableTransactionActionType.Add, SiloRow(0, "Joining")), BumpVersion(seenByA)]);
        var lost = await Assert.ThrowsAsync<TableTransactionFailedException>(() => table.SubmitTransactionAsync(
            [new(TableTransactionActionType.Add, SiloRow(1, "Joining")), BumpVersion(seenByB)]));
        Assert.Equal((412, "UpdateConditionNotSatisfied", 1), (lost.Status, lost.ErrorCode, lost.FailedTransactionActionIndex));
        // Nothing of the losing transaction was applied: silo 1 is absent, the version is 1.
        Assert.False((await table.GetEntityIfExistsAsync<TableEntity>(Cluster, SiloRow(1, "").RowKey)).HasValue);
        Assert.Equal(1, (await ReadVersionAsync(table)).GetInt32("MembershipVersion"));
    }
}
