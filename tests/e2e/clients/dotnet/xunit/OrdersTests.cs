using Azure.Data.Tables;
using Malachite;
using Xunit;

// One server for the tests of a class: xUnit creates the fixture once and disposes it after them.
public sealed class MalachiteFixture : IAsyncLifetime
{
    public MalachiteServer Server { get; private set; } = null!;

    public async Task InitializeAsync() => Server = await MalachiteServer.StartAsync();

    public async Task DisposeAsync() => await Server.DisposeAsync();
}

// xUnit makes a new instance of the class for every test: each test gets an account of its own,
// so tests running in parallel never see each other's tables.
public sealed class OrdersTests(MalachiteFixture fixture) : IClassFixture<MalachiteFixture>, IAsyncLifetime
{
    private MalachiteAccount _account = null!;

    public async Task InitializeAsync() => _account = await fixture.Server.CreateAccountAsync();

    public async Task DisposeAsync() => await _account.DisposeAsync();

    [Fact]
    public async Task AddsAnOrder()
    {
        var orders = new TableClient(_account.ConnectionString, "orders");
        await orders.CreateAsync();
        await orders.AddEntityAsync(new TableEntity("customer1", "order1") { ["Amount"] = 12.5 });

        var order = await orders.GetEntityAsync<TableEntity>("customer1", "order1");
        Assert.Equal(12.5, order.Value.GetDouble("Amount"));
    }

    [Fact]
    public async Task StartsWithNoTables()
    {
        var service = new TableServiceClient(_account.ConnectionString);
        await service.CreateTableAsync("orders");  // would fail if another test's "orders" were here

        Assert.Single(service.Query().ToList());
    }
}
