// A typed ITableEntity POCO with every EDM type the SDK maps, LINQ-expression queries,
// TableClient.CreateQueryFilter with interpolated values of each type, select, and paging.
using Azure;
using Azure.Data.Tables;
using Malachite.E2E.Support;
using Xunit;

namespace Malachite.E2E;

public enum OrderState { Open, Shipped, Cancelled }

public class Order : ITableEntity
{
    public string PartitionKey { get; set; } = "";
    public string RowKey { get; set; } = "";
    public DateTimeOffset? Timestamp { get; set; }
    public ETag ETag { get; set; }

    public string Customer { get; set; } = "";
    public int Quantity { get; set; }
    public long Amount { get; set; }
    public double Weight { get; set; }
    public bool Paid { get; set; }
    public Guid TrackingId { get; set; }
    public DateTimeOffset PlacedAt { get; set; }
    public DateTime ShippedAt { get; set; }
    public byte[] Signature { get; set; } = [];
    public OrderState State { get; set; }
    public int? Discount { get; set; }
    public BinaryData? Notes { get; set; }
}

public class TypedEntityTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private static readonly DateTimeOffset Base = new(2024, 5, 17, 8, 30, 15, TimeSpan.Zero);

    private static Order MakeOrder(int i) => new()
    {
        PartitionKey = i % 2 == 0 ? "even" : "odd",
        RowKey = $"order{i:D3}",
        Customer = $"customer{i % 3}",
        Quantity = i,
        Amount = 5_000_000_000L + i,
        Weight = i + 0.25,
        Paid = i % 3 == 0,
        TrackingId = new Guid($"00000000-0000-0000-0000-{i:D12}"),
        PlacedAt = Base.AddMinutes(i).AddTicks(1234567),
        ShippedAt = Base.UtcDateTime.AddHours(i),
        Signature = [(byte)i, 0, 255, (byte)(i * 7)],
        State = (OrderState)(i % 3),
        Discount = i % 4 == 0 ? null : i,
        Notes = BinaryData.FromString($"note {i}"),
    };

    private async Task<TableClient> SeededTableAsync(int count = 20)
    {
        var table = await fixture.NewTableAsync("typed");
        foreach (var order in Enumerable.Range(0, count).Select(MakeOrder)) await table.AddEntityAsync(order);
        return table;
    }

    [Fact]
    public async Task EveryEdmTypeRoundTripsThroughThePoco()
    {
        var table = await fixture.NewTableAsync("typed");
        var order = MakeOrder(7);
        await table.AddEntityAsync(order);
        Order got = (await table.GetEntityAsync<Order>("odd", "order007")).Value;
        Assert.Equal(order.Customer, got.Customer);
        Assert.Equal(order.Quantity, got.Quantity);
        Assert.Equal(order.Amount, got.Amount);
        Assert.Equal(order.Weight, got.Weight);
        Assert.Equal(order.Paid, got.Paid);
        Assert.Equal(order.TrackingId, got.TrackingId);
        // Edm.DateTime keeps 100 ns ticks (seven fractional digits).
        Assert.Equal(order.PlacedAt, got.PlacedAt);
        Assert.Equal(order.ShippedAt, got.ShippedAt);
        Assert.Equal(DateTimeKind.Utc, got.ShippedAt.Kind);
        Assert.Equal(order.Signature, got.Signature);
        Assert.Equal(OrderState.Shipped, got.State);
        Assert.Equal(7, got.Discount);
        Assert.Equal("note 7", got.Notes!.ToString());
        Assert.NotEqual(default, got.ETag);

        // The same entity read untyped shows the EDM types the SDK sent.
        TableEntity raw = (await table.GetEntityAsync<TableEntity>("odd", "order007")).Value;
        Assert.IsType<long>(raw["Amount"]);
        Assert.IsType<int>(raw["Quantity"]);
        Assert.IsType<double>(raw["Weight"]);
        Assert.IsType<bool>(raw["Paid"]);
        Assert.Equal(order.TrackingId, raw.GetGuid("TrackingId"));
        Assert.Equal(order.PlacedAt, raw.GetDateTimeOffset("PlacedAt"));
        Assert.Equal(order.Signature, raw.GetBinary("Signature"));
        Assert.Equal("Shipped", raw.GetString("State"));
    }

    [Fact]
    public async Task ExtremeValuesRoundTrip()
    {
        var table = await fixture.NewTableAsync("typed");
        var entity = new TableEntity("p", "r")
        {
            ["Max"] = double.MaxValue, ["Tiny"] = double.Epsilon, ["Whole"] = 10.0,
            ["LongMax"] = long.MaxValue, ["LongMin"] = long.MinValue, ["IntMin"] = int.MinValue,
            ["Early"] = new DateTimeOffset(1601, 1, 1, 0, 0, 0, TimeSpan.Zero),
            ["Empty"] = "", ["NoBytes"] = Array.Empty<byte>(),
        };
        await table.AddEntityAsync(entity);
        var got = (await table.GetEntityAsync<TableEntity>("p", "r")).Value;
        Assert.Equal(double.MaxValue, got.GetDouble("Max"));
        Assert.Equal(double.Epsilon, got.GetDouble("Tiny"));
        Assert.Equal(10.0, got.GetDouble("Whole"));
        Assert.Equal(long.MaxValue, got.GetInt64("LongMax"));
        Assert.Equal(long.MinValue, got.GetInt64("LongMin"));
        Assert.Equal(int.MinValue, got.GetInt32("IntMin"));
        Assert.Equal(entity["Early"], got.GetDateTimeOffset("Early"));
        Assert.Equal("", got.GetString("Empty"));
        Assert.Equal(Array.Empty<byte>(), got.GetBinary("NoBytes"));
    }

    [Fact]
    public async Task LinqExpressionQueriesFilterOnEveryType()
    {
        var table = await SeededTableAsync();
        async Task<List<string>> Rows(System.Linq.Expressions.Expression<Func<Order, bool>> filter) =>
            (await table.QueryAsync(filter).ToListAsync()).Select(o => o.RowKey).Order().ToList();
        List<string> Expected(Func<Order, bool> filter) =>
            Enumerable.Range(0, 20).Select(MakeOrder).Where(filter).Select(o => o.RowKey).Order().ToList();

        Assert.Equal(Expected(e => e.PartitionKey == "even" && e.Amount > 5_000_000_010L),
                     await Rows(e => e.PartitionKey == "even" && e.Amount > 5_000_000_010L));
        Assert.Equal(Expected(e => e.Quantity >= 3 && e.Quantity < 6),
                     await Rows(e => e.Quantity >= 3 && e.Quantity < 6));
        Assert.Equal(Expected(e => e.Weight > 15.0 || e.Paid), await Rows(e => e.Weight > 15.0 || e.Paid));
        Assert.Equal(Expected(e => !e.Paid && e.PartitionKey == "odd"),
                     await Rows(e => !e.Paid && e.PartitionKey == "odd"));
        var tracking = MakeOrder(11).TrackingId;
        Assert.Equal(["order011"], await Rows(e => e.TrackingId == tracking));
        var since = Base.AddMinutes(17);
        Assert.Equal(Expected(e => e.PlacedAt >= since), await Rows(e => e.PlacedAt >= since));
        Assert.Equal(Expected(e => e.Customer.CompareTo("customer1") <= 0),
                     await Rows(e => e.Customer.CompareTo("customer1") <= 0));
        Assert.Equal(Expected(e => e.RowKey.CompareTo("order015") > 0), await Rows(e => e.RowKey.CompareTo("order015") > 0));
        var recent = DateTimeOffset.UtcNow.AddMinutes(-10);
        Assert.Equal(20, (await Rows(e => e.Timestamp >= recent)).Count);
        var signature = MakeOrder(4).Signature;
        Assert.Equal(["order004"], await Rows(e => e.Signature == signature));
    }

    [Fact]
    public async Task CreateQueryFilterInterpolatesEveryType()
    {
        var table = await SeededTableAsync();
        async Task<List<string>> Rows(string filter) =>
            (await table.QueryAsync<Order>(filter).ToListAsync()).Select(o => o.RowKey).Order().ToList();

        var order = MakeOrder(9);
        FormattableString all =
            $"PartitionKey eq {order.PartitionKey} and Amount eq {order.Amount} and Quantity eq {order.Quantity} and Weight eq {order.Weight} and Paid eq {order.Paid} and TrackingId eq {order.TrackingId} and PlacedAt eq {order.PlacedAt} and Signature eq {order.Signature}";
        string filter = TableClient.CreateQueryFilter(all);
        Assert.Equal(["order009"], await Rows(filter));
        // A quote inside a value is escaped ('') by the SDK.
        await table.AddEntityAsync(new TableEntity("o'brien", "1"));
        string quoted = TableClient.CreateQueryFilter($"PartitionKey eq {"o'brien"}");
        Assert.Equal(["1"], (await table.QueryAsync<TableEntity>(quoted).ToListAsync()).Select(e => e.RowKey));
        string state = TableClient.CreateQueryFilter($"State eq {OrderState.Cancelled.ToString()}");
        Assert.Equal(Enumerable.Range(0, 20).Count(i => i % 3 == 2), (await Rows(state)).Count);
    }

    [Fact]
    public async Task SelectReturnsOnlyTheNamedProperties()
    {
        var table = await SeededTableAsync(3);
        var rows = await table.QueryAsync<TableEntity>("PartitionKey eq 'even'", select: ["RowKey", "Amount", "Missing"])
                       .ToListAsync();
        Assert.Equal(2, rows.Count);
        foreach (var row in rows)
        {
            Assert.Equal(5_000_000_000L + int.Parse(row.RowKey.AsSpan(5)), row.GetInt64("Amount"));
            Assert.False(row.ContainsKey("Customer"));
            Assert.True(row.ContainsKey("Missing"));
            Assert.Null(row["Missing"]);
        }
        var one = (await table.GetEntityAsync<TableEntity>("odd", "order001", select: ["Customer"])).Value;
        Assert.Equal("customer1", one.GetString("Customer"));
        Assert.False(one.ContainsKey("Amount"));
    }

    [Fact]
    public async Task MaxPerPageAndAsPagesResumeFromTheContinuation()
    {
        var table = await SeededTableAsync();
        var pages = await table.QueryAsync<Order>(maxPerPage: 6).AsPages().ToListAsync();
        Assert.Equal([6, 6, 6, 2], pages.Select(p => p.Values.Count));
        var all = pages.SelectMany(p => p.Values).Select(o => (o.PartitionKey, o.RowKey)).ToList();
        Assert.Equal(20, all.Distinct().Count());
        // Partition order, then row order: "even" rows first.
        Assert.Equal(all.OrderBy(k => k.PartitionKey, StringComparer.Ordinal)
                         .ThenBy(k => k.RowKey, StringComparer.Ordinal), all);

        // A filtered query crossing partitions resumes from a token taken mid-way.
        var filtered = table.QueryAsync<Order>(e => e.Quantity >= 4, maxPerPage: 5);
        var first = await filtered.AsPages().FirstAsync();
        var rest = await table.QueryAsync<Order>(e => e.Quantity >= 4, maxPerPage: 5)
                       .AsPages(first.ContinuationToken).ToListAsync();
        var keys = first.Values.Concat(rest.SelectMany(p => p.Values)).Select(o => o.Quantity).Order();
        Assert.Equal(Enumerable.Range(4, 16), keys);
    }

    [Fact]
    public async Task DefaultPagesHoldAThousandEntities()
    {
        var table = await fixture.NewTableAsync("typed");
        for (int start = 0; start < 2500; start += 100)
        {
            await table.SubmitTransactionAsync(Enumerable.Range(start, 100).Select(i => new TableTransactionAction(
                TableTransactionActionType.Add, new TableEntity("big", $"r{i:D5}") { ["N"] = i })));
        }
        var pages = await table.QueryAsync<TableEntity>().AsPages().ToListAsync();
        Assert.Equal([1000, 1000, 500], pages.Select(p => p.Values.Count));
        Assert.Equal(Enumerable.Range(0, 2500), pages.SelectMany(p => p.Values).Select(e => e.GetInt32("N")!.Value));
        // A sparse filter: pages may come back short (or empty) while the scan goes on; none is lost.
        var sparse = await table.QueryAsync<TableEntity>(e => e.GetInt32("N") >= 2490 || e.GetInt32("N") < 3).ToListAsync();
        Assert.Equal([0, 1, 2, 2490, 2491, 2492, 2493, 2494, 2495, 2496, 2497, 2498, 2499],
                     sparse.Select(e => e.GetInt32("N")!.Value));
    }
}
