// The core cases through the legacy clients (CloudTable, TableOperation, TableBatchOperation,
// TableQuery<T>): as written, against Microsoft.Azure.Cosmos.Table 1.0.8; compiled a second time
// against WindowsAzure.Storage 9.3.3, whose API it forked (Malachite.E2E.csproj generates
// WindowsAzureStorageTests from this file by changing the imports and the namespace). Keep
// `using Microsoft.Azure.Cosmos.Table;` on one line and use only what both libraries have.
using Malachite.E2E.Support;
using Microsoft.Azure.Cosmos.Table;
using Xunit;

namespace Malachite.E2E.Legacy.Cosmos;

public class Reading : TableEntity
{
    public Reading() { }
    public Reading(string pk, string rk) : base(pk, rk) { }
    public string Sensor { get; set; } = "";
    public int Count { get; set; }
    public long Total { get; set; }
    public double Value { get; set; }
    public bool Ok { get; set; }
    public Guid Id { get; set; }
    public DateTime At { get; set; }
    public DateTimeOffset? Seen { get; set; }
    public byte[]? Raw { get; set; }

    public static Reading Make(string pk, int i) => new(pk, $"r{i:D3}")
    {
        Sensor = $"s{i % 2}", Count = i, Total = 10_000_000_000L + i, Value = i * 1.5, Ok = i % 2 == 0,
        Id = new Guid($"10000000-0000-0000-0000-{i:D12}"), At = LegacyData.Base.AddHours(i),
        Seen = new DateTimeOffset(LegacyData.Base.AddMinutes(i)), Raw = [(byte)i, 1, 2],
    };
}

