#include "common/error.h"

#include <array>

namespace malachite {
namespace {

// Azure: spec §8.2 — codes, statuses and messages as the service sends them (typos included).
constexpr std::array<ErrorInfo, static_cast<std::size_t>(ErrorCode::kCount)> kTable = {{
    {"TableNotFound", 404, "The table specified does not exist."},
    {"TableAlreadyExists", 409, "The table specified already exists."},
    {"TableBeingDeleted", 409, "The specified table is being deleted. Try operation later."},
    {"ResourceNotFound", 404, "The specified resource does not exist."},
    {"EntityAlreadyExists", 409, "The specified entity already exists."},
    {"UpdateConditionNotSatisfied", 412,
     "The update condition specified in the request was not satisfied."},
    {"PropertiesNeedValue", 400, "The values are not specified for all properties in the entity."},
    {"InvalidInput", 400, "One of the request inputs is not valid."},
    {"InvalidValueType", 400, "The value specified is invalid."},
    {"OutOfRangeInput", 400, "One of the request inputs is out of range."},
    // Azure: the real service spells "specifed" (spec §8.2, REC-PY).
    {"InvalidResourceName", 400, "The specifed resource name contains invalid characters."},
    {"PropertyNameInvalid", 400, "The property name is invalid."},
    {"PropertyNameTooLong", 400, "The property name exceeds the maximum allowed length (255)."},
    {"PropertyValueTooLarge", 400,
     "The property value exceeds the maximum allowed size (64KB). If the property value is a "
     "string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."},
    {"EntityTooLarge", 400, "The entity is larger than the maximum allowed size (1MB)."},
    {"TooManyProperties", 400,
     "The entity contains more properties than allowed. Each entity can include up to 252 "
     "properties to store data. Each entity also has 3 system properties."},
    {"KeyValueTooLarge", 400,
     "The 'PartitionKey' property exceeds the maximum allowed key size (2KB). It is a UTF-16 "
     "encoded string and the maximum number of characters should be 1K or less."},
    {"DuplicatePropertiesSpecified", 400, "A property is specified more than once."},
    {"InvalidDuplicateRow", 400,
     "The batch request contains multiple changes with same row key. An entity can appear only "
     "once in a batch request."},
    {"CommandsInBatchActOnDifferentPartitions", 400,
     "All commands in a batch must operate on same entity group."},
    {"ContentLengthExceeded", 400,
     "The content length for the requested operation has exceeded the limit (4MB)."},
    {"RequestBodyTooLarge", 413,
     "The request body is too large and exceeds the maximum permissible limit."},
    {"XMethodNotUsingPost", 400,
     "The request uses X-HTTP-Method with a Http Verb that is not POST."},
    {"XMethodIncorrectValue", 400, "The specified X-HTTP-Method is invalid."},
    {"XMethodIncorrectCount", 400, "More than one X-HTTP-Method is specified."},
    {"JsonFormatNotSupported", 415, "JSON format is not supported."},
    {"JsonVerboseFormatNotSupported", 415, "Verbose JSON format is not supported."},
    {"AtomFormatNotSupported", 415, "Atom format is not supported."},
    {"MediaTypeNotSupported", 415, "None of the provided media types are supported"},
    {"MethodNotAllowed", 405, "The requested method is not allowed on the specified resource."},
    {"UnsupportedHttpVerb", 405, "The resource doesn't support specified Http Verb."},
    {"NotImplemented", 501,
     "The requested operation is not implemented on the specified resource."},
    {"HostInformationNotPresent", 400,
     "The Host information is not present in the request. You must send a non-empty Host header "
     "or include the absolute URI in the request line."},
    {"AuthenticationFailed", 403,
     "Server failed to authenticate the request. Make sure the value of Authorization header is "
     "formed correctly including the signature."},
    {"InvalidAuthenticationInfo", 400,
     "Authentication information is not given in the correct format. Check the value of "
     "Authorization header."},
    {"InvalidAuthenticationInfo", 401,
     "Server failed to authenticate the request. Please refer to the information in the "
     "www-authenticate header."},
    {"NoAuthenticationInformation", 401,
     "Server failed to authenticate the request. Please refer to the information in the "
     "www-authenticate header."},
    {"AuthorizationFailure", 403, "This request is not authorized to perform this operation."},
    {"AuthorizationPermissionMismatch", 403,
     "This request is not authorized to perform this operation using this permission."},
    {"AuthorizationResourceTypeMismatch", 403,
     "This request is not authorized to perform this operation using this resource type."},
    {"AuthorizationServiceMismatch", 403,
     "This request is not authorized to perform this operation using this service."},
    {"AuthorizationProtocolMismatch", 403,
     "This request is not authorized to perform this operation using this protocol."},
    {"AuthorizationSourceIPMismatch", 403,
     "This request is not authorized to perform this operation using this source IP."},
    // Azure: spec §1.1 — the secondary endpoint refuses every write (REC-PY location_mode).
    {"InsufficientAccountPermissions", 403, "Write operations are not allowed."},
    {"InvalidHeaderValue", 400,
     "The value for one of the HTTP headers is not in the correct format."},
    {"MissingRequiredHeader", 400,
     "An HTTP header that's mandatory for this request is not specified."},
    {"UnsupportedHeader", 400,
     "One of the HTTP headers specified in the request is not supported."},
    {"InvalidQueryParameterValue", 400,
     "Value for one of the query parameters specified in the request URI is invalid."},
    {"MissingRequiredQueryParameter", 400,
     "A query parameter that's mandatory for this request is not specified."},
    {"OutOfRangeQueryParameterValue", 400,
     "One of the query parameters specified in the request URI is outside the permissible range."},
    {"InvalidUri", 400, "The requested URI does not represent any resource on the server."},
    {"InvalidXmlDocument", 400, "XML specified is not syntactically valid."},
    {"InvalidXmlNodeValue", 400,
     "The value for one of the XML nodes is not in the correct format."},
    {"CorsPreflightFailure", 403, "CORS not enabled or no matching rule found for this request."},
    {"ServerBusy", 503, "The server is busy."},
    {"OperationTimedOut", 500, "Operation could not be completed within the specified time."},
    {"InternalError", 500,
     "Server encountered an internal error. Please try again after some time."},
    // Azure: the service answers 409 InsufficientAccountResources when an account is out of
    // capacity; the emulator uses it when its disk or LMDB map is full.
    {"InsufficientAccountResources", 409,
     "The storage account has run out of space; the request was not applied."},
    // Azure: Microsoft.Storage (the management API) answers these when an account is created or
    // deleted; the emulator's POST/DELETE /-/accounts use them (server/admin/account_endpoints.h).
    {"AccountNameInvalid", 400,
     "The storage account name is not valid: it must be between 3 and 24 characters in length "
     "and use numbers and lower-case letters only."},
    {"StorageAccountAlreadyTaken", 409, "The storage account name is already taken."},
    {"OperationNotAllowed", 409, "The operation is not allowed on this storage account."},
}};

}  // namespace

const ErrorInfo& Describe(ErrorCode code) { return kTable[static_cast<std::size_t>(code)]; }

std::string_view Error::UserMessage() const {
  return message.empty() ? Describe(code).message : std::string_view(message);
}

}  // namespace malachite
