// Throttling as a .NET application meets it: 503 ServerBusy, retried by the SDK's retry policy
// (Azure.Core retries 503 with back-off), so the caller's operation succeeds.
using Azure;
using Azure.Data.Tables;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

// A slow partition target (20 entities/s, a burst of 250 ms = 5 entities), so that a few dozen
// requests sent at once exceed it however slowly a loaded machine sends them: 60 inserts need 3 s
// of admissions.
public class ThrottledServerFixture : ServerFixture
{
    protected override string[] ServerArgs =>
        ["--throttling", "on", "--partition-rate", "20", "--throttle-burst-ms", "250"];
}

public class ThrottlingTests(ThrottledServerFixture fixture) : IClassFixture<ThrottledServerFixture>
{
    [Fact]
    public async Task ServerBusyIsRetriedByTheSdkUntilTheWritesSucceed()
    {
        var recorder = new Recorder();
        // Back-off of 50 ms doubling to 400 ms, up to 40 tries: ~15 s, five times what 60 inserts need.
        var options = Clients.Recording(recorder, maxRetries: 40);
        options.Retry.Delay = TimeSpan.FromMilliseconds(50);
        options.Retry.MaxDelay = TimeSpan.FromMilliseconds(400);
        var table = await fixture.NewTableAsync("busy", options);
        // 60 inserts at once into one partition held to 20 entities/s: most are refused at first.
        await Task.WhenAll(Enumerable.Range(0, 60)
                               .Select(i => table.AddEntityAsync(new TableEntity("hot", $"r{i:D2}"))));
        Assert.Equal(60, (await table.QueryAsync<TableEntity>(e => e.PartitionKey == "hot").ToListAsync()).Count);

        // The inserts only (the query above may be refused too: its scan charged the partition).
        var inserts = recorder.Exchanges.Where(e => e.Method == "POST" && e.Uri.AbsolutePath.EndsWith(table.Name)).ToList();
        var busy = inserts.Where(e => e.Status == 503).ToList();
        Assert.NotEmpty(busy);
        Assert.All(busy, e => Assert.Equal("ServerBusy", e.ResponseHeaders["x-ms-error-code"]));
        // Every refused insert was sent again until it succeeded: 60 successes, the rest refusals.
        Assert.Equal(60, inserts.Count(e => e.Status == 204));
        Assert.Equal(inserts.Count, 60 + busy.Count);
    }

    [Fact]
    public async Task WithoutRetriesTheCallerSeesServerBusy()
    {
        var table = await fixture.NewTableAsync("busy2");
        var errors = new List<RequestFailedException>();
        // 100 at once need 4.75 s of admissions at 20/s: some are refused however slowly they go out.
        await Task.WhenAll(Enumerable.Range(0, 100).Select(async i =>
        {
            try
            {
                await table.UpsertEntityAsync(new TableEntity("hot", $"r{i:D2}"));
            }
            catch (RequestFailedException e)
            {
                lock (errors) errors.Add(e);
            }
        }));
        Assert.NotEmpty(errors);
        Assert.All(errors, e => Assert.Equal((503, "ServerBusy"), (e.Status, e.ErrorCode)));
    }
}

// Fault rules (--fault) make a named operation fail a set number of times: the SDK's default retry
// policy recovers from exactly that many ServerBusy answers.
public class FaultServerFixture : ServerFixture
{
    protected override string[] ServerArgs =>
        ["--fault", """{"fault":"ServerBusy","count":2,"operation":"InsertEntity"}"""];
}

public class FaultRetryTests(FaultServerFixture fixture) : IClassFixture<FaultServerFixture>
{
    [Fact]
    public async Task TwoInjectedServerBusyAnswersAreRetried()
    {
        var recorder = new Recorder();
        var table = await fixture.NewTableAsync("fault", Clients.Recording(recorder, maxRetries: 3));
        recorder.Clear();
        Response added = await table.AddEntityAsync(new TableEntity("p", "r"));
        Assert.Equal(204, added.Status);
        Assert.Equal([503, 503, 204], recorder.Exchanges.Select(e => e.Status));
        Assert.NotNull((await table.GetEntityAsync<TableEntity>("p", "r")).Value);
    }
}
