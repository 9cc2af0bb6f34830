// One task hub for the whole run: Malachite (its Table endpoint) started by the published launcher,
// npm azurite's Blob and Queue services, an AzureStorageOrchestrationService over the three, a
// TaskHubWorker with every orchestration and activity of this project registered, and a
// TaskHubClient. xUnit shares it across the test classes of the "task hub" collection.
using Azure.Data.Tables;
using DurableTask.AzureStorage;
using DurableTask.Core;
using Xunit;

namespace Malachite.DurableTask.Support;

public sealed class TaskHub : IAsyncLifetime
{
    private const string WellKnownKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private MalachiteServer? _malachite;
    private AzuriteService? _blob;
    private AzuriteService? _queue;
    private TaskHubWorker? _worker;

    // Letters and digits, as Durable Task requires; fresh per run so reruns never share state.
    public string Name { get; } = "Malachite" + Guid.NewGuid().ToString("N")[..8];

    public MalachiteServer Malachite => _malachite ?? throw new InvalidOperationException("not started");

    // AzureWebJobsStorage-style: Blob and Queue on Azurite, Table on Malachite, one account and key.
    public string ConnectionString { get; private set; } = "";

    public string BlobEndpoint => _blob?.Endpoint ?? throw new InvalidOperationException("not started");

    public TableTraffic Traffic { get; } = new();

    public TaskHubClient Client { get; private set; } = null!;

    public AzureStorageOrchestrationService Service { get; private set; } = null!;

    // Whatever started is stopped again if a later step fails, so no Azurite or Malachite outlives
    // a failed start (DisposeAsync may then run twice: the second time it finds nothing to stop).
    public async Task InitializeAsync()
    {
        try
        {
            await StartAsync();
        }
        catch
        {
            try
            {
                await DisposeAsync();
            }
            catch (InvalidOperationException)
            {
                // The start's own failure is the one to report.
            }
            throw;
        }
    }

    private async Task StartAsync()
    {
        _blob = await AzuriteService.StartAsync("blob");
        _queue = await AzuriteService.StartAsync("queue");
        _malachite = await MalachiteServer.StartAsync(new MalachiteOptions
        {
            StartTimeout = TimeSpan.FromSeconds(30),
            ExtraArguments = ["--log-level", "warn"],
            BinaryPath = string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MALACHITE_BINARY"))
                ? Path.Combine(Repository.Root(), "build", "Release", "malachite")
                : null,
        });
        ConnectionString = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;" +
                           $"AccountKey={WellKnownKey};BlobEndpoint={_blob.Endpoint};" +
                           $"QueueEndpoint={_queue.Endpoint};TableEndpoint={_malachite.TableUrl};";

        var tableOptions = new TableClientOptions();
        tableOptions.AddPolicy(Traffic, Azure.Core.HttpPipelinePosition.PerRetry);
        var settings = new AzureStorageOrchestrationServiceSettings
        {
            TaskHubName = Name,
            StorageAccountClientProvider = new StorageAccountClientProvider(
                StorageServiceClientProvider.ForBlob(ConnectionString),
                StorageServiceClientProvider.ForQueue(ConnectionString),
                StorageServiceClientProvider.ForTable(ConnectionString, tableOptions)),
            // Speed, not production values: an idle queue is polled at least every 500 ms (default
            // 30 s) and the partition leases (here in the <hub>Partitions table) are claimed and
            // renewed every 2 s (default 10 s), so a durable timer or a new instance waits at most
            // about half a second for the worker.
            MaxQueuePollingInterval = TimeSpan.FromMilliseconds(500),
            LeaseAcquireInterval = TimeSpan.FromSeconds(2),
            LeaseRenewInterval = TimeSpan.FromSeconds(2),
            PartitionCount = 4,
            WorkerId = $"malachite-test-{Environment.ProcessId}",
        };
        Service = new AzureStorageOrchestrationService(settings);
        await Service.CreateIfNotExistsAsync();
        _worker = new TaskHubWorker(Service);
        _worker.AddTaskOrchestrations(Orchestrations.All);
        _worker.AddTaskActivities(Activities.All);
        await _worker.StartAsync();
        Client = new TaskHubClient(Service);
    }

