namespace Malachite;

/// <summary>
/// An account made at run time (<see cref="MalachiteAdminClient.CreateAccountAsync"/>, and the
/// <c>CreateAccountAsync</c> of <c>MalachiteServer</c> and <c>MalachiteContainer</c>): its own
/// tables, isolated from every other account's, for one test. Disposing it deletes it (its tables
/// are reclaimed in the background).
/// </summary>
public sealed class MalachiteAccount : IAsyncDisposable
{
    private readonly MalachiteAdminClient _admin;
    private int _deleted;

    internal MalachiteAccount(MalachiteAdminClient admin, string name, string key, string connectionString,
                              Uri tableUri, DateTimeOffset? created)
    {
        _admin = admin;
        Name = name;
        Key = key;
        ConnectionString = connectionString;
        TableUri = tableUri;
        Created = created;
    }

    /// <summary>The account's name (3-24 lowercase letters and digits).</summary>
    public string Name { get; }

    /// <summary>The account's key (base64), for Shared Key signing.</summary>
    public string Key { get; }

    /// <summary>A connection string for the account, e.g. for <c>new TableServiceClient(...)</c>:
    /// <c>DefaultEndpointsProtocol=http;AccountName=...;AccountKey=...;TableEndpoint=...;</c> (through
    /// the address the admin client used: a container's mapped port, for one).</summary>
    public string ConnectionString { get; }

    /// <summary>The account's table endpoint, <c>http://&lt;host&gt;:&lt;port&gt;/&lt;name&gt;</c>.</summary>
    public Uri TableUri { get; }

    /// <summary><see cref="TableUri"/> as a string.</summary>
    public string TableUrl => TableUri.OriginalString;

    /// <summary>When the server made the account, if it said.</summary>
    public DateTimeOffset? Created { get; }

    /// <summary>Deletes the account and its data. Throws <see cref="MalachiteException"/> (404
    /// <c>ResourceNotFound</c>) when it is already gone.</summary>
    public async Task DeleteAsync(CancellationToken cancellationToken = default)
    {
        await _admin.DeleteAccountAsync(Name, cancellationToken).ConfigureAwait(false);
        Interlocked.Exchange(ref _deleted, 1);
    }

    /// <summary>Deletes the account unless it was deleted already or its server has stopped (the
    /// client that made it was disposed): either way it is gone. Other failures are thrown.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _deleted, 1) == 1 || _admin.IsDisposed) return;
        try
        {
            await _admin.DeleteAccountAsync(Name).ConfigureAwait(false);
        }
        catch (MalachiteException e) when (e.Status == 404)
        {
        }
        catch (ObjectDisposedException) when (_admin.IsDisposed)
        {
            // The server stopped while the request was on its way.
        }
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
