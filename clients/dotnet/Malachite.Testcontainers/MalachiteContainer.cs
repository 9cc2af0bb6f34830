using Malachite.Shared;

namespace Malachite.Testcontainers;

/// <summary>A started malachite container: its connection string and endpoint through the mapped
/// port, and the admin requests (reset, accounts) from this machine.</summary>
public sealed class MalachiteContainer : DockerContainer
{
    // One client for every container: the admin requests are few and short.
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(30) };

    /// <summary>Initializes a new instance of the <see cref="MalachiteContainer" /> class.</summary>
    /// <param name="configuration">The container configuration.</param>
    public MalachiteContainer(MalachiteConfiguration configuration)
        : base(configuration)
    {
    }

    /// <summary>The connection string of <c>devstoreaccount1</c> through the mapped port:
    /// <c>DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=...;TableEndpoint=http://&lt;host&gt;:&lt;port&gt;/devstoreaccount1;</c></summary>
    public string GetConnectionString() =>
        $"DefaultEndpointsProtocol=http;AccountName={MalachiteBuilder.AccountName};" +
        $"AccountKey={MalachiteBuilder.AccountKey};TableEndpoint={GetTableEndpoint()};";

    /// <summary>The table endpoint of <c>devstoreaccount1</c>, <c>http://&lt;host&gt;:&lt;port&gt;/devstoreaccount1</c>.</summary>
    public string GetTableEndpoint() =>
        new UriBuilder(Uri.UriSchemeHttp, Hostname, GetMappedPublicPort(MalachiteBuilder.TablePort),
                       MalachiteBuilder.AccountName).Uri.ToString();

    /// <summary>
    /// Makes an account of its own for a test (a generated name and key unless given), with a
    /// connection string through the mapped port. Fails with <see cref="MalachiteException"/>: 409
    /// <c>StorageAccountAlreadyTaken</c>, 400 <c>AccountNameInvalid</c>, 400 <c>InvalidInput</c>.
    /// </summary>
    /// <param name="name">3 to 24 lowercase letters and digits, or null for a generated name.</param>
    /// <param name="key">A base64 key, or null for a generated one.</param>
    /// <param name="cancellationToken">Cancels the request.</param>
    public async Task<MalachiteAccount> CreateAccountAsync(string? name = null, string? key = null,
                                                           CancellationToken cancellationToken = default)
    {
        var info = await Admin().CreateAccountAsync(name, key, cancellationToken).ConfigureAwait(false);
        return new MalachiteAccount(this, info);
    }

    /// <summary>Deletes an account made at run time, with its data (404 <c>ResourceNotFound</c>
    /// when there is none, 409 <c>OperationNotAllowed</c> for <c>devstoreaccount1</c>).</summary>
    public Task DeleteAccountAsync(string name, CancellationToken cancellationToken = default) =>
        Admin().DeleteAccountAsync(name, cancellationToken);

    /// <summary>Deletes every table (of <paramref name="account"/> only, when given) and loads the
    /// seed fixtures again unless <paramref name="seed"/> is false.</summary>
    public Task ResetAsync(string? account = null, bool seed = true, CancellationToken cancellationToken = default) =>
        Admin().ResetAsync(account, seed, cancellationToken);

    // From this machine the container is not loopback to the server: the admin requests carry a
    // key of one of its accounts, devstoreaccount1's.
    private AdminApi Admin() =>
        new(Http, new UriBuilder(Uri.UriSchemeHttp, Hostname, GetMappedPublicPort(MalachiteBuilder.TablePort)).Uri,
            MalachiteBuilder.AccountKey);
}

/// <summary>An account made in the container at run time by
/// <see cref="MalachiteContainer.CreateAccountAsync"/>; disposing it deletes it.</summary>
public sealed class MalachiteAccount : IAsyncDisposable
{
    private readonly MalachiteContainer _container;
    private int _deleted;

    internal MalachiteAccount(MalachiteContainer container, AccountInfo info)
    {
        _container = container;
        Name = info.Name;
        Key = info.Key;
        ConnectionString = info.ConnectionString;
        TableUri = info.TableUri;
    }

    /// <summary>The account's name.</summary>
    public string Name { get; }

    /// <summary>The account's key (base64).</summary>
    public string Key { get; }

    /// <summary>The account's connection string, through the container's mapped port.</summary>
    public string ConnectionString { get; }

    /// <summary>The account's table endpoint, through the container's mapped port.</summary>
    public Uri TableUri { get; }

    /// <summary><see cref="TableUri"/> as a string.</summary>
    public string TableUrl => TableUri.OriginalString;

    /// <summary>Deletes the account and its data.</summary>
    public async Task DeleteAsync(CancellationToken cancellationToken = default)
    {
        await _container.DeleteAccountAsync(Name, cancellationToken).ConfigureAwait(false);
        Interlocked.Exchange(ref _deleted, 1);
    }

    /// <summary>Deletes the account unless it is gone already (deleted, or the container
    /// stopped).</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _deleted, 1) == 1 || _container.State != TestcontainersStates.Running) return;
        try
        {
            await _container.DeleteAccountAsync(Name).ConfigureAwait(false);
        }
        catch (MalachiteException e) when (e.Status == 404)
        {
        }
    }

    /// <inheritdoc />
    public override string ToString() => Name;
}
