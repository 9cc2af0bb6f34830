using Azure.Data.Tables;
using Malachite;
using Malachite.Testcontainers;
using Xunit;

// The malachite image, started once for the tests of the class.
public sealed class MalachiteContainerFixture : IAsyncLifetime
{
    // The image to run, with its tag: a release's ghcr.io/<owner>/malachite:<version>, named here by
    // MALACHITE_IMAGE (as CI pins images).
    public static string Image { get; } = Environment.GetEnvironmentVariable("MALACHITE_IMAGE")
        ?? throw new InvalidOperationException("MALACHITE_IMAGE: the malachite image to run");

    public MalachiteContainer Container { get; } = new MalachiteBuilder(Image).WithInMemory().Build();

    public Task InitializeAsync() => Container.StartAsync();

    public async Task DisposeAsync() => await Container.DisposeAsync();
}

public sealed class OrdersContainerTests(MalachiteContainerFixture fixture)
    : IClassFixture<MalachiteContainerFixture>, IAsyncLifetime
{
    private MalachiteAccount _account = null!;

    // An account of its own for every test, made through the container's mapped port.
    public async Task InitializeAsync() => _account = await fixture.Container.CreateAccountAsync();

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
}
