// Reminders kept by Orleans' Azure Table reminder service (UseAzureTableReminderService) in
// Malachite: registered into the OrleansReminders table, fired by the silos, removed on unregister.
using Azure.Data.Tables;
using Malachite.Frameworks.Orleans.Support;
using Xunit;

namespace Malachite.Frameworks.Orleans;

public sealed class ReminderTests(MalachiteFixture malachite) : IClassFixture<MalachiteFixture>, IAsyncLifetime
{
    private const string Service = "reminders";
    private Cluster _cluster = null!;

    public async Task InitializeAsync() =>
        _cluster = await Cluster.StartAsync(malachite.Server, Service, "cluster-" + Guid.NewGuid().ToString("N")[..8]);

    public async Task DisposeAsync()
    {
        await _cluster.DisposeAsync();
        _cluster.AssertNothingRefused();
    }

    private async Task<List<TableEntity>> ReminderRowsAsync(string key)
    {
        var rows = await malachite.Table(Cluster.RemindersTable).QueryAsync<TableEntity>().ToListAsync();
        return rows.Where(r => r.RowKey.Contains(key, StringComparison.Ordinal)).ToList();
    }

    // Ticks every second (Cluster sets ReminderOptions.MinimumReminderPeriod to one second; Orleans'
    // default minimum is one minute), first after one second.
    [Fact]
    public async Task AReminderInTheTableFiresEverySecondUntilUnregistered()
    {
        string key = "tick-" + Guid.NewGuid().ToString("N");
        var grain = _cluster.Client.GetGrain<ITickGrain>(key);
        await grain.Start(dueTime: TimeSpan.FromSeconds(1), period: TimeSpan.FromSeconds(1));

        // One row per reminder: PartitionKey "<ServiceId>_<grain hash>", RowKey naming the grain
        // and the reminder, the period as a string.
        var row = Assert.Single(await ReminderRowsAsync(key));
        Assert.Equal(("tick", "00:00:01", Service), (row.GetString("ReminderName"), row.GetString("Period"), row.GetString("ServiceId")));

        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (await grain.Ticks() < 3 && waited.Elapsed < TimeSpan.FromSeconds(20)) await Task.Delay(200);
        Assert.True(await grain.Ticks() >= 3, $"3 ticks expected within 20 s, got {await grain.Ticks()}");

        await grain.Stop();
        Assert.Empty(await ReminderRowsAsync(key));
    }
}
