// Starting the servers (Malachite through its published launcher, npm azurite's services as
// processes), the options, and a count of the Table requests each side answered.
using Azure.Core;
using Azure.Core.Pipeline;
using Malachite.DurableTask.Support;

namespace Malachite.FrameworksBench;

public sealed record BenchOptions(int Grains, int Writes, int Concurrency, int Orchestrations, int Activities,
                                  int Payload, bool Warmup)
{
    public static BenchOptions Parse(string[] args)
    {
        var o = new BenchOptions(2000, 5, 64, 100, 4, 256, true);
        for (int i = 0; i < args.Length; i++)
        {
            string value = i + 1 < args.Length ? args[i + 1] : throw new ArgumentException($"{args[i]} needs a value");
            int n = int.Parse(value);
            o = args[i] switch
            {
                "--grains" => o with { Grains = n },
                "--writes" => o with { Writes = n },
                "--concurrency" => o with { Concurrency = n },
                "--orchestrations" => o with { Orchestrations = n },
                "--activities" => o with { Activities = n },
                "--payload" => o with { Payload = n },
                "--warmup" => o with { Warmup = n != 0 },
                _ => throw new ArgumentException($"unknown option {args[i]} (--grains --writes --concurrency " +
                                                 "--orchestrations --activities --payload --warmup)"),
            };
            i++;
        }
        return o;
    }
}

public static class Endpoints
{
    public const string WellKnownKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    public static string ConnectionString(string tableEndpoint, string? blob = null, string? queue = null) =>
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={WellKnownKey};" +
        (blob != null ? $"BlobEndpoint={blob};" : "") + (queue != null ? $"QueueEndpoint={queue};" : "") +
        $"TableEndpoint={tableEndpoint};";

    // A free port, a fresh data directory on disk (removed at stop), throttling off (Azurite has
    // none; Malachite's default answers 503 ServerBusy over Azure's per-partition targets).
    public static Task<MalachiteServer> StartMalachiteAsync()
    {
        var options = new MalachiteOptions
        {
            InMemory = false,
            StartTimeout = TimeSpan.FromSeconds(30),
            ExtraArguments = ["--log-level", "warn", "--throttling", "off"],
        };
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("MALACHITE_BINARY")))
            options.BinaryPath = Path.Combine(Repository.Root(), "build", "Release", "malachite");
        return MalachiteServer.StartAsync(options);
    }
}

// Counts the Table requests of one side (each try, retries included) and those answered 5xx.
public sealed class RequestCounter : HttpPipelineSynchronousPolicy
{
    private long _total, _serverErrors;

    public override void OnReceivedResponse(HttpMessage message)
    {
        Interlocked.Increment(ref _total);
        if (message.Response.Status >= 500) Interlocked.Increment(ref _serverErrors);
    }

    public override string ToString() => $"{Interlocked.Read(ref _total)} ({Interlocked.Read(ref _serverErrors)} 5xx)";
}
