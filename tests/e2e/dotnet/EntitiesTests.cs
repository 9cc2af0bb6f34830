// Every single-entity operation of TableClient with a TableEntity, with ETags: Add, Get, Update
// (Merge and Replace, with an ETag and with ETag.All), Upsert (Merge and Replace), Delete.
using Azure;
using Azure.Data.Tables;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public class EntitiesTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task AddThenGetReturnsTheEntityWithItsETagAndTimestamp()
    {
        var recorder = new Recorder();
        var table = await fixture.NewTableAsync(options: Clients.Recording(recorder));
        var entity = new TableEntity("p1", "r1") { ["Name"] = "widget", ["Count"] = 3 };
        Response added = await table.AddEntityAsync(entity);
        // The SDK asks for no content (Prefer: return-no-content): 204 with the ETag header.
        Assert.Equal(204, added.Status);
        var add = recorder.Exchanges.Last();
        Assert.Equal("return-no-content", add.RequestHeaders["Prefer"]);
        Assert.Equal("return-no-content", add.ResponseHeaders["Preference-Applied"]);
        Assert.Equal("3.0", add.RequestHeaders["DataServiceVersion"]);
        // Headers the SDK logs and correlates: the client request id echoed, version, request id, date.
        Assert.Equal(add.RequestHeaders["x-ms-client-request-id"], add.ResponseHeaders["x-ms-client-request-id"]);
        Assert.Equal(add.RequestHeaders["x-ms-version"], add.ResponseHeaders["x-ms-version"]);
        Assert.True(Guid.TryParse(add.ResponseHeaders["x-ms-request-id"], out _));
        Assert.True(DateTimeOffset.TryParse(add.ResponseHeaders["Date"], out _));
        Assert.True(added.Headers.ETag.HasValue);

        TableEntity got = (await table.GetEntityAsync<TableEntity>("p1", "r1")).Value;
        Assert.Equal("widget", got.GetString("Name"));
        Assert.Equal(3, got.GetInt32("Count"));
        Assert.Equal(added.Headers.ETag, got.ETag);
        Assert.NotNull(got.Timestamp);
        Assert.InRange(got.Timestamp!.Value, DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddMinutes(5));

        await Expect.Error(409, "EntityAlreadyExists", () => table.AddEntityAsync(entity));
        await Expect.Error(404, "ResourceNotFound", () => table.GetEntityAsync<TableEntity>("p1", "nope"));
        var missing = await table.GetEntityIfExistsAsync<TableEntity>("p1", "nope");
        Assert.False(missing.HasValue);
    }

    [Fact]
    public async Task UpdateMergeAndReplaceHonourTheETag()
    {
        var table = await fixture.NewTableAsync();
        await table.AddEntityAsync(new TableEntity("p", "r") { ["A"] = "a", ["B"] = "b" });
        TableEntity current = (await table.GetEntityAsync<TableEntity>("p", "r")).Value;

        // Merge keeps properties not sent.
        Response merged = await table.UpdateEntityAsync(new TableEntity("p", "r") { ["C"] = "c" }, current.ETag,
                                                        TableUpdateMode.Merge);
        var afterMerge = (await table.GetEntityAsync<TableEntity>("p", "r")).Value;
        Assert.Equal(["A", "B", "C"], UserKeys(afterMerge));
        Assert.NotEqual(current.ETag, merged.Headers.ETag);
        Assert.Equal(merged.Headers.ETag, afterMerge.ETag);

        // The old ETag no longer matches.
        await Expect.Error(412, "UpdateConditionNotSatisfied",
                           () => table.UpdateEntityAsync(new TableEntity("p", "r") { ["D"] = "d" }, current.ETag,
                                                         TableUpdateMode.Replace));

        // Replace drops properties not sent.
        await table.UpdateEntityAsync(new TableEntity("p", "r") { ["D"] = "d" }, afterMerge.ETag,
                                      TableUpdateMode.Replace);
        Assert.Equal(["D"], UserKeys((await table.GetEntityAsync<TableEntity>("p", "r")).Value));

        // ETag.All updates unconditionally.
        await table.UpdateEntityAsync(new TableEntity("p", "r") { ["E"] = "e" }, ETag.All, TableUpdateMode.Merge);
        Assert.Equal(["D", "E"], UserKeys((await table.GetEntityAsync<TableEntity>("p", "r")).Value));

        // Update of a missing entity is 404, whatever the ETag.
        await Expect.Error(404, "ResourceNotFound",
                           () => table.UpdateEntityAsync(new TableEntity("p", "missing"), ETag.All));
    }

    [Fact]
    public async Task UpsertMergesOrReplacesAndCreates()
    {
        var table = await fixture.NewTableAsync();
        Response created = await table.UpsertEntityAsync(new TableEntity("p", "r") { ["A"] = 1 });
        Assert.Equal(204, created.Status);
        await table.UpsertEntityAsync(new TableEntity("p", "r") { ["B"] = 2 }, TableUpdateMode.Merge);
        Assert.Equal(["A", "B"], UserKeys((await table.GetEntityAsync<TableEntity>("p", "r")).Value));
        await table.UpsertEntityAsync(new TableEntity("p", "r") { ["C"] = 3 }, TableUpdateMode.Replace);
        Assert.Equal(["C"], UserKeys((await table.GetEntityAsync<TableEntity>("p", "r")).Value));
    }

    [Fact]
    public async Task DeleteHonoursTheETag()
    {
        var table = await fixture.NewTableAsync();
        Response added = await table.AddEntityAsync(new TableEntity("p", "r"));
        ETag etag = added.Headers.ETag!.Value;
        await table.UpsertEntityAsync(new TableEntity("p", "r") { ["X"] = 1 });
        await Expect.Error(412, "UpdateConditionNotSatisfied", () => table.DeleteEntityAsync("p", "r", etag));
        var current = (await table.GetEntityAsync<TableEntity>("p", "r")).Value;
        Assert.Equal(204, (await table.DeleteEntityAsync(current)).Status);
        // Delete of a missing entity: the SDK maps the 404 to a response, not an exception.
        Assert.Equal(404, (await table.DeleteEntityAsync("p", "r")).Status);
        Assert.Equal(404, (await table.DeleteEntityAsync("p", "r", current.ETag)).Status);
    }

    [Fact]
    public async Task KeysWithSpecialCharactersRoundTrip()
    {
        var table = await fixture.NewTableAsync();
        string[] keys = ["a b", "quote'd", "percent%25", "plus+sign", "ünïcødé", "semi;colon", "amp&and", "eq=ual"];
        foreach (var key in keys) await table.AddEntityAsync(new TableEntity(key, key) { ["K"] = key });
        foreach (var key in keys)
        {
            var got = (await table.GetEntityAsync<TableEntity>(key, key)).Value;
            Assert.Equal(key, got.GetString("K"));
            await table.UpdateEntityAsync(new TableEntity(key, key) { ["K2"] = key }, got.ETag);
            await table.DeleteEntityAsync(key, key, ETag.All);
        }
        Assert.Empty(await table.QueryAsync<TableEntity>().ToListAsync());
    }

    [Fact]
    public async Task EmptyKeysAreValid()
    {
        var table = await fixture.NewTableAsync();
        await table.AddEntityAsync(new TableEntity("", "") { ["V"] = 1 });
        await table.AddEntityAsync(new TableEntity("", "r") { ["V"] = 2 });
        Assert.Equal(1, (await table.GetEntityAsync<TableEntity>("", "")).Value.GetInt32("V"));
        await table.UpdateEntityAsync(new TableEntity("", "") { ["V"] = 3 }, ETag.All);
        var rows = await table.QueryAsync<TableEntity>(e => e.PartitionKey == "").ToListAsync();
        Assert.Equal([("", 3), ("r", 2)], rows.Select(e => (e.RowKey, e.GetInt32("V")!.Value)));
        await table.DeleteEntityAsync("", "", ETag.All);
        Assert.False((await table.GetEntityIfExistsAsync<TableEntity>("", "")).HasValue);
    }

    [Fact]
    public async Task BadEntitiesGetTheServiceErrorCodes()
    {
        var table = await fixture.NewTableAsync();
        // Azure: a key with '/', '\\', '#' or '?' is OutOfRangeInput (spec: forbidden characters).
        await Expect.Error(400, "OutOfRangeInput",
                           () => table.AddEntityAsync(new TableEntity("p", "bad/key")));
        var big = new TableEntity("p", "big") { ["Blob"] = new byte[65 * 1024] };
        await Expect.Error(400, "PropertyValueTooLarge", () => table.AddEntityAsync(big));
        var many = new TableEntity("p", "many");
        for (int i = 0; i < 253; i++) many[$"P{i}"] = i;
        await Expect.Error(400, "TooManyProperties", () => table.AddEntityAsync(many));
        // A default (year 1) DateTime, the classic .NET slip: Edm.DateTime starts in 1601.
        var early = new TableEntity("p", "early") { ["When"] = DateTime.SpecifyKind(DateTime.MinValue, DateTimeKind.Utc) };
        await Expect.Error(400, "OutOfRangeInput", () => table.AddEntityAsync(early));
    }

    private static List<string> UserKeys(TableEntity entity) =>
        entity.Keys.Where(k => k is not ("PartitionKey" or "RowKey" or "Timestamp" or "odata.etag"))
            .Order(StringComparer.Ordinal).ToList();
}
