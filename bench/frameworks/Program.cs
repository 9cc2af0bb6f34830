// Issue 41's benchmark: the same Orleans workload and the same Durable Task scenario run against
// Malachite and against npm azurite's Table service, back to back in one process, and a table of
// wall times and rates with how many times faster Malachite was (under 1: Azurite was faster).
//
//   dotnet run -c Release --project bench/frameworks -- [--grains 2000] [--writes 5]
//       [--concurrency 64] [--orchestrations 100] [--activities 4] [--payload 256] [--warmup 1]
//
// Orleans: a 2-silo cluster (UseOrleans hosts, Azure Table clustering and grain storage on the
// Table endpoint measured); N grains x W state writes, at most C calls in flight; the grains read
// back (live activations); the cluster stopped and a new one started; the grains read back again
// (each activation reads its state from the table). Durable Task: a task hub (DurableTask.AzureStorage)
// with its Tables on the endpoint measured and its Blobs and Queues on azurite-blob / azurite-queue
// (shared by both sides), one warm-up orchestration, then M orchestrations scheduled at once, each
// a fan-out of A activities; the time from the first schedule to the last completion.
//
// Malachite: build/Release/malachite (or MALACHITE_BINARY), fresh data directory on disk,
// --throttling off. Azurite: node_modules/.bin/azurite-table --inMemoryPersistence.
using System.Diagnostics;
using Malachite.DurableTask.Support;
using Malachite.FrameworksBench;

var options = BenchOptions.Parse(args);
Console.WriteLine($"frameworks bench: {options}");

await using var blob = await AzuriteService.StartAsync("blob");
await using var queue = await AzuriteService.StartAsync("queue");
await using var malachite = await Endpoints.StartMalachiteAsync();
await using var azuriteTable = await AzuriteService.StartAsync("table");

var sides = new (string Name, string Tables)[]
{
    ("Malachite", malachite.TableUrl),
    ("Azurite", azuriteTable.Endpoint),
};
var results = new Dictionary<string, Dictionary<string, double>>();
var requests = new Dictionary<string, string>();
foreach (var (name, _) in sides) results[name] = new();

// A small unmeasured pass first on both sides, so .NET's JIT and the first connections are not
// counted against whichever side comes first, and both start with Orleans' tables created.
if (options.Warmup)
{
    var small = options with { Grains = 50, Writes = 1, Orchestrations = 5 };
    Console.WriteLine("warm-up (not measured):");
    foreach (var (name, tables) in sides)
    {
        await OrleansWorkload.RunAsync(Endpoints.ConnectionString(tables), new RequestCounter(), small, $"warm-up {name}");
        await DurableTaskWorkload.RunAsync(Endpoints.ConnectionString(tables, blob.Endpoint, queue.Endpoint),
                                           new RequestCounter(), small, $"warm-up {name}");
    }
}

// Each workload on both sides back to back, so a noisy moment of the (shared) machine hits both.
foreach (var (name, tables) in sides)
{
    var counter = new RequestCounter();
    var figures = await OrleansWorkload.RunAsync(Endpoints.ConnectionString(tables), counter, options, name);
    foreach (var (phase, value) in figures) results[name][phase] = value;
    requests[name] = $"Orleans: {counter}";
}
foreach (var (name, tables) in sides)
{
    var counter = new RequestCounter();
    string connection = Endpoints.ConnectionString(tables, blob.Endpoint, queue.Endpoint);
    var figures = await DurableTaskWorkload.RunAsync(connection, counter, options, name);
    foreach (var (phase, value) in figures) results[name][phase] = value;
    requests[name] += $"; Durable Task: {counter}";
}

Console.WriteLine();
// The last column: how many times faster Malachite was (Azurite's time / Malachite's, or
// Malachite's rate / Azurite's); under 1, Azurite was faster.
Console.WriteLine($"{"phase",-56} {"Malachite",10} {"Azurite",10} {"Malachite x faster",19}");
foreach (var phase in results["Malachite"].Keys)
{
    double m = results["Malachite"][phase], a = results["Azurite"][phase];
    double faster = phase.EndsWith("/s") ? m / a : a / m;
    Console.WriteLine($"{phase,-56} {m,10:0.00} {a,10:0.00} {faster,19:0.00}");
}
Console.WriteLine();
foreach (var (name, line) in requests) Console.WriteLine($"{name} Table requests: {line}");
