// Durable Task's own scenarios on a task hub whose Tables are Malachite's: each test runs an
// orchestration through TaskHubClient and TaskHubWorker, checks its output, then reads what the
// Azure Storage provider wrote to <hub>Instances and <hub>History with Azure.Data.Tables, and that
// Malachite answered none of the Table requests since the previous test with a 400 or a 5xx other
// than 503 ServerBusy.
using System.Diagnostics;
using DurableTask.Core;
using Malachite.DurableTask.Support;
using Xunit;

namespace Malachite.DurableTask;

[Collection("task hub")]
public sealed class OrchestrationTests(TaskHub hub) : IDisposable
{
    public void Dispose() => hub.AssertMalachiteAnsweredAsAzure();

    private static string NewId(string scenario) => $"{scenario}-{Guid.NewGuid():N}";

    private async Task<OrchestrationState> RunAsync(Type orchestration, string id, object input)
    {
        var instance = await hub.Client.CreateOrchestrationInstanceAsync(orchestration, id, input);
        return await hub.CompletedAsync(instance);
    }

    private static int Count(IEnumerable<string> events, string type) => events.Count(e => e == type);

    [Fact]
    public async Task FanOutFanInSumsTenActivitiesAndRecordsEachInHistory()
    {
        string id = NewId("fanout");
        var state = await RunAsync(typeof(SumOfSquares), id, 10);

        Assert.Equal("385", state.Output);  // 1² + 2² + ... + 10²
        var row = await hub.InstanceRowAsync(id);
        Assert.Equal("Completed", row.GetString("RuntimeStatus"));
        Assert.Equal("385", row.GetString("Output"));
        Assert.Equal(typeof(SumOfSquares).FullName, row.GetString("Name"));
        var history = await hub.HistoryEventTypesAsync(id);
        Assert.Equal(1, Count(history, "ExecutionStarted"));
        Assert.Equal(10, Count(history, "TaskScheduled"));
        Assert.Equal(10, Count(history, "TaskCompleted"));
        Assert.Equal(1, Count(history, "ExecutionCompleted"));
    }

    [Fact]
    public async Task FanOutOfAHundredCheckpointsItsHistoryInBatchesOfAHundredOperations()
    {
        // The first episode schedules 100 activities: 103 new history rows, which the provider
        // writes as a $batch of 99 rows and the sentinel row (Azure's limit of 100 operations)
        // and a second $batch with the rest.
        string id = NewId("fanout100");
        int mark = hub.Traffic.Count;
        var state = await RunAsync(typeof(SumOfSquares), id, 100);

        Assert.Equal("338350", state.Output);  // 100 * 101 * 201 / 6
        var history = await hub.HistoryEventTypesAsync(id);
        Assert.Equal(100, Count(history, "TaskScheduled"));
        Assert.Equal(100, Count(history, "TaskCompleted"));
        Assert.Equal("Completed", (await hub.InstanceRowAsync(id)).GetString("RuntimeStatus"));
        var batches = hub.Traffic.Since(mark).Where(e => e.BatchOperations != null).ToList();
        Assert.True(batches.Any(e => e.BatchOperations == 100 && e.Status == 202),
                    "no $batch of 100 operations answered 202:\n  " + string.Join("\n  ", batches));
    }

    [Fact]
    public async Task OutputJustUnderTheTablePropertyLimitStaysInTheTable()
    {
        // 30,000 characters and their JSON quotes are 60,004 bytes in UTF-16, under the provider's
        // 60 KiB threshold and Azure's 64 KiB per string property: stored in the row itself.
        string id = NewId("text30k");
        var state = await RunAsync(typeof(Text), id, 30_000);

        string expected = $"\"{new string('x', 30_000)}\"";
        Assert.Equal(expected, state.Output);
        Assert.Equal(expected, (await hub.InstanceRowAsync(id)).GetString("Output"));
    }

    [Fact]
    public async Task OutputPastTheTablePropertyLimitGoesToABlobNamedInTheRow()
    {
        string id = NewId("text100k");
        var state = await RunAsync(typeof(Text), id, 100_000);

        Assert.Equal($"\"{new string('x', 100_000)}\"", state.Output);
        // The row holds the URL of the compressed blob in <hub>-largemessages, on Azurite.
        string? output = (await hub.InstanceRowAsync(id)).GetString("Output");
        Assert.StartsWith($"{hub.BlobEndpoint}/{hub.Name.ToLowerInvariant()}-largemessages/", output);
    }

