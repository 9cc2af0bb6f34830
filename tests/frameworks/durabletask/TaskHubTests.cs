// Where the task hub's storage went: its tables (partition leases included) on Malachite, its queues
// and its app lease blob on Azurite.
using Azure.Data.Tables;
using Azure.Storage.Blobs;
using Azure.Storage.Queues;
using Malachite.DurableTask.Support;
using Xunit;

namespace Malachite.DurableTask;

[Collection("task hub")]
public sealed class TaskHubTests(TaskHub hub) : IDisposable
{
    public void Dispose() => hub.AssertMalachiteAnsweredAsAzure();

    [Fact]
    public async Task TheHubsTablesAreOnMalachiteAndItsQueuesAndBlobsOnAzurite()
    {
        var tables = new List<string>();
        await foreach (var table in new TableServiceClient(hub.Malachite.ConnectionString).QueryAsync())
            tables.Add(table.Name);
        Assert.Equal(new[] { "History", "Instances", "Partitions" }.Select(s => hub.Name + s), tables.Order());

        var queues = new List<string>();
        await foreach (var queue in new QueueServiceClient(hub.ConnectionString).GetQueuesAsync())
            queues.Add(queue.Name);
        string prefix = hub.Name.ToLowerInvariant();
        Assert.Equal(
            new[] { "-control-00", "-control-01", "-control-02", "-control-03", "-workitems" }.Select(s => prefix + s),
            queues.Order());

        var containers = new List<string>();
        await foreach (var container in new BlobServiceClient(hub.ConnectionString).GetBlobContainersAsync())
            containers.Add(container.Name);
        Assert.Contains(prefix + "-applease", containers);
    }
}
