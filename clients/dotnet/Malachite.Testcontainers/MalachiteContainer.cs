namespace Malachite.Testcontainers;

/// <summary>A started malachite container: its connection string and endpoint through the mapped
/// port, and the admin requests (reset, accounts) from this machine.</summary>
public sealed class MalachiteContainer : DockerContainer
{
    // One client for every container: the admin requests are few and short.
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(30) };
    private readonly object _adminLock = new();
    private MalachiteAdminClient? _admin;

    /// <summary>Initializes a new instance of the <see cref="MalachiteContainer" /> class.</summary>
    /// <param name="configuration">The container configuration.</param>
    public MalachiteContainer(MalachiteConfiguration configuration)
        : base(configuration)
    {
        Stopping += (_, _) => DropAdmin();
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

    /// <inheritdoc cref="MalachiteAdminClient.CreateAccountAsync"/>
    /// <remarks>The account's connection string goes through the container's mapped port.</remarks>
    public Task<MalachiteAccount> CreateAccountAsync(string? name = null, string? key = null,
                                                     CancellationToken cancellationToken = default) =>
        Admin().CreateAccountAsync(name, key, cancellationToken);

    /// <inheritdoc cref="MalachiteAdminClient.DeleteAccountAsync"/>
    public Task DeleteAccountAsync(string name, CancellationToken cancellationToken = default) =>
        Admin().DeleteAccountAsync(name, cancellationToken);

    /// <inheritdoc cref="MalachiteAdminClient.ResetAsync"/>
    public Task ResetAsync(string? account = null, bool seed = true, CancellationToken cancellationToken = default) =>
        Admin().ResetAsync(account, seed, cancellationToken);

    /// <inheritdoc />
    protected override async ValueTask DisposeAsyncCore()
    {
        DropAdmin();
        await base.DisposeAsyncCore().ConfigureAwait(false);
    }

    // From this machine the container is not loopback to the server: the admin requests carry a
    // key of one of its accounts, devstoreaccount1's. One client per run of the container (the
    // mapped port changes with a restart), disposed when it stops: its accounts went with it.
    private MalachiteAdminClient Admin()
    {
        var endpoint = new UriBuilder(Uri.UriSchemeHttp, Hostname, GetMappedPublicPort(MalachiteBuilder.TablePort)).Uri;
        lock (_adminLock)
        {
            if (_admin == null || _admin.Endpoint != endpoint)
            {
                _admin?.Dispose();
                _admin = new MalachiteAdminClient(endpoint, MalachiteBuilder.AccountKey, Http);
            }
            return _admin;
        }
    }

    private void DropAdmin()
    {
        lock (_adminLock)
        {
            _admin?.Dispose();
            _admin = null;
        }
    }
}
