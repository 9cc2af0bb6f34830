// The one error type of Malachite. Every failure that reaches a client is an `Error` whose
// `ErrorCode` names a row of the Azure error table (error.cc): the Azure code string, the HTTP
// status and the service's default message live there, as data.
//
// Expected absence (an entity that is not there, a table that already exists) is *not* an Error
// inside storage: storage returns optional/bool and the handler decides which ErrorCode it means.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

namespace malachite {

// Azure: spec §8.2. Enumerators carry the Azure code name with a `k` prefix.
enum class ErrorCode : std::uint8_t {
  kTableNotFound,
  kTableAlreadyExists,
  kTableBeingDeleted,
  kResourceNotFound,
  kEntityAlreadyExists,
  kUpdateConditionNotSatisfied,
  kPropertiesNeedValue,
  kInvalidInput,
  kInvalidValueType,
  kOutOfRangeInput,
  kInvalidResourceName,
  kPropertyNameInvalid,
  kPropertyNameTooLong,
  kPropertyValueTooLarge,
  kEntityTooLarge,
  kTooManyProperties,
  kKeyValueTooLarge,
  kDuplicatePropertiesSpecified,
  kInvalidDuplicateRow,
  kCommandsInBatchActOnDifferentPartitions,
  kContentLengthExceeded,
  kRequestBodyTooLarge,
  kXMethodNotUsingPost,
  kXMethodIncorrectValue,
  kXMethodIncorrectCount,
  kJsonFormatNotSupported,
  kJsonVerboseFormatNotSupported,
  kAtomFormatNotSupported,
  kMediaTypeNotSupported,
  kMethodNotAllowed,
  kUnsupportedHttpVerb,
  kNotImplemented,
  kHostInformationNotPresent,
  kAuthenticationFailed,
  kInvalidAuthenticationInfo,
  // The same Azure code as 401 with a bearer challenge: a rejected Entra ID token (spec §10.9).
  kInvalidAuthenticationInfoBearer,
  kNoAuthenticationInformation,
  kAuthorizationFailure,
  kAuthorizationPermissionMismatch,
  kAuthorizationResourceTypeMismatch,
  kAuthorizationServiceMismatch,
  kAuthorizationProtocolMismatch,
  kAuthorizationSourceIPMismatch,
  kInsufficientAccountPermissions,  // a write to the read-only secondary (spec §1.1)
  kInvalidHeaderValue,
  kMissingRequiredHeader,
  kUnsupportedHeader,
  kInvalidQueryParameterValue,
  kMissingRequiredQueryParameter,
  kOutOfRangeQueryParameterValue,
  kInvalidUri,
  kInvalidXmlDocument,
  kInvalidXmlNodeValue,
  kCorsPreflightFailure,
  kServerBusy,
  kOperationTimedOut,
  kRequestTimeout,  // a request body that did not arrive in time (Emulator: see error.cc)
  kInternalError,
  kInsufficientAccountResources,  // disk or map full (Emulator: see storage/FORMAT.md)
  // The management codes of the runtime accounts (POST/DELETE /-/accounts).
  kAccountNameInvalid,
  kStorageAccountAlreadyTaken,
  kOperationNotAllowed,
  kCount,  // not a code: number of rows in the table
};

// One row of the Azure error table.
struct ErrorInfo {
  std::string_view code;     // Azure code string, e.g. "TableNotFound"
  int http_status;           // e.g. 404
  std::string_view message;  // the service's default user message
};

// Returns the table row of `code`. Never fails; the returned view lives for the program.
const ErrorInfo& Describe(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternalError;
  // The user message sent as `message.value` (before the RequestId/Time lines). Empty means the
  // table's default message.
  std::string message;
  // Extra detail for logs and for the XML <AuthenticationErrorDetail>; never replaces `message`.
  std::string detail;

  // The message to send: `message` if set, else the default of `code`.
  std::string_view UserMessage() const;
  int HttpStatus() const { return Describe(code).http_status; }
  std::string_view AzureCode() const { return Describe(code).code; }
};

template <typename T>
using Result = tl::expected<T, Error>;

// Builds the unexpected value for a `Result<T>` return: `return Fail(ErrorCode::kInvalidInput);`
inline tl::unexpected<Error> Fail(ErrorCode code, std::string message = {},
                                  std::string detail = {}) {
  return tl::unexpected<Error>(Error{code, std::move(message), std::move(detail)});
}

}  // namespace malachite
