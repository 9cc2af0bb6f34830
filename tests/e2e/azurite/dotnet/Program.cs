// Starts the image given as the first argument as Testcontainers.Azurite's AzuriteBuilder does
// (testcontainers-dotnet src/Testcontainers.Azurite/AzuriteBuilder.cs: Init() and Build()), builds
// the connection string as its AzuriteConnectionStringProvider does, and uses all three services.
// Prints one line per step; exit status 0 when every result is the expected one, 1 otherwise.
using System.Text;
using Azure;
using Azure.Data.Tables;
using Azure.Storage.Blobs;
using Azure.Storage.Queues;
using DotNet.Testcontainers.Builders;

const string account = "devstoreaccount1";
const string key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
if (args.Length != 1)
{
    Console.Error.WriteLine("usage: dotnet run -- <image>");
    return 2;
}

var started = DateTime.UtcNow;
await using var container = new ContainerBuilder(args[0])
    .WithPortBinding(10000, true)
    .WithPortBinding(10001, true)
    .WithPortBinding(10002, true)
    .WithEntrypoint("azurite")
    .WithCommand("--blobHost", "0.0.0.0", "--queueHost", "0.0.0.0", "--tableHost", "0.0.0.0")
    .WithWaitStrategy(Wait.ForUnixContainer()
        .UntilMessageIsLogged("Blob service is successfully listening")
        .UntilMessageIsLogged("Queue service is successfully listening")
        .UntilMessageIsLogged("Table service is successfully listening"))
    .Build();
await container.StartAsync();
Console.WriteLine($"started and ready in {(DateTime.UtcNow - started).TotalMilliseconds:F0} ms");

string Endpoint(int port) => $"http://{container.Hostname}:{container.GetMappedPublicPort(port)}/{account}";
var connectionString = $"DefaultEndpointsProtocol=http;AccountName={account};AccountKey={key};" +
                       $"BlobEndpoint={Endpoint(10000)};QueueEndpoint={Endpoint(10001)};TableEndpoint={Endpoint(10002)};";

var failures = 0;
void Expect(string step, object actual, object expected)
{
    var ok = Equals(actual.ToString(), expected.ToString());
    if (!ok) failures++;
    Console.WriteLine($"{(ok ? "ok" : "FAILED")}: {step}: {actual}{(ok ? "" : $" (expected {expected})")}");
}

// Blob and Queue are real Azurite 3.37, which refuses x-ms-version past 2026-06-06 unless started
// with --skipApiVersionCheck; these clients default to 2026-10-06, so they are pinned (the Table
// client needs nothing: Malachite accepts versions up to a year ahead).
var blobs = new BlobContainerClient(connectionString, "dotnet",
                                    new BlobClientOptions(BlobClientOptions.ServiceVersion.V2026_06_06));
await blobs.CreateAsync();
await blobs.GetBlobClient("hello.txt").UploadAsync(BinaryData.FromString("hello from .NET"));
var downloaded = await blobs.GetBlobClient("hello.txt").DownloadContentAsync();
Expect("blob upload and download", downloaded.Value.Content.ToString(), "hello from .NET");

var queue = new QueueClient(connectionString, "dotnet",
                            new QueueClientOptions(QueueClientOptions.ServiceVersion.V2026_06_06));
await queue.CreateAsync();
await queue.SendMessageAsync("a message");
var received = await queue.ReceiveMessageAsync();
Expect("queue send and receive", received.Value.MessageText, "a message");

var table = new TableClient(connectionString, "dotnet");
await table.CreateAsync();
await table.AddEntityAsync(new TableEntity("p", "001") { ["Amount"] = 12.5 });
var batch = Enumerable.Range(2, 24)
    .Select(i => new TableTransactionAction(TableTransactionActionType.UpsertReplace,
                                            new TableEntity("p", i.ToString("D3")) { ["Amount"] = i * 1.0 }))
    .ToList();
var batchResult = await table.SubmitTransactionAsync(batch);
Expect("batch of 24 upserts", batchResult.Value.Count, 24);
var entity = await table.GetEntityAsync<TableEntity>("p", "001");
entity.Value["Amount"] = 13.5;
await table.UpdateEntityAsync(entity.Value, entity.Value.ETag, TableUpdateMode.Replace);
Expect("point read after update", (await table.GetEntityAsync<TableEntity>("p", "001")).Value.GetDouble("Amount")!, 13.5);
var pages = new List<int>();
await foreach (var page in table.QueryAsync<TableEntity>("PartitionKey eq 'p'", maxPerPage: 10).AsPages())
{
    pages.Add(page.Values.Count);
}
Expect("query pages of 10", string.Join(",", pages), "10,10,5");
await table.DeleteEntityAsync("p", "001");
try
{
    await table.GetEntityAsync<TableEntity>("p", "001");
    Expect("read after delete", "found", "404");
}
catch (RequestFailedException e)
{
    Expect("read after delete", e.Status, 404);
}
await table.DeleteAsync();
Console.WriteLine(failures == 0 ? "all steps ok" : $"{failures} step(s) failed");
return failures == 0 ? 0 : 1;
