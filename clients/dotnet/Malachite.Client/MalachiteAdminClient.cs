// The admin API of a running Malachite: POST /-/accounts, DELETE /-/accounts/<name>,
// POST /-/reset. Malachite.Server (a local process: loopback, no credentials) and
// Malachite.Testcontainers (a container through its mapped port: a bearer key) both make their admin
// requests with it.
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace Malachite;

/// <summary>
/// The admin requests of a running Malachite: accounts made at run time and reset.
/// <code>
/// using var admin = new MalachiteAdminClient(new Uri("http://127.0.0.1:10002/"));
/// await using var account = await admin.CreateAccountAsync();
/// var tables = new TableServiceClient(account.ConnectionString);
/// </code>
/// A refused request throws <see cref="MalachiteException"/> with the service's status and error
/// code; a server that cannot be reached, the <see cref="HttpClient"/>'s own exception.
/// </summary>
public sealed class MalachiteAdminClient : IDisposable
{
    private readonly HttpClient _http;
    private readonly bool _ownsHttp;
    private readonly string? _bearer;
    private volatile bool _disposed;

    /// <summary>A client for the server at <paramref name="endpoint"/>.</summary>
    /// <param name="endpoint">The server's root, e.g. <c>http://127.0.0.1:10002/</c>.</param>
    /// <param name="bearerToken">A key of one of the server's accounts, sent as
    /// <c>Authorization: Bearer</c>: the admin endpoints want one from any address but the server's
    /// loopback. Null: none.</param>
    /// <param name="httpClient">The client to send with (not disposed here); null: one of its own,
    /// with a 30 s timeout.</param>
    public MalachiteAdminClient(Uri endpoint, string? bearerToken = null, HttpClient? httpClient = null)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        if (!endpoint.IsAbsoluteUri) throw new ArgumentException("an absolute URI, e.g. http://127.0.0.1:10002/", nameof(endpoint));
        Endpoint = endpoint.AbsolutePath.EndsWith('/') ? endpoint : new Uri(endpoint.AbsoluteUri + "/");
        _bearer = bearerToken;
        _ownsHttp = httpClient == null;
        _http = httpClient ?? new HttpClient { Timeout = TimeSpan.FromSeconds(30) };
    }

    /// <summary>The server's root URI.</summary>
    public Uri Endpoint { get; }

    /// <summary>Whether <see cref="Dispose"/> was called: its accounts are no longer deleted when
    /// disposed (Malachite.Server disposes its client when the server stops).</summary>
    public bool IsDisposed => _disposed;

    /// <summary>
    /// Makes an account of its own for a test (a generated name and key unless given): its tables
    /// are isolated from every other account's. Dispose it, or call
    /// <see cref="MalachiteAccount.DeleteAsync"/>, to delete it. A taken name fails with 409
    /// <c>StorageAccountAlreadyTaken</c>, an invalid one with 400 <c>AccountNameInvalid</c>, a key
    /// that is not base64 with 400 <c>InvalidInput</c> (<see cref="MalachiteException"/>).
    /// </summary>
    /// <param name="name">3 to 24 lowercase letters and digits, or null for a generated name.</param>
    /// <param name="key">A base64 key, or null for a generated 64-byte key.</param>
    /// <param name="cancellationToken">Cancels the request.</param>
    public async Task<MalachiteAccount> CreateAccountAsync(string? name = null, string? key = null,
                                                           CancellationToken cancellationToken = default)
    {
        using var request = Request(HttpMethod.Post, "-/accounts");
        if (name != null || key != null)
        {
            var body = new Dictionary<string, string>();
            if (name != null) body["name"] = name;
            if (key != null) body["key"] = key;
            request.Content = new StringContent(JsonSerializer.Serialize(body), Encoding.UTF8,
                                                "application/json");
        }
        using var response = await _http.SendAsync(request, cancellationToken).ConfigureAwait(false);
        string text = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
        if (response.StatusCode != HttpStatusCode.Created) throw Failure("POST /-/accounts", response, text);
        try
        {
            using var json = JsonDocument.Parse(text);
            var root = json.RootElement;
            string Field(string field) => root.GetProperty(field).GetString() ??
                throw new FormatException($"\"{field}\" is null");
            DateTimeOffset? created = root.TryGetProperty("created", out var c) &&
                c.ValueKind == JsonValueKind.String && DateTimeOffset.TryParse(c.GetString(), out var when)
                ? when : null;
            return new MalachiteAccount(this, Field("name"), Field("key"), Field("connectionString"),
                                        new Uri(Field("tableEndpoint")), created);
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or FormatException or
                                  InvalidOperationException or UriFormatException)
        {
            throw new MalachiteException($"POST /-/accounts: unexpected answer ({e.Message}): {Shorten(text)}",
                                         (int)response.StatusCode, null, e);
        }
    }

    /// <summary>Deletes an account made at run time, with its data (reclaimed in the background).
    /// Fails with <see cref="MalachiteException"/>: 404 <c>ResourceNotFound</c> when there is none of
    /// that name, 409 <c>OperationNotAllowed</c> for a configured account (<c>devstoreaccount1</c>).</summary>
    /// <param name="name">The account's name.</param>
    /// <param name="cancellationToken">Cancels the request.</param>
    public async Task DeleteAccountAsync(string name, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        using var request = Request(HttpMethod.Delete, "-/accounts/" + Uri.EscapeDataString(name));
        using var response = await _http.SendAsync(request, cancellationToken).ConfigureAwait(false);
        if (response.StatusCode == HttpStatusCode.NoContent) return;
        string text = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
        throw Failure($"DELETE /-/accounts/{name}", response, text);
    }

    /// <summary>Deletes every table of every configured account (or of <paramref name="account"/>
    /// only) and loads the server's seed fixtures again unless <paramref name="seed"/> is false.
    /// Service properties are kept.</summary>
    /// <param name="account">One account to reset (configured or made at run time), or null.</param>
    /// <param name="seed">False: leave the tables empty.</param>
    /// <param name="cancellationToken">Cancels the request.</param>
    public async Task ResetAsync(string? account = null, bool seed = true, CancellationToken cancellationToken = default)
    {
        var query = new List<string>();
        if (account != null) query.Add("account=" + Uri.EscapeDataString(account));
        if (!seed) query.Add("seed=false");
        string path = "-/reset" + (query.Count > 0 ? "?" + string.Join("&", query) : "");
        using var request = Request(HttpMethod.Post, path);
        using var response = await _http.SendAsync(request, cancellationToken).ConfigureAwait(false);
        if (response.IsSuccessStatusCode) return;
        string text = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
        throw Failure("POST /" + path, response, text);
    }

    /// <summary>Releases its own <see cref="HttpClient"/> (not one it was given); later requests
    /// throw <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose()
    {
        if (_disposed) return;
        _disposed = true;
        if (_ownsHttp) _http.Dispose();
    }

    private HttpRequestMessage Request(HttpMethod method, string path)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var request = new HttpRequestMessage(method, new Uri(Endpoint, path));
        if (_bearer != null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", _bearer);
        return request;
    }

    // The service's errors are Azure-style: {"odata.error":{"code":..,"message":{"value":..}}} and
    // x-ms-error-code. The exception carries the status and the code, its message both and the text.
    private static MalachiteException Failure(string what, HttpResponseMessage response, string text)
    {
        string? code = response.Headers.TryGetValues("x-ms-error-code", out var values)
            ? values.FirstOrDefault() : null;
        string? message = null;
        try
        {
            using var json = JsonDocument.Parse(text);
            if (json.RootElement.TryGetProperty("odata.error", out var error))
            {
                if (code == null && error.TryGetProperty("code", out var c)) code = c.GetString();
                if (error.TryGetProperty("message", out var m))
                    message = m.ValueKind == JsonValueKind.Object && m.TryGetProperty("value", out var v)
                        ? v.GetString() : m.ToString();
            }
        }
        catch (JsonException)
        {
        }
        message ??= Shorten(text);
        int status = (int)response.StatusCode;
        return new MalachiteException($"{what}: {status} {code ?? response.ReasonPhrase}: {message}", status, code, null);
    }

    private static string Shorten(string text) =>
        text.Length <= 300 ? text.Trim() : text[..300].Trim() + "...";
}
