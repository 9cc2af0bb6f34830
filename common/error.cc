#include "common/error.h"

#include <array>

namespace malachite {
namespace {

using E = ErrorCode;

// A row of the table: the ErrorCode it describes, then what Describe returns for it.
struct Row {
  ErrorCode id;
  ErrorInfo info;
};

// Azure: spec §8.2 — codes, statuses and messages as the service sends them (typos included).
constexpr std::array<Row, static_cast<std::size_t>(ErrorCode::kCount)> kTable = {{
    {E::kTableNotFound, {"TableNotFound", 404, "The table specified does not exist."}},
    {E::kTableAlreadyExists, {"TableAlreadyExists", 409, "The table specified already exists."}},
    {E::kTableBeingDeleted,
     {"TableBeingDeleted", 409, "The specified table is being deleted. Try operation later."}},
    {E::kResourceNotFound, {"ResourceNotFound", 404, "The specified resource does not exist."}},
    {E::kEntityAlreadyExists, {"EntityAlreadyExists", 409, "The specified entity already exists."}},
    {E::kUpdateConditionNotSatisfied,
     {"UpdateConditionNotSatisfied", 412,
      "The update condition specified in the request was not satisfied."}},
    {E::kPropertiesNeedValue,
     {"PropertiesNeedValue", 400,
      "The values are not specified for all properties in the entity."}},
    {E::kInvalidInput, {"InvalidInput", 400, "One of the request inputs is not valid."}},
    {E::kInvalidValueType, {"InvalidValueType", 400, "The value specified is invalid."}},
    {E::kOutOfRangeInput, {"OutOfRangeInput", 400, "One of the request inputs is out of range."}},
    // Azure: the real service spells "specifed" (spec §8.2, REC-PY).
    {E::kInvalidResourceName,
     {"InvalidResourceName", 400, "The specifed resource name contains invalid characters."}},
    {E::kPropertyNameInvalid, {"PropertyNameInvalid", 400, "The property name is invalid."}},
    {E::kPropertyNameTooLong,
     {"PropertyNameTooLong", 400, "The property name exceeds the maximum allowed length (255)."}},
    {E::kPropertyValueTooLarge,
     {"PropertyValueTooLarge", 400,
      "The property value exceeds the maximum allowed size (64KB). If the property value is a "
      "string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."}},
    {E::kEntityTooLarge,
     {"EntityTooLarge", 400, "The entity is larger than the maximum allowed size (1MB)."}},
    {E::kTooManyProperties,
     {"TooManyProperties", 400,
      "The entity contains more properties than allowed. Each entity can include up to 252 "
      "properties to store data. Each entity also has 3 system properties."}},
    {E::kKeyValueTooLarge,
     {"KeyValueTooLarge", 400,
      "The 'PartitionKey' property exceeds the maximum allowed key size (2KB). It is a UTF-16 "
      "encoded string and the maximum number of characters should be 1K or less."}},
    {E::kDuplicatePropertiesSpecified,
     {"DuplicatePropertiesSpecified", 400, "A property is specified more than once."}},
    {E::kInvalidDuplicateRow,
     {"InvalidDuplicateRow", 400,
      "The batch request contains multiple changes with same row key. An entity can appear only "
      "once in a batch request."}},
    {E::kCommandsInBatchActOnDifferentPartitions,
     {"CommandsInBatchActOnDifferentPartitions", 400,
      "All commands in a batch must operate on same entity group."}},
    {E::kContentLengthExceeded,
     {"ContentLengthExceeded", 400,
      "The content length for the requested operation has exceeded the limit (4MB)."}},
    {E::kRequestBodyTooLarge,
     {"RequestBodyTooLarge", 413,
      "The request body is too large and exceeds the maximum permissible limit."}},
    {E::kXMethodNotUsingPost,
     {"XMethodNotUsingPost", 400,
      "The request uses X-HTTP-Method with a Http Verb that is not POST."}},
    {E::kXMethodIncorrectValue,
     {"XMethodIncorrectValue", 400, "The specified X-HTTP-Method is invalid."}},
    {E::kXMethodIncorrectCount,
     {"XMethodIncorrectCount", 400, "More than one X-HTTP-Method is specified."}},
    {E::kJsonFormatNotSupported, {"JsonFormatNotSupported", 415, "JSON format is not supported."}},
    {E::kJsonVerboseFormatNotSupported,
     {"JsonVerboseFormatNotSupported", 415, "Verbose JSON format is not supported."}},
    {E::kAtomFormatNotSupported, {"AtomFormatNotSupported", 415, "Atom format is not supported."}},
    {E::kMediaTypeNotSupported,
     {"MediaTypeNotSupported", 415, "None of the provided media types are supported"}},
    {E::kMethodNotAllowed,
     {"MethodNotAllowed", 405, "The requested method is not allowed on the specified resource."}},
    {E::kUnsupportedHttpVerb,
     {"UnsupportedHttpVerb", 405, "The resource doesn't support specified Http Verb."}},
    {E::kNotImplemented,
     {"NotImplemented", 501,
      "The requested operation is not implemented on the specified resource."}},
    {E::kHostInformationNotPresent,
     {"HostInformationNotPresent", 400,
      "The Host information is not present in the request. You must send a non-empty Host header "
      "or include the absolute URI in the request line."}},
    {E::kAuthenticationFailed,
     {"AuthenticationFailed", 403,
      "Server failed to authenticate the request. Make sure the value of Authorization header is "
      "formed correctly including the signature."}},
    {E::kInvalidAuthenticationInfo,
     {"InvalidAuthenticationInfo", 400,
      "Authentication information is not given in the correct format. Check the value of "
      "Authorization header."}},
    {E::kInvalidAuthenticationInfoBearer,
     {"InvalidAuthenticationInfo", 401,
      "Server failed to authenticate the request. Please refer to the information in the "
      "www-authenticate header."}},
    {E::kNoAuthenticationInformation,
     {"NoAuthenticationInformation", 401,
      "Server failed to authenticate the request. Please refer to the information in the "
      "www-authenticate header."}},
    {E::kAuthorizationFailure,
     {"AuthorizationFailure", 403, "This request is not authorized to perform this operation."}},
    {E::kAuthorizationPermissionMismatch,
     {"AuthorizationPermissionMismatch", 403,
      "This request is not authorized to perform this operation using this permission."}},
    {E::kAuthorizationResourceTypeMismatch,
     {"AuthorizationResourceTypeMismatch", 403,
      "This request is not authorized to perform this operation using this resource type."}},
    {E::kAuthorizationServiceMismatch,
     {"AuthorizationServiceMismatch", 403,
      "This request is not authorized to perform this operation using this service."}},
    {E::kAuthorizationProtocolMismatch,
     {"AuthorizationProtocolMismatch", 403,
      "This request is not authorized to perform this operation using this protocol."}},
    {E::kAuthorizationSourceIPMismatch,
     {"AuthorizationSourceIPMismatch", 403,
      "This request is not authorized to perform this operation using this source IP."}},
    // Azure: spec §1.1 — the secondary endpoint refuses every write (REC-PY location_mode).
    {E::kInsufficientAccountPermissions,
     {"InsufficientAccountPermissions", 403, "Write operations are not allowed."}},
    {E::kInvalidHeaderValue,
     {"InvalidHeaderValue", 400,
      "The value for one of the HTTP headers is not in the correct format."}},
    {E::kMissingRequiredHeader,
     {"MissingRequiredHeader", 400,
      "An HTTP header that's mandatory for this request is not specified."}},
    {E::kUnsupportedHeader,
     {"UnsupportedHeader", 400,
      "One of the HTTP headers specified in the request is not supported."}},
    {E::kInvalidQueryParameterValue,
     {"InvalidQueryParameterValue", 400,
      "Value for one of the query parameters specified in the request URI is invalid."}},
    {E::kMissingRequiredQueryParameter,
     {"MissingRequiredQueryParameter", 400,
      "A query parameter that's mandatory for this request is not specified."}},
    {E::kOutOfRangeQueryParameterValue,
     {"OutOfRangeQueryParameterValue", 400,
      "One of the query parameters specified in the request URI is outside the permissible "
      "range."}},
    {E::kInvalidUri,
     {"InvalidUri", 400, "The requested URI does not represent any resource on the server."}},
    {E::kInvalidXmlDocument,
     {"InvalidXmlDocument", 400, "XML specified is not syntactically valid."}},
    {E::kInvalidXmlNodeValue,
     {"InvalidXmlNodeValue", 400,
      "The value for one of the XML nodes is not in the correct format."}},
    {E::kCorsPreflightFailure,
     {"CorsPreflightFailure", 403, "CORS not enabled or no matching rule found for this request."}},
    {E::kServerBusy, {"ServerBusy", 503, "The server is busy."}},
    {E::kOperationTimedOut,
     {"OperationTimedOut", 500, "Operation could not be completed within the specified time."}},
    // Emulator: HTTP's 408 for a request whose body stopped arriving before the server's
    // --request-timeout passed; spec §8 lists no Azure code for it.
    {E::kRequestTimeout,
     {"RequestTimeout", 408, "The request body did not arrive within the permitted time."}},
    {E::kInternalError,
     {"InternalError", 500,
      "Server encountered an internal error. Please try again after some time."}},
    // Azure: the service answers 409 InsufficientAccountResources when an account is out of
    // capacity; the emulator uses it when its disk or LMDB map is full.
    {E::kInsufficientAccountResources,
     {"InsufficientAccountResources", 409,
      "The storage account has run out of space; the request was not applied."}},
    // Azure: Microsoft.Storage (the management API) answers these when an account is created or
    // deleted; the emulator's POST/DELETE /-/accounts use them (server/admin/account_endpoints.h).
    {E::kAccountNameInvalid,
     {"AccountNameInvalid", 400,
      "The storage account name is not valid: it must be between 3 and 24 characters in length "
      "and use numbers and lower-case letters only."}},
    {E::kStorageAccountAlreadyTaken,
     {"StorageAccountAlreadyTaken", 409, "The storage account name is already taken."}},
    {E::kOperationNotAllowed,
     {"OperationNotAllowed", 409, "The operation is not allowed on this storage account."}},
}};

// Row i describes the ErrorCode whose value is i, so a row added, dropped or moved fails to compile
// instead of shifting every message after it: a missing row leaves the last ones value-initialised
// (id kTableNotFound, no code), one row too many does not fit in the array.
consteval bool OneRowPerCodeInOrder() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].id) != i || kTable[i].info.code.empty()) return false;
  }
  return true;
}
static_assert(OneRowPerCodeInOrder(), "kTable: one row per ErrorCode, in the order of the enum");

}  // namespace

const ErrorInfo& Describe(ErrorCode code) { return kTable[static_cast<std::size_t>(code)].info; }

std::string_view Error::UserMessage() const {
  return message.empty() ? Describe(code).message : std::string_view(message);
}

}  // namespace malachite