public class CosmosTableTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private async Task<CloudTable> NewTableAsync()
    {
        var client = CloudStorageAccount.Parse(fixture.Server.ConnectionString).CreateCloudTableClient();
        client.DefaultRequestOptions.RetryPolicy = new NoRetry();
        var table = client.GetTableReference(Names.Table("cosmos"));
        Assert.True(await table.CreateIfNotExistsAsync());
        Assert.False(await table.CreateIfNotExistsAsync());
        return table;
    }

    private static async Task<StorageException> Fails(int status, string code, Func<Task> call)
    {
        var error = await Assert.ThrowsAsync<StorageException>(call);
        Assert.Equal((status, code),
                     (error.RequestInformation.HttpStatusCode, error.RequestInformation.ExtendedErrorInformation?.ErrorCode));
        return error;
    }

    [Fact]
    public async Task EntityOperationsWithETags()
    {
        var table = await NewTableAsync();
        var inserted = await table.ExecuteAsync(TableOperation.Insert(Reading.Make("p", 1)));
        Assert.Equal(204, inserted.HttpStatusCode);
        var got = (Reading)(await table.ExecuteAsync(TableOperation.Retrieve<Reading>("p", "r001"))).Result;
        LegacyData.AssertSame(Reading.Make("p", 1), got, r => (r.Sensor, r.Count, r.Total, r.Value, r.Ok, r.Id, r.At, r.Seen, Convert.ToBase64String(r.Raw!)));
        Assert.Equal(inserted.Etag, got.ETag);
        await Fails(409, "EntityAlreadyExists", () => table.ExecuteAsync(TableOperation.Insert(Reading.Make("p", 1))));

        string stale = got.ETag;
        got.Count = 100;
        await table.ExecuteAsync(TableOperation.Replace(got));
        got.ETag = stale;
        await Fails(412, "UpdateConditionNotSatisfied", () => table.ExecuteAsync(TableOperation.Merge(got)));
        got.ETag = "*";
        var partial = new DynamicTableEntity("p", "r001") { ETag = "*" };
        partial.Properties["Extra"] = new EntityProperty("x");
        await table.ExecuteAsync(TableOperation.Merge(partial));
        var merged = (DynamicTableEntity)(await table.ExecuteAsync(TableOperation.Retrieve("p", "r001"))).Result;
        Assert.Equal(100, merged.Properties["Count"].Int32Value);
        Assert.Equal("x", merged.Properties["Extra"].StringValue);

        await table.ExecuteAsync(TableOperation.InsertOrReplace(new DynamicTableEntity("p", "r001")));
        merged = (DynamicTableEntity)(await table.ExecuteAsync(TableOperation.Retrieve("p", "r001"))).Result;
        Assert.Empty(merged.Properties);
        await table.ExecuteAsync(TableOperation.InsertOrMerge(Reading.Make("p", 2)));
        await table.ExecuteAsync(TableOperation.Delete(merged));
        var missing = await table.ExecuteAsync(TableOperation.Retrieve<Reading>("p", "r001"));
        Assert.Equal(404, missing.HttpStatusCode);
        Assert.Null(missing.Result);
        await Fails(404, "ResourceNotFound", () => table.ExecuteAsync(TableOperation.Delete(merged)));
    }

    [Fact]
    public async Task BatchesApplyAtomicallyAndReportTheFailingIndex()
    {
        var table = await NewTableAsync();
        await table.ExecuteAsync(TableOperation.Insert(Reading.Make("b", 0)));
        var existing = (Reading)(await table.ExecuteAsync(TableOperation.Retrieve<Reading>("b", "r000"))).Result;
        var batch = new TableBatchOperation();
        batch.Insert(Reading.Make("b", 1));
        batch.InsertOrReplace(Reading.Make("b", 2));
        batch.InsertOrMerge(Reading.Make("b", 3));
        existing.Count = 42;
        batch.Replace(existing);
        // A retrieve is a batch of its own (the client refuses to mix it with writes).
        var retrieve = new TableBatchOperation();
        retrieve.Retrieve<Reading>("b", "r000");
        var results = await table.ExecuteBatchAsync(batch);
        // Insert without echoContent sends Prefer: return-no-content, so it is 204 too.
        Assert.Equal([204, 204, 204, 204], results.Select(r => r.HttpStatusCode));
        Assert.Equal(42, ((Reading)(await table.ExecuteBatchAsync(retrieve))[0].Result).Count);

        var failing = new TableBatchOperation();
        failing.Insert(Reading.Make("b", 10));
        failing.Insert(Reading.Make("b", 1));
        var error = await Fails(409, "EntityAlreadyExists", () => table.ExecuteBatchAsync(failing));
        Assert.StartsWith("1:", error.RequestInformation.ExtendedErrorInformation.ErrorMessage);
        Assert.Equal(404, (await table.ExecuteAsync(TableOperation.Retrieve<Reading>("b", "r010"))).HttpStatusCode);
    }

    [Fact]
    public async Task TypedQueriesFilterAndContinue()
    {
        var table = await NewTableAsync();
        for (int start = 0; start < 30; start += 10)
        {
            var batch = new TableBatchOperation();
            for (int i = start; i < start + 10; i++) batch.Insert(Reading.Make("q", i));
            await table.ExecuteBatchAsync(batch);
        }
        string filter = TableQuery.CombineFilters(
            TableQuery.GenerateFilterConditionForLong("Total", QueryComparisons.GreaterThanOrEqual, 10_000_000_005L),
            TableOperators.And,
            TableQuery.CombineFilters(
                TableQuery.GenerateFilterConditionForBool("Ok", QueryComparisons.Equal, true), TableOperators.And,
                TableQuery.GenerateFilterConditionForDate("Seen", QueryComparisons.LessThan,
                                                          new DateTimeOffset(LegacyData.Base.AddMinutes(25)))));
        var query = new TableQuery<Reading>().Where(filter).Take(4);
        var rows = new List<Reading>();
        int segments = 0;
        TableContinuationToken? token = null;
        do
        {
            var segment = await table.ExecuteQuerySegmentedAsync(query, token);
            rows.AddRange(segment.Results);
            token = segment.ContinuationToken;
            segments++;
        } while (token != null);
        Assert.Equal([6, 8, 10, 12, 14, 16, 18, 20, 22, 24], rows.Select(r => r.Count));
        Assert.Equal(3, segments);

        var byGuid = TableQuery.GenerateFilterConditionForGuid("Id", QueryComparisons.Equal, Reading.Make("q", 7).Id);
        var one = await table.ExecuteQuerySegmentedAsync(new TableQuery<Reading>().Where(byGuid), null);
        Assert.Equal("r007", Assert.Single(one.Results).RowKey);
        var projected = await table.ExecuteQuerySegmentedAsync(
            new TableQuery<DynamicTableEntity>().Where(byGuid).Select(["Sensor"]), null);
        Assert.Equal(["Sensor"], Assert.Single(projected.Results).Properties.Keys);
    }

    [Fact]
    public async Task TablesAreListedAndDeleted()
    {
        var table = await NewTableAsync();
        var client = table.ServiceClient;
        var listed = await client.ListTablesSegmentedAsync(table.Name, null);
        Assert.Equal([table.Name], listed.Results.Select(t => t.Name));
        Assert.True(await table.DeleteIfExistsAsync());
        Assert.False(await table.ExistsAsync());
        await Fails(404, "TableNotFound", () => table.ExecuteAsync(TableOperation.Insert(Reading.Make("p", 1))));
    }
}
