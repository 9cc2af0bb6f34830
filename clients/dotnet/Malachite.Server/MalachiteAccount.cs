using Malachite.Shared;

namespace Malachite;

/// <summary>
/// An account made at run time by <see cref="MalachiteServer.CreateAccountAsync"/>: its own
/// tables, isolated from every other account's, for one test. Disposing it deletes it (its tables
/// are reclaimed in the background).
/// </summary>
public sealed class MalachiteAccount : IAsyncDisposable
{
    private readonly MalachiteServer _server;
    private int _deleted;

    internal MalachiteAccount(MalachiteServer server, AccountInfo info)
    {
        _server = server;
        Name = info.Name;
        Key = info.Key;
        ConnectionString = info.ConnectionString;
        TableUri = info.TableUri;
        Created = info.Created;
    }

    /// <summary>The account's name (3-24 lowercase letters and digits).</summary>
    public string Name { get; }

    /// <summary>The account's key (base64), for Shared Key signing.</summary>
    public string Key { get; }

    /// <summary>A connection string for the account, e.g. for <c>new TableServiceClient(...)</c>:
    /// <c>DefaultEndpointsProtocol=http;AccountName=...;AccountKey=...;TableEndpoint=...;</c></summary>
    public string ConnectionString { get; }

    /// <summary>The account's table endpoint, <c>http://127.0.0.1:&lt;port&gt;/&lt;name&gt;</c>.</summary>
    public Uri TableUri { get; }

    /// <summary><see cref="TableUri"/> as a string.</summary>
    public string TableUrl => TableUri.OriginalString;

    /// <summary>When the server made the account, if it said.</summary>
    public DateTimeOffset? Created { get; }

    /// <summary>Deletes the account and its data. Throws <see cref="MalachiteException"/> (404
    /// <c>ResourceNotFound</c>) when it is already gone.</summary>
    public async Task DeleteAsync(CancellationToken cancellationToken = default)
    {
        await _server.DeleteAccountAsync(Name, cancellationToken).ConfigureAwait(false);
        Interlocked.Exchange(ref _deleted, 1);
    }

    /// <summary>Deletes the account unless it was deleted already or the server has stopped
    /// (either way it is gone); other failures are thrown.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _deleted, 1) == 1 || _server.IsStopped) return;
        try
        {
            await _server.DeleteAccountAsync(Name).ConfigureAwait(false);
        }
        catch (MalachiteException e) when (e.Status == 404)
        {
        }
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
