// Every request DurableTask.AzureStorage sends to Malachite's Table endpoint and its status, so that a
// difference from Azure Table storage shows as the exchange that tripped it, not as a hung
// orchestration.
using Azure.Core;
using Azure.Core.Pipeline;
using System.Text;
using System.Text.RegularExpressions;

namespace Malachite.DurableTask.Support;

public sealed class TableTraffic : HttpPipelineSynchronousPolicy
{
    // BatchOperations: for a $batch, the operations in its change set (the request lines in its body).
    public sealed record Exchange(string Method, string PathAndQuery, int Status, string? ErrorCode,
                                  int? BatchOperations)
    {
        public override string ToString() =>
            $"{Method} {PathAndQuery}{(BatchOperations is { } n ? $" ({n} operations)" : "")} -> {Status}" +
            (ErrorCode is null ? "" : " " + ErrorCode);
    }

    private readonly List<Exchange> _exchanges = new();
    private int _taken;

    public int Count
    {
        get { lock (_exchanges) return _exchanges.Count; }
    }

    // The exchanges a client of Azure Table storage does not see in normal operation: a 400 (the
    // request was refused as malformed) or a 5xx other than 503 ServerBusy. 404, 409 and 412 are
    // Durable Task's ordinary answers (a table or row not there yet, a lease or checkpoint raced by
    // another writer); 503 ServerBusy is Azure's answer past its scalability targets, which
    // Malachite enforces by default (docs/THROTTLING.md) and the SDK retries.
    // The exchanges from the `since`th on (a test passes Count as it was before it started).
    public IReadOnlyList<Exchange> Since(int since)
    {
        lock (_exchanges) return _exchanges.Skip(since).ToList();
    }

    public IReadOnlyList<Exchange> Unexpected()
    {
        lock (_exchanges) return _exchanges.Where(IsUnexpected).ToList();
    }

    // The unexpected exchanges since the last call (since the start, the first time): each test
    // takes those of its own run and of the worker's background work (lease renewals, polling)
    // since the test before it.
    public IReadOnlyList<Exchange> TakeUnexpected()
    {
        lock (_exchanges)
        {
            var taken = _exchanges.Skip(_taken).Where(IsUnexpected).ToList();
            _taken = _exchanges.Count;
            return taken;
        }
    }

    private static int? BatchOperations(Request request)
    {
        if (!request.Uri.Path.EndsWith("/$batch") || request.Content == null) return null;
        using var body = new MemoryStream();
        request.Content.WriteTo(body, CancellationToken.None);
        return Regex.Matches(Encoding.UTF8.GetString(body.ToArray()), @"^(POST|PUT|PATCH|MERGE|DELETE|GET) \S+ HTTP/1\.1\r?$",
                             RegexOptions.Multiline).Count;
    }

    private static bool IsUnexpected(Exchange e) =>
        e.Status == 400 || (e.Status >= 500 && !(e.Status == 503 && e.ErrorCode == "ServerBusy"));

    // One line per (method, status, error code) with its count, most frequent first.
    public string Summary()
    {
        lock (_exchanges)
        {
            return string.Join("\n", _exchanges.GroupBy(e => $"{e.Method} {e.Status} {e.ErrorCode}")
                                                .OrderByDescending(g => g.Count())
                                                .Select(g => $"{g.Count(),6} {g.Key}"));
        }
    }

    public override void OnReceivedResponse(HttpMessage message)
    {
        message.Response.Headers.TryGetValue("x-ms-error-code", out string? code);
        var exchange = new Exchange(message.Request.Method.Method, message.Request.Uri.ToUri().PathAndQuery,
                                    message.Response.Status, code, BatchOperations(message.Request));
        lock (_exchanges) _exchanges.Add(exchange);
    }
}
