// SubmitTransactionAsync: every TableTransactionActionType in one change set, the responses'
// ETags, atomic failure with FailedTransactionActionIndex, and the batch limits.
using Azure;
using Azure.Data.Tables;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public class TransactionTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task EveryActionTypeAppliesInOneTransaction()
    {
        var table = await fixture.NewTableAsync("tx");
        foreach (var rk in new[] { "merge", "replace", "delete", "upmerge", "upreplace" })
            await table.AddEntityAsync(new TableEntity("p", rk) { ["Old"] = "old" });
        var merge = (await table.GetEntityAsync<TableEntity>("p", "merge")).Value;

        var actions = new List<TableTransactionAction>
        {
            new(TableTransactionActionType.Add, new TableEntity("p", "add") { ["V"] = 1 }),
            new(TableTransactionActionType.UpdateMerge, new TableEntity("p", "merge") { ["V"] = 2 }, merge.ETag),
            new(TableTransactionActionType.UpdateReplace, new TableEntity("p", "replace") { ["V"] = 3 }, ETag.All),
            new(TableTransactionActionType.Delete, new TableEntity("p", "delete"), ETag.All),
            new(TableTransactionActionType.UpsertMerge, new TableEntity("p", "upmerge") { ["V"] = 4 }),
            new(TableTransactionActionType.UpsertReplace, new TableEntity("p", "upreplace") { ["V"] = 5 }),
            new(TableTransactionActionType.UpsertMerge, new TableEntity("p", "newmerge") { ["V"] = 6 }),
        };
        Response<IReadOnlyList<Response>> result = await table.SubmitTransactionAsync(actions);
        Assert.Equal(202, result.GetRawResponse().Status);
        Assert.Equal(actions.Count, result.Value.Count);
        // The SDK asks for no content on inserts in a batch too: every sub-response is 204.
        Assert.All(result.Value, r => Assert.Equal(204, r.Status));

        var rows = (await table.QueryAsync<TableEntity>().ToListAsync()).ToDictionary(e => e.RowKey);
        Assert.Equal(["add", "merge", "newmerge", "replace", "upmerge", "upreplace"],
                     rows.Keys.Order(StringComparer.Ordinal));
        Assert.Equal("old", rows["merge"].GetString("Old"));
        Assert.False(rows["replace"].ContainsKey("Old"));
        Assert.Equal("old", rows["upmerge"].GetString("Old"));
        Assert.False(rows["upreplace"].ContainsKey("Old"));
        // Each sub-response carries the entity's new ETag.
        Assert.Equal(rows["add"].ETag, result.Value[0].Headers.ETag);
        Assert.Equal(rows["merge"].ETag, result.Value[1].Headers.ETag);
    }

    [Fact]
    public async Task AFailingActionRollsBackAllAndNamesItsIndex()
    {
        var table = await fixture.NewTableAsync("tx");
        await table.AddEntityAsync(new TableEntity("p", "exists"));
        var actions = new List<TableTransactionAction>
        {
            new(TableTransactionActionType.Add, new TableEntity("p", "a")),
            new(TableTransactionActionType.UpsertReplace, new TableEntity("p", "b")),
            new(TableTransactionActionType.Add, new TableEntity("p", "exists")),
            new(TableTransactionActionType.Add, new TableEntity("p", "c")),
        };
        var error = await Assert.ThrowsAsync<TableTransactionFailedException>(() => table.SubmitTransactionAsync(actions));
        Assert.Equal(409, error.Status);
        Assert.Equal("EntityAlreadyExists", error.ErrorCode);
        Assert.Equal(2, error.FailedTransactionActionIndex);
        Assert.Equal(["exists"], (await table.QueryAsync<TableEntity>().ToListAsync()).Select(e => e.RowKey));

        // A stale ETag at index 1.
        var current = (await table.GetEntityAsync<TableEntity>("p", "exists")).Value;
        await table.UpsertEntityAsync(new TableEntity("p", "exists") { ["X"] = 1 });
        error = await Assert.ThrowsAsync<TableTransactionFailedException>(() => table.SubmitTransactionAsync(
        [
            new(TableTransactionActionType.Add, new TableEntity("p", "d")),
            new(TableTransactionActionType.UpdateMerge, new TableEntity("p", "exists"), current.ETag),
        ]));
        Assert.Equal(412, error.Status);
        Assert.Equal("UpdateConditionNotSatisfied", error.ErrorCode);
        Assert.Equal(1, error.FailedTransactionActionIndex);

        // A missing entity at index 0.
        error = await Assert.ThrowsAsync<TableTransactionFailedException>(() => table.SubmitTransactionAsync(
        [
            new(TableTransactionActionType.Delete, new TableEntity("p", "missing"), ETag.All),
            new(TableTransactionActionType.Add, new TableEntity("p", "e")),
        ]));
        Assert.Equal(404, error.Status);
        Assert.Equal("ResourceNotFound", error.ErrorCode);
        Assert.Equal(0, error.FailedTransactionActionIndex);
        Assert.Single(await table.QueryAsync<TableEntity>().ToListAsync());
    }

    [Fact]
    public async Task TransactionLimitsAreTheService()
    {
        var table = await fixture.NewTableAsync("tx");
        // 100 operations is the limit and succeeds.
        var hundred = Enumerable.Range(0, 100)
                          .Select(i => new TableTransactionAction(TableTransactionActionType.Add,
                                                                  new TableEntity("p", $"r{i:D3}")))
                          .ToList();
        Assert.Equal(100, (await table.SubmitTransactionAsync(hundred)).Value.Count);
        // 101 is one too many; nothing is applied.
        var tooMany = Enumerable.Range(0, 101)
                          .Select(i => new TableTransactionAction(TableTransactionActionType.Add,
                                                                  new TableEntity("q", $"r{i:D3}")))
                          .ToList();
        var limit = await Assert.ThrowsAnyAsync<RequestFailedException>(() => table.SubmitTransactionAsync(tooMany));
        Assert.Equal((400, "InvalidInput"), (limit.Status, limit.ErrorCode));
        // A transaction on a table that does not exist.
        var missing = fixture.TableClient(Names.Table("nosuch"));
        var notFound = await Assert.ThrowsAnyAsync<RequestFailedException>(() => missing.SubmitTransactionAsync(
            [new TableTransactionAction(TableTransactionActionType.Add, new TableEntity("p", "x"))]));
        Assert.Equal((404, "TableNotFound"), (notFound.Status, notFound.ErrorCode));
        // Two partitions in one change set.
        var error = await Assert.ThrowsAnyAsync<RequestFailedException>(() => table.SubmitTransactionAsync(
        [
            new(TableTransactionActionType.Add, new TableEntity("p1", "x")),
            new(TableTransactionActionType.Add, new TableEntity("p2", "x")),
        ]));
        Assert.Equal(400, error.Status);
        Assert.Equal("CommandsInBatchActOnDifferentPartitions", error.ErrorCode);
        // The same entity twice.
        error = await Assert.ThrowsAnyAsync<RequestFailedException>(() => table.SubmitTransactionAsync(
        [
            new(TableTransactionActionType.UpsertMerge, new TableEntity("p", "same")),
            new(TableTransactionActionType.UpsertMerge, new TableEntity("p", "same")),
        ]));
        Assert.Equal(400, error.Status);
        Assert.Equal("InvalidDuplicateRow", error.ErrorCode);
        Assert.Equal(100, (await table.QueryAsync<TableEntity>().ToListAsync()).Count);
    }

    [Fact]
    public async Task TransactionsOfTypedEntitiesRoundTrip()
    {
        var table = await fixture.NewTableAsync("tx");
        var orders = Enumerable.Range(0, 5).Select(i => new Order
        {
            PartitionKey = "batch", RowKey = $"o{i}", Amount = i * 1000L, PlacedAt = DateTimeOffset.UnixEpoch.AddDays(i), ShippedAt = DateTime.UnixEpoch,
            TrackingId = Guid.NewGuid(), Signature = [1, 2, 3], State = OrderState.Open,
        }).ToList();
        await table.SubmitTransactionAsync(orders.Select(o => new TableTransactionAction(TableTransactionActionType.Add, o)));
        var got = await table.QueryAsync<Order>(o => o.PartitionKey == "batch").ToListAsync();
        Assert.Equal(orders.Select(o => (o.RowKey, o.Amount, o.PlacedAt, o.TrackingId)),
                     got.Select(o => (o.RowKey, o.Amount, o.PlacedAt, o.TrackingId)));
    }
}