    public async Task DisposeAsync()
    {
        if (_worker != null) await _worker.StopAsync(isForced: true);
        if (_blob != null) await _blob.DisposeAsync();
        if (_queue != null) await _queue.DisposeAsync();
        _worker = null;
        _blob = _queue = null;
        // MALACHITE_DURABLETASK_TRAFFIC=<file>: what the hub asked Malachite, counted by method and status.
        if (Environment.GetEnvironmentVariable("MALACHITE_DURABLETASK_TRAFFIC") is { Length: > 0 } file)
            await File.WriteAllTextAsync(file, Traffic.Summary() + "\n");
        if (_malachite == null) return;
        // A server that died under the task hub (a crash, a sanitizer report) fails the run.
        var malachite = _malachite;
        _malachite = null;
        bool diedFirst = malachite.HasExited;
        await malachite.StopAsync();
        if (diedFirst || malachite.ExitCode is not (0 or 143))
        {
            throw new InvalidOperationException(
                $"malachite (pid {malachite.ProcessId}) exited with {malachite.ExitCode}" +
                $"{(diedFirst ? " before it was stopped" : "")}:\n" + string.Join("\n", malachite.RecentOutput));
        }
    }

    // The hub's tables on Malachite, read with Azure.Data.Tables as any client would.
    public TableClient Table(string suffix) => new(Malachite.ConnectionString, Name + suffix);

    // The instance's row in <hub>Instances (PartitionKey: the instance id, RowKey: "").
    public async Task<TableEntity> InstanceRowAsync(string instanceId) =>
        (await Table("Instances").GetEntityAsync<TableEntity>(instanceId, "")).Value;

    // The EventType of each of the instance's rows in <hub>History, in RowKey (sequence) order;
    // the sentinel row, which has none, is left out.
    public async Task<List<string>> HistoryEventTypesAsync(string instanceId)
    {
        var types = new List<string>();
        string filter = TableClient.CreateQueryFilter($"PartitionKey eq {instanceId}");
        await foreach (var row in Table("History").QueryAsync<TableEntity>(filter))
        {
            if (row.GetString("EventType") is { } type) types.Add(type);
        }
        return types;
    }

    // Waits for the instance to finish and returns its state; fails the test, with the Table
    // exchanges Azure would not have answered that way, if it is not Completed.
    public async Task<OrchestrationState> CompletedAsync(OrchestrationInstance instance, int seconds = 60)
    {
        var state = await Client.WaitForOrchestrationAsync(instance, TimeSpan.FromSeconds(seconds));
        Assert.True(state?.OrchestrationStatus == OrchestrationStatus.Completed,
                    $"{instance.InstanceId}: {state?.OrchestrationStatus.ToString() ?? "no state"} " +
                    $"after {seconds} s, output {state?.Output}; {Diagnostics()}");
        return state!;
    }

    // Fails the test if Malachite answered a Table request with a 400 or a 5xx other than 503
    // ServerBusy since the last check, listing the exchanges: a difference from Azure Table
    // storage, named by its request.
    public void AssertMalachiteAnsweredAsAzure()
    {
        var unexpected = Traffic.TakeUnexpected();
        Assert.True(unexpected.Count == 0,
                    $"Malachite answered {unexpected.Count} of Durable Task's Table requests (during this " +
                    "test or the worker's background work before it) as Azure would not:\n  " +
                    string.Join("\n  ", unexpected.Take(20)));
    }

    // What a failure message needs: the unexpected Table exchanges and how many there were in all.
    public string Diagnostics()
    {
        var unexpected = Traffic.Unexpected();
        return $"{Traffic.Count} Table requests to Malachite, {unexpected.Count} answered 400 or 5xx (not ServerBusy)" +
               string.Concat(unexpected.Take(20).Select(e => "\n  " + e));
    }
}

[CollectionDefinition("task hub")]
public sealed class TaskHubCollection : ICollectionFixture<TaskHub>;
