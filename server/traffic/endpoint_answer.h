// What every /-/ endpoint needs (traffic, insight, the explorer): the path and query parameters
// of a request-target, and plain, JSON and error answers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/http/message.h"

namespace malachite::server {

// The path of `target` (without the query). The view lives as long as `target`.
std::string_view PathOf(std::string_view target);

// The value of query parameter `name` of `target`, percent-decoded ('+' as a space), or nullopt
// when absent ("" when present without a value).
std::optional<std::string> QueryParam(std::string_view target, std::string_view name);

// Sets status, Content-Type, Cache-Control: no-cache and the body.
void Answer(Response& response, int status, std::string_view content_type, std::string body);
// `status` with {"error": message} as JSON.
void AnswerJsonError(Response& response, int status, std::string_view message);
// 405 with Allow: `allow`.
void MethodNotAllowed(Response& response, std::string_view allow);

}  // namespace malachite::server
