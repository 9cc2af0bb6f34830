namespace Malachite.Testcontainers;

/// <summary>An admin request to the container (<see cref="MalachiteContainer.CreateAccountAsync"/>,
/// <see cref="MalachiteContainer.DeleteAccountAsync"/>, <see cref="MalachiteContainer.ResetAsync"/>)
/// was refused: <see cref="Status"/> and <see cref="ErrorCode"/> are the service's.</summary>
public sealed class MalachiteException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What failed, in one sentence.</param>
    /// <param name="status">The HTTP status, else null.</param>
    /// <param name="errorCode">The service's error code (x-ms-error-code), else null.</param>
    /// <param name="inner">The underlying exception, if any.</param>
    public MalachiteException(string message, int? status = null, string? errorCode = null,
                              Exception? inner = null)
        : base(message, inner)
    {
        Status = status;
        ErrorCode = errorCode;
    }

    /// <summary>The HTTP status, e.g. 409, else null.</summary>
    public int? Status { get; }

    /// <summary>The service's error code, e.g. <c>StorageAccountAlreadyTaken</c>, else null.</summary>
    public string? ErrorCode { get; }
}
