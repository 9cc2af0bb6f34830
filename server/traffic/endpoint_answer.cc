#include "server/traffic/endpoint_answer.h"

#include "server/http/url_coding.h"
#include "server/wire/json_writer.h"

namespace malachite::server {

std::string_view PathOf(std::string_view target) { return target.substr(0, target.find('?')); }

std::optional<std::string> QueryParam(std::string_view target, std::string_view name) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view item = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    const std::size_t eq = item.find('=');
    if (item.substr(0, eq) == name) {
      return eq == std::string_view::npos ? std::string()
                                          : PercentDecode(item.substr(eq + 1), true);
    }
  }
  return std::nullopt;
}

void Answer(Response& response, int status, std::string_view content_type, std::string body) {
  response.status = status;
  response.headers.push_back({"Content-Type", std::string(content_type)});
  response.headers.push_back({"Cache-Control", "no-cache"});
  response.body = std::move(body);
}

void AnswerJsonError(Response& response, int status, std::string_view message) {
  std::string body = "{\"error\":";
  AppendJsonString(body, message);
  body += "}\n";
  Answer(response, status, "application/json", std::move(body));
}

void MethodNotAllowed(Response& response, std::string_view allow) {
  Answer(response, 405, "text/plain; charset=utf-8", "method not allowed\n");
  response.headers.push_back({"Allow", std::string(allow)});
}

}  // namespace malachite::server
