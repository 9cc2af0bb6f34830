// The Durable Task side: a task hub (DurableTask.AzureStorage) whose Tables are on the endpoint
// measured and whose Blobs and Queues are on npm azurite, with the settings of
// tests/frameworks/durabletask/Support/TaskHub.cs (fast polling, 4 partitions).
using System.Diagnostics;
using Azure.Core;
using Azure.Data.Tables;
using DurableTask.AzureStorage;
using DurableTask.Core;

namespace Malachite.FrameworksBench;

// Fan-out/fan-in: `n` Square activities at once, their results summed.
public sealed class FanOut : TaskOrchestration<long, int>
{
    public override async Task<long> RunTask(OrchestrationContext context, int n)
    {
        var squares = Enumerable.Range(1, n).Select(i => context.ScheduleTask<long>(typeof(Square), i));
        return (await Task.WhenAll(squares)).Sum();
    }
}

public sealed class Square : TaskActivity<int, long>
{
    protected override long Execute(TaskContext context, int input) => (long)input * input;
}

public static class DurableTaskWorkload
{
    public static async Task<List<(string, double)>> RunAsync(string connectionString, RequestCounter counter,
                                                              BenchOptions o, string side)
    {
        var figures = new List<(string, double)>();
        var tableOptions = new TableClientOptions();
        tableOptions.AddPolicy(counter, HttpPipelinePosition.PerRetry);
        var settings = new AzureStorageOrchestrationServiceSettings
        {
            TaskHubName = "Bench" + new string(side.Where(char.IsLetterOrDigit).ToArray()) + Guid.NewGuid().ToString("N")[..8],
            StorageAccountClientProvider = new StorageAccountClientProvider(
                StorageServiceClientProvider.ForBlob(connectionString),
                StorageServiceClientProvider.ForQueue(connectionString),
                StorageServiceClientProvider.ForTable(connectionString, tableOptions)),
            MaxQueuePollingInterval = TimeSpan.FromMilliseconds(500),
            LeaseAcquireInterval = TimeSpan.FromSeconds(2),
            LeaseRenewInterval = TimeSpan.FromSeconds(2),
            PartitionCount = 4,
            WorkerId = $"malachite-bench-{Environment.ProcessId}",
        };
        var service = new AzureStorageOrchestrationService(settings);
        var clock = Stopwatch.StartNew();
        await service.CreateIfNotExistsAsync();
        var worker = new TaskHubWorker(service);
        worker.AddTaskOrchestrations(typeof(FanOut));
        worker.AddTaskActivities(typeof(Square));
        await worker.StartAsync();
        var client = new TaskHubClient(service);
        try
        {
            // One orchestration first, so the worker owns its partitions before the clock starts.
            var warm = await client.CreateOrchestrationInstanceAsync(typeof(FanOut), o.Activities);
            await Completed(client, warm, side);
            figures.Add(("Durable Task: hub start + 1 warm-up orchestration (s)", clock.Elapsed.TotalSeconds));
            Console.WriteLine($"[{side}] task hub warm in {clock.Elapsed.TotalSeconds:0.00} s");

            clock.Restart();
            var instances = await Task.WhenAll(Enumerable.Range(0, o.Orchestrations)
                .Select(_ => client.CreateOrchestrationInstanceAsync(typeof(FanOut), o.Activities)));
            double scheduled = clock.Elapsed.TotalSeconds;
            await Task.WhenAll(instances.Select(i => Completed(client, i, side)));
            double all = clock.Elapsed.TotalSeconds;
            figures.Add(($"Durable Task: schedule {o.Orchestrations} orchestrations (s)", scheduled));
            figures.Add(($"Durable Task: {o.Orchestrations} x fan-out of {o.Activities}, to all done (s)", all));
            figures.Add(("Durable Task: orchestrations completed/s", o.Orchestrations / all));
            Console.WriteLine($"[{side}] {o.Orchestrations} orchestrations completed in {all:0.00} s");
        }
        finally
        {
            await worker.StopAsync(isForced: true);
        }
        return figures;
    }

    private static async Task Completed(TaskHubClient client, OrchestrationInstance instance, string side)
    {
        var state = await client.WaitForOrchestrationAsync(instance, TimeSpan.FromMinutes(3));
        if (state?.OrchestrationStatus != OrchestrationStatus.Completed)
        {
            throw new InvalidOperationException(
                $"[{side}] {instance.InstanceId}: {state?.OrchestrationStatus.ToString() ?? "no state"}, output {state?.Output}");
        }
    }
}