    [Fact]
    public async Task SubOrchestrationCompletesAndHasItsOwnInstanceRow()
    {
        string id = NewId("parent");
        var state = await RunAsync(typeof(GreetThroughChild), id, "Malachite");

        Assert.Equal("\"parent got: Hello, Malachite!\"", state.Output);
        var child = await hub.InstanceRowAsync(id + "-child");
        Assert.Equal("Completed", child.GetString("RuntimeStatus"));
        Assert.Equal(typeof(Greeting).FullName, child.GetString("Name"));
        Assert.Equal("\"Hello, Malachite!\"", child.GetString("Output"));
        var history = await hub.HistoryEventTypesAsync(id);
        Assert.Equal(1, Count(history, "SubOrchestrationInstanceCreated"));
        Assert.Equal(1, Count(history, "SubOrchestrationInstanceCompleted"));
        Assert.Equal(1, Count(await hub.HistoryEventTypesAsync(id + "-child"), "TaskCompleted"));
    }

    [Fact]
    public async Task DurableTimerOfThreeSecondsFiresAfterThreeSeconds()
    {
        string id = NewId("timer");
        var clock = Stopwatch.StartNew();
        var state = await RunAsync(typeof(Sleep), id, 3);

        // The timer is a control-queue message made visible FireAt - now later, and a queue's
        // visibilitytimeout is whole seconds (Azure's as Azurite's): it may fire up to a second early.
        double slept = double.Parse(state.Output, System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(slept is >= 2.0 and < 30.0, $"orchestration time across the timer: {slept} s");
        Assert.True(clock.Elapsed >= TimeSpan.FromSeconds(2), $"completed after {clock.Elapsed}");
        var history = await hub.HistoryEventTypesAsync(id);
        Assert.Equal(1, Count(history, "TimerCreated"));
        Assert.Equal(1, Count(history, "TimerFired"));
        Assert.Equal("Completed", (await hub.InstanceRowAsync(id)).GetString("RuntimeStatus"));
    }

    [Fact]
    public async Task ExternalEventRaisedByTheClientResumesAWaitingOrchestration()
    {
        string id = NewId("approval");
        var instance = await hub.Client.CreateOrchestrationInstanceAsync(typeof(AwaitApproval), id, "order 7");

        // Running in <hub>Instances: the orchestration has started and is waiting for the event.
        var deadline = DateTime.UtcNow.AddSeconds(30);
        string? status = null;
        while (DateTime.UtcNow < deadline && status != "Running")
        {
            await Task.Delay(200);
            status = (await hub.Table("Instances").GetEntityIfExistsAsync<Azure.Data.Tables.TableEntity>(id, ""))
                .Value?.GetString("RuntimeStatus");
        }
        Assert.True(status == "Running", $"RuntimeStatus {status ?? "(no row)"} after 30 s; {hub.Diagnostics()}");

        await hub.Client.RaiseEventAsync(instance, "Approval", "approved by the client");
        var state = await hub.CompletedAsync(instance);

        Assert.Equal("\"order 7: approved by the client\"", state.Output);
        Assert.Equal(1, Count(await hub.HistoryEventTypesAsync(id), "EventRaised"));
    }

    [Fact]
    public async Task ActivityThatFailsTwiceSucceedsOnItsThirdAttemptUnderRetry()
    {
        string id = NewId("retry");
        var state = await RunAsync(typeof(RetryFlaky), id, id);

        Assert.Equal("3", state.Output);
        Assert.Equal(3, Flaky.Attempts[id]);
        var history = await hub.HistoryEventTypesAsync(id);
        Assert.Equal(3, Count(history, "TaskScheduled"));
        Assert.Equal(2, Count(history, "TaskFailed"));
        Assert.Equal(1, Count(history, "TaskCompleted"));
        Assert.Equal(2, Count(history, "TimerFired"));  // the retry intervals are durable timers
    }

    [Fact]
    public async Task HundredOrchestrationsStartedAtOnceAllComplete()
    {
        string batch = NewId("many");
        string Id(int i) => $"{batch}-{i:D3}";
        var instances = await Task.WhenAll(Enumerable.Range(0, 100).Select(
            i => hub.Client.CreateOrchestrationInstanceAsync(typeof(Double), Id(i), i)));
        var states = await Task.WhenAll(instances.Select(instance => hub.CompletedAsync(instance, 120)));

        Assert.Equal(Enumerable.Range(0, 100).Select(i => (2 * i).ToString()), states.Select(s => s.Output));
        // The same 100 rows in <hub>Instances, read by a PartitionKey range as any client would.
        var rows = new List<Azure.Data.Tables.TableEntity>();
        string filter = Azure.Data.Tables.TableClient.CreateQueryFilter(
            $"PartitionKey ge {batch + "-"} and PartitionKey lt {batch + "."}");
        await foreach (var row in hub.Table("Instances").QueryAsync<Azure.Data.Tables.TableEntity>(filter))
            rows.Add(row);
        Assert.Equal(Enumerable.Range(0, 100).Select(Id), rows.Select(r => r.PartitionKey));
        Assert.All(rows, r => Assert.Equal("Completed", r.GetString("RuntimeStatus")));
        Assert.Equal(Enumerable.Range(0, 100).Select(i => (2 * i).ToString()), rows.Select(r => r.GetString("Output")));
    }
}
