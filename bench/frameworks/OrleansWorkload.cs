// The Orleans side: a 2-silo cluster as an application runs one (UseOrleans hosts on free loopback
// ports, Orleans' Azure Table clustering and grain storage given a TableServiceClient on the
// endpoint measured), as tests/frameworks/orleans/Support/Cluster.cs builds it.
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Azure.Core;
using Azure.Data.Tables;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Orleans;
using Orleans.Configuration;
using Orleans.Hosting;
using Orleans.Runtime;

namespace Malachite.FrameworksBench;

[GenerateSerializer]
public sealed class BenchState
{
    [Id(0)] public byte[] Payload { get; set; } = [];
    [Id(1)] public int Writes { get; set; }
}

public interface IBenchGrain : IGrainWithIntegerKey
{
    Task Write(byte[] payload);
    Task<int> Writes();
}

public sealed class BenchGrain([PersistentState("bench", OrleansWorkload.Storage)] IPersistentState<BenchState> state)
    : Grain, IBenchGrain
{
    public async Task Write(byte[] payload)
    {
        state.State.Payload = payload;
        state.State.Writes++;
        await state.WriteStateAsync();
    }

    public Task<int> Writes() => Task.FromResult(state.State.Writes);
}

public static class OrleansWorkload
{
    public const string Storage = "tables";

    // Wall seconds per phase and writes/s, keyed by the phase's label.
    public static async Task<List<(string, double)>> RunAsync(string connectionString, RequestCounter counter,
                                                              BenchOptions o, string side)
    {
        string serviceId = "bench-" + Guid.NewGuid().ToString("N")[..8];
        var figures = new List<(string, double)>();
        var clock = Stopwatch.StartNew();
        var cluster = await OrleansCluster.StartAsync(connectionString, counter, serviceId);
        figures.Add(("Orleans: start 2 silos + client (s)", clock.Elapsed.TotalSeconds));
        Console.WriteLine($"[{side}] Orleans cluster up in {clock.Elapsed.TotalSeconds:0.00} s");
        try
        {
            var payload = new byte[o.Payload];
            Random.Shared.NextBytes(payload);
            var client = cluster.Client;

            // Writes: every (grain, write) call, grain-major order, at most Concurrency in flight; a
            // grain's writes are sequential by Orleans' turn-based activations anyway.
            clock.Restart();
            var calls = Enumerable.Range(0, o.Grains).SelectMany(g => Enumerable.Range(0, o.Writes).Select(_ => g));
            await Parallel.ForEachAsync(calls, new ParallelOptions { MaxDegreeOfParallelism = o.Concurrency },
                                        async (g, _) => await client.GetGrain<IBenchGrain>(g).Write(payload));
            double writeSeconds = clock.Elapsed.TotalSeconds;
            figures.Add(($"Orleans: {o.Grains} grains x {o.Writes} writes (s)", writeSeconds));
            figures.Add(("Orleans: state writes/s", o.Grains * o.Writes / writeSeconds));
            Console.WriteLine($"[{side}] {o.Grains * o.Writes} writes in {writeSeconds:0.00} s");

            clock.Restart();
            await ReadAllAsync(client, o, side, "live");
            figures.Add(("Orleans: read back, live (no storage) (s)", clock.Elapsed.TotalSeconds));

            clock.Restart();
            await cluster.DisposeAsync();
            cluster = await OrleansCluster.StartAsync(connectionString, counter, serviceId);
            figures.Add(("Orleans: restart (stop + start) (s)", clock.Elapsed.TotalSeconds));
            Console.WriteLine($"[{side}] Orleans cluster restarted in {clock.Elapsed.TotalSeconds:0.00} s");

            clock.Restart();
            await ReadAllAsync(cluster.Client, o, side, "after restart");
            double cold = clock.Elapsed.TotalSeconds;
            figures.Add(("Orleans: read back after restart (s)", cold));
            figures.Add(("Orleans: grain activations (state reads)/s", o.Grains / cold));
            Console.WriteLine($"[{side}] read back after restart in {cold:0.00} s");
        }
        finally
        {
            await cluster.DisposeAsync();
        }
        return figures;
    }

    private static async Task ReadAllAsync(IClusterClient client, BenchOptions o, string side, string when)
    {
        int wrong = 0;
        await Parallel.ForEachAsync(Enumerable.Range(0, o.Grains),
                                    new ParallelOptions { MaxDegreeOfParallelism = o.Concurrency }, async (g, _) =>
        {
            if (await client.GetGrain<IBenchGrain>(g).Writes() != o.Writes) Interlocked.Increment(ref wrong);
        });
        if (wrong != 0)
            throw new InvalidOperationException($"[{side}] {wrong} grains did not read back {o.Writes} writes ({when})");
    }
}

public sealed class OrleansCluster : IAsyncDisposable
{
    private readonly List<IHost> _silos = [];
    private IHost? _client;

    public IClusterClient Client => _client!.Services.GetRequiredService<IClusterClient>();

    public static async Task<OrleansCluster> StartAsync(string connectionString, RequestCounter counter, string serviceId)
    {
        var cluster = new OrleansCluster();
        TableServiceClient Tables()
        {
            var options = new TableClientOptions();
            options.AddPolicy(counter, HttpPipelinePosition.PerRetry);
            return new TableServiceClient(connectionString, options);
        }
        try
        {
            await Task.WhenAll(Enumerable.Range(0, 2).Select(async _ =>
            {
                var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
                int siloPort = FreePort(), gatewayPort = FreePort();
                builder.UseOrleans(silo =>
                {
                    silo.Configure<ClusterOptions>(c => (c.ServiceId, c.ClusterId) = (serviceId, "bench"));
                    silo.ConfigureEndpoints(IPAddress.Loopback, siloPort, gatewayPort, listenOnAnyHostAddress: false);
                    silo.UseAzureStorageClustering(c => c.TableServiceClient = Tables());
                    silo.AddAzureTableGrainStorage(Storage, c => c.TableServiceClient = Tables());
                });
                var host = builder.Build();
                lock (cluster._silos) cluster._silos.Add(host);
                await host.StartAsync();
            }));
            var clientBuilder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
            clientBuilder.UseOrleansClient(c =>
            {
                c.Configure<ClusterOptions>(x => (x.ServiceId, x.ClusterId) = (serviceId, "bench"));
                c.UseAzureStorageClustering(x => x.TableServiceClient = Tables());
            });
            cluster._client = clientBuilder.Build();
            await cluster._client.StartAsync();
        }
        catch
        {
            await cluster.DisposeAsync();
            throw;
        }
        return cluster;
    }

    private const string Storage = OrleansWorkload.Storage;

    // The client, then each silo gracefully (it marks its membership row Dead).
    public async ValueTask DisposeAsync()
    {
        if (_client != null)
        {
            await _client.StopAsync();
            _client.Dispose();
            _client = null;
        }
        await Task.WhenAll(_silos.Select(async silo =>
        {
            await silo.StopAsync();
            silo.Dispose();
        }));
        _silos.Clear();
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
