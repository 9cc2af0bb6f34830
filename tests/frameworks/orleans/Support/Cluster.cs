// An Orleans cluster as an application runs one: silos and a client, each a .NET host built with
// UseOrleans / UseOrleansClient, on free loopback ports, whose clustering, grain storage and
// reminders are Orleans' Azure Table providers, each given a TableServiceClient on Malachite's
// connection string.
using System.Net;
using System.Net.Sockets;
using Azure.Core;
using Azure.Data.Tables;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Orleans;
using Orleans.Configuration;
using Orleans.Hosting;
using Orleans.Runtime;
using Xunit;

namespace Malachite.Frameworks.Orleans.Support;

public sealed class Cluster : IAsyncDisposable
{
    // The tables Orleans' providers use by default.
    public const string MembershipTable = "OrleansSiloInstances";
    public const string GrainStateTable = "OrleansGrainState";
    public const string RemindersTable = "OrleansReminders";

    // The name grains give [PersistentState(..., Storage)].
    public const string Storage = "tables";

    private readonly string _connectionString;
    private readonly string _serviceId;
    private readonly string _clusterId;
    private readonly Action<ClusterMembershipOptions>? _membership;
    private readonly List<IHost> _silos = [];
    private readonly Traffic _traffic = new();
    private IHost? _client;

    private Cluster(string connectionString, string serviceId, string clusterId,
                    Action<ClusterMembershipOptions>? membership)
    {
        _connectionString = connectionString;
        _serviceId = serviceId;
        _clusterId = clusterId;
        _membership = membership;
    }

    public IClusterClient Client => _client?.Services.GetRequiredService<IClusterClient>()
                                    ?? throw new InvalidOperationException("no client");

    public IReadOnlyList<IHost> Silos => _silos;

    public string ClusterId => _clusterId;

    // Starts `silos` silos of the cluster `clusterId` of the service `serviceId` at once (they join
    // concurrently, racing on the membership table's version row), then a client that finds them
    // through the same table. `membership` adjusts ClusterMembershipOptions (e.g. short probe timeouts).
    public static async Task<Cluster> StartAsync(MalachiteServer server, string serviceId, string clusterId,
                                                 int silos = 2, Action<ClusterMembershipOptions>? membership = null)
    {
        var cluster = new Cluster(server.ConnectionString, serviceId, clusterId, membership);
        try
        {
            await Task.WhenAll(Enumerable.Range(0, silos).Select(_ => cluster.StartSiloAsync()));
            await cluster.StartClientAsync();
        }
        catch
        {
            await cluster.DisposeAsync();
            throw;
        }
        return cluster;
    }

    public static SiloAddress AddressOf(IHost silo) => silo.Services.GetRequiredService<ILocalSiloDetails>().SiloAddress;

    // Fails, listing them, if Malachite answered any request of this cluster's silos or client
    // with a 400 or a 5xx.
    public void AssertNothingRefused()
    {
        var refused = _traffic.Refused;
        Assert.True(refused.Count == 0,
                    $"Malachite answered {refused.Count} of Orleans' requests with a 400 or a 5xx:\n" +
                    string.Join("\n", refused));
    }

    private TableServiceClient Tables()
    {
        var options = new TableClientOptions();
        options.AddPolicy(_traffic, HttpPipelinePosition.PerRetry);
        return new TableServiceClient(_connectionString, options);
    }

    // MALACHITE_ORLEANS_LOG=Information (a LogLevel) writes the silos' logs to the console.
    public async Task<IHost> StartSiloAsync()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        int siloPort = FreePort(), gatewayPort = FreePort();
        if (Environment.GetEnvironmentVariable("MALACHITE_ORLEANS_LOG") is { Length: > 0 } level)
            builder.Logging.AddSimpleConsole(o => o.SingleLine = true).SetMinimumLevel(Enum.Parse<LogLevel>(level));
        builder.UseOrleans(silo =>
        {
            silo.Configure<ClusterOptions>(o => (o.ServiceId, o.ClusterId) = (_serviceId, _clusterId));
            silo.ConfigureEndpoints(IPAddress.Loopback, siloPort, gatewayPort, listenOnAnyHostAddress: false);
            silo.UseAzureStorageClustering(o => o.TableServiceClient = Tables());
            silo.AddAzureTableGrainStorage(Storage, o => o.TableServiceClient = Tables());
            silo.UseAzureTableReminderService(o => o.TableServiceClient = Tables());
            // Orleans refuses reminder periods under one minute by default; one second keeps the
            // reminder test short.
            silo.Configure<ReminderOptions>(o => o.MinimumReminderPeriod = TimeSpan.FromSeconds(1));
            if (_membership != null) silo.Configure(_membership);
        });
        var host = builder.Build();
        lock (_silos) _silos.Add(host);
        await host.StartAsync();
        return host;
    }

    private async Task StartClientAsync()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.UseOrleansClient(client =>
        {
            client.Configure<ClusterOptions>(o => (o.ServiceId, o.ClusterId) = (_serviceId, _clusterId));
            client.UseAzureStorageClustering(o => o.TableServiceClient = Tables());
        });
        _client = builder.Build();
        await _client.StartAsync();
    }

    // A graceful stop: the silo leaves the cluster, marking its own membership row Dead.
    public async Task StopSiloAsync(IHost silo)
    {
        _silos.Remove(silo);
        await silo.StopAsync();
        silo.Dispose();
    }

    // What Orleans.TestingHost calls a kill: the host stopped with a token already cancelled, so
    // the silo skips its graceful shutdown (it still tries, for up to a minute each, to write
    // Stopping and then Dead into its own row).
    public async Task KillSiloAsync(IHost silo)
    {
        _silos.Remove(silo);
        await silo.StopAsync(new CancellationToken(canceled: true));
        silo.Dispose();
    }

    // Stops the client, then every silo gracefully.
    public async ValueTask DisposeAsync()
    {
        if (_client != null)
        {
            await _client.StopAsync();
            _client.Dispose();
            _client = null;
        }
        foreach (var silo in _silos.ToList()) await StopSiloAsync(silo);
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
