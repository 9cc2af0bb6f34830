#include "server/admin/account_endpoints.h"

#include <openssl/rand.h>
#include <simdjson.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "common/encoding.h"
#include "server/http/url_coding.h"
#include "server/traffic/endpoint_answer.h"
#include "server/wire/error_render.h"
#include "server/wire/json_writer.h"
#include "storage/account_reset.h"

namespace malachite::server {
namespace {

constexpr std::string_view kPrefix = "/-/accounts";
// Azure: storage account keys are 64 random bytes (88 base64 characters).
constexpr std::size_t kKeyBytes = 64;
// Generated names: "t" + 14 of [a-z0-9], 72 bits, far inside the service's 24 characters.
constexpr std::size_t kGeneratedNameLength = 15;

std::string RandomBytes(std::size_t n) {
  std::string bytes(n, '\0');
  // OpenSSL's generator is seeded from the OS; it fails only when the OS has no entropy source.
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(n)) != 1) {
    std::random_device device;
    for (char& c : bytes) c = static_cast<char>(device());
  }
  return bytes;
}

std::string GeneratedName() {
  constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const std::string random = RandomBytes(kGeneratedNameLength);
  std::string name = "t";
  for (std::size_t i = 1; i < kGeneratedNameLength; ++i) {
    name += kAlphabet[static_cast<unsigned char>(random[i]) % kAlphabet.size()];
  }
  return name;
}

void AnswerError(const DataEndpoints& data, const Error& error, Response& response) {
  RenderError(error, ErrorFormat::kJson, NewGuidText(), data.clock->Now(), response);
  response.Set("Cache-Control", "no-cache");
}

void AnswerJson(Response& response, int status, const std::string& body) {
  Answer(response, status, "application/json", body + "\n");
}

// What the client asked for in the body of POST /-/accounts.
struct CreateRequest {
  std::string name;
  std::string key;
};

Result<CreateRequest> ParseCreate(std::string_view body) {
  CreateRequest create;
  const auto blank = body.find_first_not_of(" \t\r\n");
  if (blank == std::string_view::npos) return create;
  const auto invalid = [](std::string message) {
    return tl::unexpected(Error{ErrorCode::kInvalidInput, std::move(message), ""});
  };
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(body.data(), body.size()).get(object) != simdjson::SUCCESS) {
    return invalid("The body must be empty or a JSON object {\"name\": ..., \"key\": ...}.");
  }
  for (auto [field, value] : object) {
    std::string_view text;
    if (field != "name" && field != "key") {
      return invalid("Unknown member \"" + std::string(field) + "\" (name and key are known).");
    }
    if (value.get_string().get(text) != simdjson::SUCCESS) {
      return invalid("\"" + std::string(field) + "\" must be a string.");
    }
    (field == "name" ? create.name : create.key) = std::string(text);
  }
  return create;
}

// "host:port" of the Host header, split; the port is empty when the Host has none.
std::pair<std::string, std::string> SplitHost(std::string_view host) {
  const std::size_t colon = host.rfind(':');
  if (colon == std::string_view::npos || host.find(']', colon) != std::string_view::npos) {
    return {std::string(host), ""};
  }
  return {std::string(host.substr(0, colon)), std::string(host.substr(colon + 1))};
}

std::string ConnectionString(std::string_view scheme, const Account& account,
                             std::string_view endpoint) {
  return "DefaultEndpointsProtocol=" + std::string(scheme) + ";AccountName=" + account.name +
         ";AccountKey=" + account.key1 + ";TableEndpoint=" + std::string(endpoint) + ";";
}

