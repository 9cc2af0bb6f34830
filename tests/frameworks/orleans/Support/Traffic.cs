// What Orleans' providers asked of Malachite: an Azure.Core pipeline policy on every
// TableServiceClient a Cluster gives them, keeping the requests Malachite answered with a 400 or a
// 5xx (Orleans' own conflicts are 404, 409 and 412; a 400 or a 5xx means Malachite refused or
// failed something Azure Table storage accepts).
using Azure.Core;
using Azure.Core.Pipeline;

namespace Malachite.Frameworks.Orleans.Support;

public sealed class Traffic : HttpPipelineSynchronousPolicy
{
    private readonly List<string> _refused = [];

    // "<status> <method> <path and query>" of each such response, in order.
    public IReadOnlyList<string> Refused
    {
        get { lock (_refused) return _refused.ToList(); }
    }

    public override void OnReceivedResponse(HttpMessage message)
    {
        int status = message.Response.Status;
        if (status != 400 && status < 500) return;
        var uri = message.Request.Uri.ToUri();
        lock (_refused) _refused.Add($"{status} {message.Request.Method} {uri.PathAndQuery}");
    }
}
