// The typed entity of docs/CONNECTING.md ("Connect with .NET"), used by its snippet's test.
using Azure;
using Azure.Data.Tables;

namespace Malachite.E2E.Readme;

public class Order : ITableEntity
{
    public string PartitionKey { get; set; } = "";  // e.g. the customer
    public string RowKey { get; set; } = "";        // e.g. the order number
    public DateTimeOffset? Timestamp { get; set; }
    public ETag ETag { get; set; }
    public long Amount { get; set; }
    public DateTimeOffset PlacedAt { get; set; }
}