// `host`: the Host the request was sent to; `secure`: whether it came over TLS.
std::string CreatedJson(const std::string& host, bool secure, const Account& account) {
  const std::string scheme = secure ? "https" : "http";
  const auto [hostname, port] = SplitHost(host);
  const std::string endpoint = scheme + "://" + host + "/" + account.name;
  const std::string host_style =
      scheme + "://" + account.name + ".localhost" + (port.empty() ? "" : ":" + port);
  std::string body = "{";
  JsonMembers members(body);
  members.String("name", account.name);
  members.String("key", account.key1);
  members.String("created", FormatIso8601(account.created));
  members.String("tableEndpoint", endpoint);
  members.String("connectionString", ConnectionString(scheme, account, endpoint));
  members.String("hostStyleTableEndpoint", host_style);
  members.String("hostStyleConnectionString", ConnectionString(scheme, account, host_style));
  return body + "}";
}

// One account of the list: {"name","key","runtime","created"?}.
void AppendListedJson(std::string& out, const Account& account) {
  out += '{';
  JsonMembers members(out);
  members.String("name", account.name);
  members.String("key", account.key1);
  members.Raw("runtime", account.runtime ? "true" : "false");
  if (account.runtime) members.String("created", FormatIso8601(account.created));
  out += '}';
}

void AnswerList(const DataEndpoints& data, Response& response) {
  std::string body = "{";
  JsonMembers members(body);
  members.Key("accounts");
  body += '[';
  bool first = true;
  data.directory->Current()->ForEach([&](const Account& account) {
    if (!first) body += ',';
    first = false;
    AppendListedJson(body, account);
  });
  AnswerJson(response, 200, body + "]}");
}

// After the write deleting `name`'s data committed (and the name left the directory, so the
// requests that record what the server keeps have stopped but for those already past
// authentication): the server forgets the account too, or its usage, capacity and partitions
// would outlive it (bench/soak: about 8 KiB per deleted account).
void ForgetAccount(const DataEndpoints& data, std::string_view name) {
  if (data.forget_account) data.forget_account(name);
}

// Deletes each of `names` with everything stored under it (storage::DeleteAccount) in one write.
Result<void> DeleteStoredAccounts(storage::Store& store, const std::vector<std::string>& names) {
  return store.Write([&](storage::WriteContext& write) -> Result<void> {
    for (const std::string& name : names) {
      if (auto deleted = storage::DeleteAccount(write, name); !deleted) return deleted;
    }
    return {};
  });
}

AdminJob CreateJob(const DataEndpoints& data, const Request& request, Response& response) {
  auto create = ParseCreate(request.body);
  if (!create) {
    AnswerError(data, create.error(), response);
    return {};
  }
  const bool named = !create->name.empty();
  std::string name = named ? std::move(create->name) : GeneratedName();
  std::string key = create->key.empty() ? Base64Encode(RandomBytes(kKeyBytes)) : create->key;
  auto account = AccountDirectory::MakeRuntime(std::move(name), std::move(key), data.clock->Now());
  if (!account) {
    AnswerError(data, account.error(), response);
    return {};
  }
  if (const Account* taken = data.directory->Current()->FindCaseless(account->name)) {
    AnswerError(data,
                Error{ErrorCode::kStorageAccountAlreadyTaken,
                      "The storage account named " + taken->name + " is already taken.", ""},
                response);
    return {};
  }
  return [&data, host = std::string(request.Find("Host").value_or("127.0.0.1")),
          secure = request.secure, account = std::move(*account)](Response& out) mutable {
    const std::string record = EncodeRuntimeAccount(account);
    const std::string& account_name = account.name;
    // Durable first, then served: a client told 201 finds the account after a crash too. What a
    // request that raced the delete of an earlier account of the same name left under it
    // (tables, service properties) is deleted in the same write, so the new account starts empty.
    auto written = data.store->Write([&](storage::WriteContext& write) -> Result<void> {
      if (auto cleared = storage::DeleteAccount(write, account_name); !cleared) return cleared;
      return write.PutRuntimeAccount(account_name, record);
    });
    if (!written) return AnswerError(data, written.error(), out);
    ForgetAccount(data, account_name);
    const std::string body = CreatedJson(host, secure, account);
    if (auto added = data.directory->Add({std::move(account)}); !added) {
      // Another POST took the name between the check and now: its record is the one stored.
      return AnswerError(data, added.error(), out);
    }
    AnswerJson(out, 201, body);
  };
}

