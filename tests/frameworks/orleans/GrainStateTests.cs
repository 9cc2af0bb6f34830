// Grain state kept by Orleans' Azure Table grain storage (AddAzureTableGrainStorage) in Malachite:
// written under ETags, read back by new activations and by a new cluster, refused when the row
// changed behind Orleans' back, and split across properties when larger than one property holds.
using Azure;
using Azure.Data.Tables;
using Malachite.Frameworks.Orleans.Support;
using Orleans;
using Orleans.Storage;
using Xunit;

namespace Malachite.Frameworks.Orleans;

public sealed class GrainStateTests(MalachiteFixture malachite) : IClassFixture<MalachiteFixture>, IAsyncLifetime
{
    private const string Service = "grain-state";
    private Cluster _cluster = null!;

    public async Task InitializeAsync() =>
        _cluster = await Cluster.StartAsync(malachite.Server, Service, "cluster-" + Guid.NewGuid().ToString("N")[..8]);

    public async Task DisposeAsync()
    {
        await _cluster.DisposeAsync();
        _cluster.AssertNothingRefused();
    }

    // The rows of Orleans' grain state table that hold the grain `key`'s state.
    private async Task<List<TableEntity>> StateRowsAsync(string key)
    {
        var rows = await malachite.Table(Cluster.GrainStateTable).QueryAsync<TableEntity>().ToListAsync();
        return rows.Where(r => r.PartitionKey.Contains(key, StringComparison.Ordinal)).ToList();
    }

    // Deactivates the grain and waits for a new activation, which reads the state from the table.
    private static async Task ReactivateAsync(INoteGrain grain)
    {
        string before = await grain.Activation();
        await grain.Deactivate();
        for (int attempt = 0; attempt < 100 && await grain.Activation() == before; attempt++) await Task.Delay(50);
        Assert.NotEqual(before, await grain.Activation());
    }

    [Fact]
    public async Task StateWrittenByOneActivationIsReadByTheNextAndLivesInOrleansGrainState()
    {
        string key = "note-" + Guid.NewGuid().ToString("N");
        var grain = _cluster.Client.GetGrain<INoteGrain>(key);
        await grain.Write("first", [1, 2, 3]);
        await grain.Write("second", [4, 5]);

        await ReactivateAsync(grain);
        var read = await grain.Read();

        Assert.Equal(("second", 2), (read.Text, read.Writes));
        Assert.Equal([4, 5], read.Payload);
        // One row per grain and state: PartitionKey "<ServiceId>_<grain type>_<key>", RowKey the
        // state's name, the serialized state in the binary property Data.
        var row = Assert.Single(await StateRowsAsync(key));
        Assert.Equal(($"{Service}_note_{key}", "note"), (row.PartitionKey, row.RowKey));
        Assert.NotEmpty(row.GetBinary("Data"));
    }

    [Fact]
    public async Task StateSurvivesAFullClusterRestart()
    {
        string key = "restart-" + Guid.NewGuid().ToString("N");
        await _cluster.Client.GetGrain<INoteGrain>(key).Write("before the restart", [7]);

        // Every silo and the client stop; a new cluster of new silos starts on the same server.
        string clusterId = _cluster.ClusterId;
        await _cluster.DisposeAsync();
        _cluster.AssertNothingRefused();
        _cluster = await Cluster.StartAsync(malachite.Server, Service, clusterId);
        var read = await _cluster.Client.GetGrain<INoteGrain>(key).Read();

        Assert.Equal(("before the restart", 1), (read.Text, read.Writes));
        Assert.Equal([7], read.Payload);
    }

    [Fact]
    public async Task AWriteAfterTheRowChangedBehindOrleansBackFailsWithInconsistentStateException()
    {
        string key = "conflict-" + Guid.NewGuid().ToString("N");
        var grain = _cluster.Client.GetGrain<INoteGrain>(key);
        await grain.Write("mine", [1]);
        var table = malachite.Table(Cluster.GrainStateTable);
        var row = Assert.Single(await StateRowsAsync(key));

        // Another writer merges a property into the row: its ETag changes under the activation.
        await table.UpdateEntityAsync(new TableEntity(row.PartitionKey, row.RowKey) { ["ChangedBy"] = "someone else" },
                                      ETag.All, TableUpdateMode.Merge);
        var refused = await Assert.ThrowsAnyAsync<InconsistentStateException>(() => grain.Write("lost", [2]));

        // Orleans' subclass for tables, over the service's 412 to its conditional update (the
        // inner exception crossed from the silo to the client: its message, not its fields, says so).
        Assert.IsType<TableStorageUpdateConditionNotSatisfiedException>(refused);
        var status = Assert.IsType<RequestFailedException>(refused.InnerException);
        Assert.Contains("Status: 412 (Precondition Failed)", status.Message);
        Assert.Contains("ErrorCode: UpdateConditionNotSatisfied", status.Message);

        // The refused write changed nothing: the other writer's property and Orleans' data stay.
        var after = (await table.GetEntityAsync<TableEntity>(row.PartitionKey, row.RowKey)).Value;
        Assert.Equal("someone else", after.GetString("ChangedBy"));
        Assert.Equal(row.GetBinary("Data"), after.GetBinary("Data"));
        await ReactivateAsync(grain);
        var read = await grain.Read();
        Assert.Equal(("mine", 1), (read.Text, read.Writes));
    }

    [Fact]
    public async Task AStateLargerThanOnePropertyIsSplitAcrossPropertiesAndReadBackWhole()
    {
        string key = "large-" + Guid.NewGuid().ToString("N");
        var payload = new byte[200 * 1024];
        new Random(41).NextBytes(payload);
        var grain = _cluster.Client.GetGrain<INoteGrain>(key);
        await grain.Write("large", payload);

        await ReactivateAsync(grain);
        var read = await grain.Read();

        Assert.Equal(payload, read.Payload);
        // Azure: a binary property holds at most 64 KiB; Orleans writes Data, Data1, Data2, ...
        var row = Assert.Single(await StateRowsAsync(key));
        var data = row.Keys.Where(k => k.StartsWith("Data", StringComparison.Ordinal)).ToList();
        Assert.True(data.Count >= 4, $"expected the state in 4 or more properties, got {string.Join(", ", data)}");
        Assert.All(data, k => Assert.InRange(row.GetBinary(k).ToArray().Length, 1, 64 * 1024));
    }
}
