// Cluster membership kept by Orleans' Azure Table clustering (UseAzureStorageClustering) in
// Malachite: silos joining at once through the version row's ETag, and a stopped or killed silo's
// row turning Dead. (A killed silo here is an in-process host stopped with a cancelled token, as
// Orleans.TestingHost kills one: Orleans still writes Dead into its own row on the way down. A
// death declared by the other silos' votes after missed probes would need a silo in a process of
// its own, killed with SIGKILL; the short probe options below make that wait seconds if Orleans'
// own write ever fails.)
using Azure.Data.Tables;
using Malachite.Frameworks.Orleans.Support;
using Microsoft.Extensions.Hosting;
using Xunit;

namespace Malachite.Frameworks.Orleans;

public sealed class MembershipTests(MalachiteFixture malachite) : IClassFixture<MalachiteFixture>
{
    private const string Service = "membership";

    // The cluster's partition of OrleansSiloInstances: a version row and one row per silo, keyed
    // "<address>-<port>-<generation>".
    private async Task<Dictionary<string, TableEntity>> MembershipRowsAsync(string clusterId) =>
        (await malachite.Table(Cluster.MembershipTable).QueryAsync<TableEntity>(r => r.PartitionKey == clusterId).ToListAsync())
        .ToDictionary(r => r.RowKey);

    private static string RowKeyOf(IHost silo)
    {
        var address = Cluster.AddressOf(silo);
        return $"{address.Endpoint.Address}-{address.Endpoint.Port}-{address.Generation}";
    }

    private static string StatusOf(Dictionary<string, TableEntity> rows, string silo) => rows[silo].GetString("Status");

    // Polls the table until the silo's row has `status` (a stop writes it before it returns; the
    // wait is for a kill whose own write failed, when the other silos vote it dead after missed
    // probes, a few seconds with the cluster's options).
    private async Task<Dictionary<string, TableEntity>> UntilStatusAsync(string clusterId, string silo, string status)
    {
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            var rows = await MembershipRowsAsync(clusterId);
            if (StatusOf(rows, silo) == status || waited.Elapsed > TimeSpan.FromSeconds(30)) return rows;
            await Task.Delay(250);
        }
    }

    [Fact]
    public async Task SilosJoinThroughTheTableAndAStoppedOrKilledSilosRowTurnsDead()
    {
        string clusterId = "cluster-" + Guid.NewGuid().ToString("N")[..8];
        await using var cluster = await Cluster.StartAsync(malachite.Server, Service, clusterId, silos: 3, membership: o =>
        {
            o.ProbeTimeout = TimeSpan.FromSeconds(1);
            o.NumMissedProbesLimit = 2;
            o.TableRefreshTimeout = TimeSpan.FromSeconds(1);
        });
        var silos = cluster.Silos.ToList();
        var (survivor, stopped, killed) = (RowKeyOf(silos[0]), RowKeyOf(silos[1]), RowKeyOf(silos[2]));

        // Each join is two membership changes (insert Joining, update Active), each a transaction
        // that also replaces the version row under its ETag: 3 silos, version 6, none lost.
        var rows = await MembershipRowsAsync(clusterId);
        // (Orleans keeps the version as a string property.)
        Assert.Equal("6", rows["VersionRow"].GetString("MembershipVersion"));
        Assert.Equal(3, rows.Values.Count(r => r.ContainsKey("Status")));
        Assert.All(silos, s => Assert.Equal("Active", StatusOf(rows, RowKeyOf(s))));

        await cluster.StopSiloAsync(silos[1]);
        rows = await UntilStatusAsync(clusterId, stopped, "Dead");
        Assert.Equal(("Dead", "Active", "Active"), (StatusOf(rows, stopped), StatusOf(rows, killed), StatusOf(rows, survivor)));

        await cluster.KillSiloAsync(silos[2]);
        rows = await UntilStatusAsync(clusterId, killed, "Dead");
        Assert.Equal(("Dead", "Dead", "Active"), (StatusOf(rows, stopped), StatusOf(rows, killed), StatusOf(rows, survivor)));
        cluster.AssertNothingRefused();
    }
}