AdminJob DeleteJob(const DataEndpoints& data, std::string name, Response& response) {
  const auto accounts = data.directory->Current();
  const Account* account = accounts->Find(name);
  if (account == nullptr || !account->runtime) {
    // Remove gives the error: unknown (404) or configured (409).
    auto removed = data.directory->Remove(name);
    AnswerError(data, removed ? Error{ErrorCode::kResourceNotFound, "", ""} : removed.error(),
                response);
    return {};
  }
  return [&data, name = std::move(name)](Response& out) {
    // Unknown to the next request first, then its data goes. Emulator: a request authenticated
    // just before may still write into a table of the account after the delete; such a table is
    // invisible (no account) and removed when an account of that name is made again.
    if (auto removed = data.directory->Remove(name); !removed) {
      return AnswerError(data, removed.error(), out);
    }
    auto written = data.store->Write(
        [&](storage::WriteContext& write) { return storage::DeleteAccount(write, name); });
    if (!written) return AnswerError(data, written.error(), out);
    ForgetAccount(data, name);
    out.status = 204;
    out.Set("Cache-Control", "no-cache");
    out.body.clear();
  };
}

}  // namespace

bool IsAccountsPath(std::string_view path) {
  return path == kPrefix || (path.starts_with(kPrefix) && path.size() > kPrefix.size() + 1 &&
                             path[kPrefix.size()] == '/');
}

AdminJob HandleAccountsRequest(const DataEndpoints& data, const Request& request,
                               Response& response) {
  const std::string_view path = PathOf(request.target);
  if (path == kPrefix) {
    if (request.method == "GET") {
      AnswerList(data, response);
      return {};
    }
    if (request.method == "POST") return CreateJob(data, request, response);
    AnswerError(data, Error{ErrorCode::kUnsupportedHttpVerb, "", ""}, response);
    response.Set("Allow", "GET, POST");
    return {};
  }
  if (request.method != "DELETE") {
    AnswerError(data, Error{ErrorCode::kUnsupportedHttpVerb, "", ""}, response);
    response.Set("Allow", "DELETE");
    return {};
  }
  return DeleteJob(data, PercentDecode(path.substr(kPrefix.size() + 1), false), response);
}

Result<std::size_t> LoadRuntimeAccounts(storage::Store& store, AccountDirectory& directory,
                                        bool transient) {
  auto view = store.Read();
  if (!view) return tl::unexpected(view.error());
  std::vector<Account> accounts;
  std::vector<std::string> names;  // with `transient`, instead of `accounts`
  std::optional<Error> unreadable;
  auto scanned = (*view)->ScanRuntimeAccounts([&](std::string_view name, std::string_view record) {
    auto account = DecodeRuntimeAccount(name, record);
    if (!account) {
      if (!unreadable) unreadable = account.error();
      return;
    }
    if (transient) {
      names.push_back(std::move(account->name));
    } else {
      accounts.push_back(std::move(*account));
    }
  });
  view->reset();
  if (!scanned) return tl::unexpected(scanned.error());
  if (unreadable) return tl::unexpected(*unreadable);
  if (transient) {
    if (auto deleted = DeleteStoredAccounts(store, names); !deleted) {
      return tl::unexpected(deleted.error());
    }
    return names.size();
  }
  const std::size_t count = accounts.size();
  if (auto added = directory.Add(std::move(accounts)); !added) {
    return tl::unexpected(added.error());
  }
  return count;
}

Result<std::size_t> DeleteRuntimeAccounts(storage::Store& store, AccountDirectory& directory) {
  std::vector<std::string> names;
  directory.Current()->ForEach([&](const Account& account) {
    if (account.runtime) names.push_back(account.name);
  });
  for (const std::string& name : names) (void)directory.Remove(name);
  if (auto deleted = DeleteStoredAccounts(store, names); !deleted) {
    return tl::unexpected(deleted.error());
  }
  return names.size();
}

}  // namespace malachite::server
