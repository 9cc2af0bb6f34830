// serve: starts a server, prints "runner <pid> server <pid> port <port>" and waits for ever (the
//        SIGKILL test kills this process and watches the server's pid).
// bench [runs]: StartAsync -> first successful TableClient call (CreateIfNotExists), median and p95
//        of <runs> (default 10), then 100 parallel "tests", each creating an account, a table, an
//        upsert and a read, and deleting the account. Prints figures; asserts nothing about time.
// resolve [linux|windows <x64|arm64>]: prints the binary MalachiteServer.ResolveBinary names for
//        that platform (default: this one), or the MalachiteException's message (exit status 1).
using System.Diagnostics;
using System.Runtime.InteropServices;
using Azure.Data.Tables;
using Malachite;

switch (args.FirstOrDefault())
{
    case "serve":
    {
        var server = await MalachiteServer.StartAsync();
        Console.WriteLine($"runner {Environment.ProcessId} server {server.ProcessId} port {server.Port}");
        await Task.Delay(Timeout.Infinite);
        return 0;
    }
    case "bench":
        return await Bench(args.Length > 1 ? int.Parse(args[1]) : 10);
    case "resolve":
        try
        {
            Console.WriteLine(args.Length > 2
                ? MalachiteServer.ResolveBinary(null, args[1] == "windows" ? OSPlatform.Windows : OSPlatform.Linux,
                                                Enum.Parse<Architecture>(args[2], ignoreCase: true))
                : MalachiteServer.ResolveBinary());
            return 0;
        }
        catch (MalachiteException e)
        {
            Console.WriteLine(e.Message);
            return 1;
        }
    default:
        Console.Error.WriteLine("usage: Malachite.Examples.Console serve | bench [runs] | resolve [linux|windows <x64|arm64>]");
        return 2;
}

static async Task<int> Bench(int runs)
{
    // The first run also pays for loading Azure.Core and the JIT: it is printed apart.
    var times = new List<double>();
    var starts = new List<double>();
    var stops = new List<double>();
    for (int i = 0; i <= runs; i++)
    {
        var clock = Stopwatch.StartNew();
        var server = await MalachiteServer.StartAsync();
        double started = clock.Elapsed.TotalMilliseconds;
        var table = new TableClient(server.ConnectionString, "bench");
        await table.CreateIfNotExistsAsync();
        double first = clock.Elapsed.TotalMilliseconds;
        clock.Restart();
        await server.StopAsync();
        double stopped = clock.Elapsed.TotalMilliseconds;
        if (i == 0)
        {
            Console.WriteLine($"bench: first run (cold JIT) {first:F1} ms (StartAsync {started:F1} ms)");
            continue;
        }
        times.Add(first);
        starts.Add(started);
        stops.Add(stopped);
    }
    static string Median(List<double> values) => values.Order().ElementAt(values.Count / 2).ToString("F1");
    times.Sort();
    Console.WriteLine($"bench: StartAsync -> first TableClient call: median {Median(times)} ms, " +
                      $"p95 {times[(int)Math.Ceiling(times.Count * 0.95) - 1]:F1} ms, min {times[0]:F1} ms over {runs} runs " +
                      $"(target <= 100 ms); StartAsync alone median {Median(starts)} ms, StopAsync median {Median(stops)} ms");

    await using (var server = await MalachiteServer.StartAsync())
    {
        async Task OneTest(int n)
        {
            await using var account = await server.CreateAccountAsync();
            var table = new TableClient(account.ConnectionString, "items");
            await table.CreateAsync();
            await table.UpsertEntityAsync(new TableEntity("p", n.ToString()) { ["N"] = n });
            var read = await table.GetEntityAsync<TableEntity>("p", n.ToString());
            if (read.Value.GetInt32("N") != n) throw new InvalidOperationException($"test {n} read another value");
        }
        await OneTest(-1);  // warm the clients' code paths once
        var clock = Stopwatch.StartNew();
        await Task.WhenAll(Enumerable.Range(0, 100).Select(OneTest));
        Console.WriteLine($"bench: 100 parallel tests (account, table, upsert, read, delete account): " +
                          $"{clock.Elapsed.TotalMilliseconds:F0} ms in all (target <= 1000 ms)");
    }
    return 0;
}
