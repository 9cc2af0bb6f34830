using Azure.Data.Tables;
using Malachite;
using NUnit.Framework;

public class OrdersTests
{
    private MalachiteServer _server = null!;
    private MalachiteAccount _account = null!;

    // One server for the whole fixture...
    [OneTimeSetUp]
    public async Task StartServer() => _server = await MalachiteServer.StartAsync();

    [OneTimeTearDown]
    public async Task StopServer() => await _server.DisposeAsync();

    // ...and an account of its own for every test.
    [SetUp]
    public async Task CreateAccount() => _account = await _server.CreateAccountAsync();

    [TearDown]
    public async Task DeleteAccount() => await _account.DisposeAsync();

    [Test]
    public async Task AddsAnOrder()
    {
        var orders = new TableClient(_account.ConnectionString, "orders");
        await orders.CreateAsync();
        await orders.AddEntityAsync(new TableEntity("customer1", "order1") { ["Amount"] = 12.5 });

        var order = await orders.GetEntityAsync<TableEntity>("customer1", "order1");
        Assert.That(order.Value.GetDouble("Amount"), Is.EqualTo(12.5));
    }

    [Test]
    public async Task StartsWithNoTables()
    {
        var service = new TableServiceClient(_account.ConnectionString);
        await service.CreateTableAsync("orders");  // would fail if another test's "orders" were here

        Assert.That(service.Query().ToList(), Has.Count.EqualTo(1));
    }
}
