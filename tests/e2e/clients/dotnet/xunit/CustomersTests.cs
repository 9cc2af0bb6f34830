using Azure.Data.Tables;
using Malachite;
using Xunit;

// One server for every test class of the collection "Malachite" (they run one after another).
[CollectionDefinition("Malachite")]
public sealed class MalachiteCollection : ICollectionFixture<MalachiteFixture>;

[Collection("Malachite")]
public sealed class CustomersTests(MalachiteFixture fixture)
{
    [Fact]
    public async Task KeepsACustomer()
    {
        await using var account = await fixture.Server.CreateAccountAsync();
        var customers = new TableClient(account.ConnectionString, "customers");
        await customers.CreateAsync();
        await customers.UpsertEntityAsync(new TableEntity("eu", "c1") { ["Name"] = "Ada" });

        var names = customers.Query<TableEntity>("PartitionKey eq 'eu'").Select(e => e.GetString("Name"));
        Assert.Equal(["Ada"], names);
    }
}

[Collection("Malachite")]
public sealed class InvoicesTests(MalachiteFixture fixture)
{
    [Fact]
    public async Task UsesTheSharedServer()
    {
        await using var account = await fixture.Server.CreateAccountAsync();
        var invoices = new TableClient(account.ConnectionString, "invoices");
        await invoices.CreateAsync();

        Assert.Empty(invoices.Query<TableEntity>().ToList());
    }
}
