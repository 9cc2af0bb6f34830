namespace Malachite;

/// <summary>
/// A failure of Malachite: an admin request (<see cref="MalachiteAdminClient"/>, and the
/// <c>CreateAccountAsync</c>, <c>DeleteAccountAsync</c> and <c>ResetAsync</c> of
/// <c>MalachiteServer</c> and <c>MalachiteContainer</c>) was refused (<see cref="Status"/> and
/// <see cref="ErrorCode"/> are the service's), or, with Malachite.Server, the server could not start
/// (the message is the server's own <c>malachite: ...</c> line when it printed one, or names the
/// missing binary and the platform; <see cref="ExitCode"/> and <see cref="Output"/>) or died.
/// </summary>
public sealed class MalachiteException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What failed, in one sentence.</param>
    /// <param name="status">The HTTP status of a refused admin request, else null.</param>
    /// <param name="errorCode">The service's error code (x-ms-error-code), else null.</param>
    /// <param name="inner">The underlying exception, if any.</param>
    public MalachiteException(string message, int? status = null, string? errorCode = null,
                              Exception? inner = null)
        : base(message, inner)
    {
        Status = status;
        ErrorCode = errorCode;
    }

    /// <summary>The HTTP status of a refused admin request (e.g. 409), else null.</summary>
    public int? Status { get; }

    /// <summary>The service's error code, e.g. <c>StorageAccountAlreadyTaken</c>, else null.</summary>
    public string? ErrorCode { get; }

    /// <summary>The exit status of a server that stopped while starting (or died), else null.</summary>
    public int? ExitCode { get; init; }

    /// <summary>The server's last lines of output (stdout and stderr) when it failed to start or died.</summary>
    public IReadOnlyList<string> Output { get; init; } = Array.Empty<string>();
}
