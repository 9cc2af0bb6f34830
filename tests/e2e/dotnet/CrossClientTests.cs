// What one client writes another reads: values the current SDK cannot send (NaN, infinities)
// written by the legacy client and read by Azure.Data.Tables, typed and untyped.
using Azure.Data.Tables;
using Malachite.E2E.Support;
using Xunit;
using Was = Microsoft.WindowsAzure.Storage;

namespace Malachite.E2E;

public class SpecialDoubles : ITableEntity
{
    public string PartitionKey { get; set; } = "";
    public string RowKey { get; set; } = "";
    public DateTimeOffset? Timestamp { get; set; }
    public Azure.ETag ETag { get; set; }
    public double NaN { get; set; }
    public double Inf { get; set; }
    public double NegInf { get; set; }
}

public class CrossClientTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    [Fact]
    public async Task SpecialDoublesWrittenByTheLegacyClientReadBack()
    {
        var table = await fixture.NewTableAsync("cross");
        var legacy = Was.CloudStorageAccount.Parse(fixture.Server.ConnectionString).CreateCloudTableClient()
                         .GetTableReference(table.Name);
        var entity = new Was.Table.DynamicTableEntity("p", "r");
        entity.Properties["NaN"] = new Was.Table.EntityProperty(double.NaN);
        entity.Properties["Inf"] = new Was.Table.EntityProperty(double.PositiveInfinity);
        entity.Properties["NegInf"] = new Was.Table.EntityProperty(double.NegativeInfinity);
        await legacy.ExecuteAsync(Was.Table.TableOperation.Insert(entity));

        var typed = (await table.GetEntityAsync<SpecialDoubles>("p", "r")).Value;
        Assert.True(double.IsNaN(typed.NaN));
        Assert.Equal(double.PositiveInfinity, typed.Inf);
        Assert.Equal(double.NegativeInfinity, typed.NegInf);
        var untyped = (await table.GetEntityAsync<TableEntity>("p", "r")).Value;
        Assert.Equal(double.PositiveInfinity, untyped.GetDouble("Inf"));
        // And they filter as doubles.
        var infinite = await table.QueryAsync<SpecialDoubles>(e => e.Inf > 1e308).ToListAsync();
        Assert.Single(infinite);
    }
}
