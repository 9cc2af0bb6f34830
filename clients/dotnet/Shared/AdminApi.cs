// The admin requests both packages make (POST /-/accounts, DELETE /-/accounts/<name>,
// POST /-/reset), compiled into each assembly as an internal class. Each project names its own
// public exception type as AdminError (a global using alias), so a failure surfaces as that
// package's MalachiteException with the service's status and error code.
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace Malachite.Shared;

/// <summary>What POST /-/accounts answers.</summary>
internal sealed record AccountInfo(string Name, string Key, string ConnectionString, Uri TableUri,
                                   DateTimeOffset? Created);

internal sealed class AdminApi
{
    private readonly HttpClient _http;
    private readonly Uri _base;
    private readonly string? _bearer;

    /// <param name="http">The client to send with (not disposed here).</param>
    /// <param name="baseUri">The server's root, e.g. http://127.0.0.1:10002/.</param>
    /// <param name="bearer">An account key to send as Authorization: Bearer, or null (loopback).</param>
    internal AdminApi(HttpClient http, Uri baseUri, string? bearer)
    {
        _http = http;
        _base = baseUri;
        _bearer = bearer;
    }

    internal async Task<AccountInfo> CreateAccountAsync(string? name, string? key, CancellationToken ct)
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
        using var response = await _http.SendAsync(request, ct).ConfigureAwait(false);
        string text = await response.Content.ReadAsStringAsync(ct).ConfigureAwait(false);
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
            return new AccountInfo(Field("name"), Field("key"), Field("connectionString"),
                                   new Uri(Field("tableEndpoint")), created);
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or FormatException or
                                  InvalidOperationException or UriFormatException)
        {
            throw new AdminError($"POST /-/accounts: unexpected answer ({e.Message}): {Shorten(text)}",
                                 (int)response.StatusCode, null, e);
        }
    }

    internal async Task DeleteAccountAsync(string name, CancellationToken ct)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        using var request = Request(HttpMethod.Delete, "-/accounts/" + Uri.EscapeDataString(name));
        using var response = await _http.SendAsync(request, ct).ConfigureAwait(false);
        if (response.StatusCode == HttpStatusCode.NoContent) return;
        string text = await response.Content.ReadAsStringAsync(ct).ConfigureAwait(false);
        throw Failure($"DELETE /-/accounts/{name}", response, text);
    }

    internal async Task ResetAsync(string? account, bool seed, CancellationToken ct)
    {
        var query = new List<string>();
        if (account != null) query.Add("account=" + Uri.EscapeDataString(account));
        if (!seed) query.Add("seed=false");
        string path = "-/reset" + (query.Count > 0 ? "?" + string.Join("&", query) : "");
        using var request = Request(HttpMethod.Post, path);
        using var response = await _http.SendAsync(request, ct).ConfigureAwait(false);
        if (response.IsSuccessStatusCode) return;
        string text = await response.Content.ReadAsStringAsync(ct).ConfigureAwait(false);
        throw Failure("POST /" + path, response, text);
    }

    private HttpRequestMessage Request(HttpMethod method, string path)
    {
        var request = new HttpRequestMessage(method, new Uri(_base, path));
        if (_bearer != null) request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", _bearer);
        return request;
    }

    // The service's errors are Azure-style: {"odata.error":{"code":..,"message":{"value":..}}} and
    // x-ms-error-code. The exception carries the status and the code, its message both and the text.
    private static AdminError Failure(string what, HttpResponseMessage response, string text)
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
        return new AdminError($"{what}: {status} {code ?? response.ReasonPhrase}: {message}", status, code, null);
    }

    private static string Shorten(string text) =>
        text.Length <= 300 ? text.Trim() : text[..300].Trim() + "...";
}
