// Where the online tools send requests: an Azure Storage connection string (or the
// emulator's shorthand) turned into a table endpoint and its credentials.
#pragma once

#include <string>
#include <string_view>

#include "common/error.h"

namespace malachite::cli {

struct TableEndpoint {
  bool https = false;
  std::string host;       // "127.0.0.1", "myaccount.table.core.windows.net"
  std::string port;       // "10002", "443"
  std::string base_path;  // "/devstoreaccount1" (path style) or "" (host style, Azure)
  std::string account;
  std::string key;  // base64 account key ("" with a SAS)
  std::string sas;  // SAS token without the leading '?' ("" with a key)

  // "http://127.0.0.1:10002/devstoreaccount1", for messages and batch operation URLs.
  std::string BaseUrl() const;
};

// Parses a connection string: UseDevelopmentStorage=true (http://127.0.0.1:10002, the
// well-known account), or DefaultEndpointsProtocol, AccountName, AccountKey, TableEndpoint,
// EndpointSuffix (https://<account>.table.<suffix>), SharedAccessSignature; keys are
// case-insensitive. Errors: kInvalidInput naming what is missing or malformed.
Result<TableEndpoint> ParseConnectionString(std::string_view text);

// An endpoint from a URL ("http://127.0.0.1:10002/devstoreaccount1"; the account is the first
// path segment unless `account` is given, as for host-style URLs) and a key or SAS token.
// Errors: kInvalidInput.
Result<TableEndpoint> EndpointFromUrl(std::string_view url, std::string_view account,
                                      std::string_view key, std::string_view sas);

}  // namespace malachite::cli
