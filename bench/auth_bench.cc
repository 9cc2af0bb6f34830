// auth_bench: what authentication costs per request, in process and single-threaded: the
// Authenticator on one GET, signed with SharedKeyLite (path style and host style), and carrying an
// Entra ID bearer token decoded and checked without signature verification, then verified with an
// RS256 (RSA 2048) or ES256 (P-256) issuer key (its signature cached after the first request), and
// the signature check alone (what a token's first request pays). Tokens are minted once with
// OpenSSL. Each line is the fastest of five rounds.
//
//   auth_bench [--iterations 200000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "common/datetime.h"
#include "common/encoding.h"
#include "server/auth/authenticator.h"
#include "server/auth/issuer_keys.h"
#include "server/auth/jwt.h"
#include "server/auth/shared_key.h"
#include "server/http/router.h"
#include "tests/unit/server/test_tokens.h"

namespace {

using namespace malachite;
using namespace malachite::server;
using SteadyClock = std::chrono::steady_clock;

constexpr std::string_view kDate = "Sat, 21 Nov 2026 05:21:46 GMT";

template <typename Fn>
double NanosPerOp(std::size_t iterations, Fn&& fn) {
  const auto start = SteadyClock::now();
  for (std::size_t i = 0; i < iterations; ++i) fn();
  return std::chrono::duration<double, std::nano>(SteadyClock::now() - start).count() /
         static_cast<double>(iterations);
}

struct Case {
  Request request;
  Route route;
};

Case Make(std::string_view target, std::string_view host, std::string authorization,
          const HostRouting& routing) {
  Case c;
  c.request.method = "GET";
  c.request.target = std::string(target);
  c.request.secure = true;
  c.request.headers = {{"Host", std::string(host)},
                       {"x-ms-date", std::string(kDate)},
                       {"x-ms-version", "2019-02-02"}};
  c.route = *RouteRequest(c.request, routing);
  if (authorization.empty()) {
    const std::string key = *Base64Decode(kDevAccountKey);
    authorization = "SharedKeyLite devstoreaccount1:" +
                    *ComputeSignature(key, SharedKeyLiteStringToSign(c.request, c.route));
  }
  c.request.headers.push_back({"Authorization", authorization});
  return c;
}

void Run(std::string_view what, const Authenticator& auth, const Case& c, std::size_t iterations) {
  const DateTime now = *ParseRfc1123(kDate);
  if (auto ok = auth.Authenticate(c.request, c.route, now); !ok) {
    std::fprintf(stderr, "%s: %s %s\n", what.data(), ok.error().AzureCode().data(),
                 ok.error().detail.c_str());
    std::exit(1);
  }
  // The fastest of five rounds: the machine is shared, and other load only ever adds time.
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const double ns = NanosPerOp(iterations / 5, [&] {
      auto principal = auth.Authenticate(c.request, c.route, now);
      if (!principal) std::abort();
    });
    if (round == 0 || ns < best) best = ns;
  }
  std::printf("%-52s %9.0f ns/request\n", what.data(), best);
}

std::shared_ptr<const BearerVerifier> Verifier(const std::string& jwks_file) {
  OAuthConfig config;
  config.enabled = true;
  config.issuer_keys_file = jwks_file;
  return *BearerVerifier::Create(config);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t iterations = 200'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string_view(argv[i]) == "--iterations")
      iterations = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const std::vector<AccountConfig> accounts = {
      {std::string(kDevAccountName), std::string(kDevAccountKey), {}}};
  const HostRouting routing{true, {std::string(kDevAccountName)}, {}};
  const std::string claims =
      R"({"aud":"https://storage.azure.com","iss":"https://sts.windows.net/)"
      R"(72f988bf-86f1-41af-91ab-2d7cd011db47/","oid":"bench","nbf":0,"exp":4102444800})";
  const auto& rsa = testing::TestSigner::Rsa();
  const auto& ec = testing::TestSigner::Ec();
  const std::string jwks_file =
      (std::filesystem::temp_directory_path() / "malachite-auth-bench-jwks.json").string();
  std::ofstream(jwks_file) << R"({"keys":[)" << rsa.Jwk("r1") << "," << ec.Jwk("e1") << "]}";

  const Authenticator shared_key(accounts);
  const Authenticator decoding(accounts, Verifier(""));
  const Authenticator verifying(accounts, Verifier(jwks_file));
  std::filesystem::remove(jwks_file);

  const char* path = "/devstoreaccount1/orders(PartitionKey='p',RowKey='r')";
  const char* host_path = "/orders(PartitionKey='p',RowKey='r')";
  Run("SharedKeyLite, path style", shared_key, Make(path, "127.0.0.1:10002", "", routing),
      iterations);
  Run("SharedKeyLite, host style", shared_key,
      Make(host_path, "devstoreaccount1.localhost:10002", "", routing), iterations);
  Run("Bearer, decoded and checked (no issuer keys)", decoding,
      Make(path, "127.0.0.1:10002", "Bearer " + testing::UnsignedToken(claims), routing),
      iterations);
  Run("Bearer, RS256 verified (RSA 2048; signature cached)", verifying,
      Make(path, "127.0.0.1:10002", "Bearer " + rsa.Sign("r1", claims), routing), iterations);
  Run("Bearer, ES256 verified (P-256; signature cached)", verifying,
      Make(path, "127.0.0.1:10002", "Bearer " + ec.Sign("e1", claims), routing), iterations);
  // What a token's first request adds: the signature check itself.
  auto keys = *IssuerKeys::Parse(R"({"keys":[)" + rsa.Jwk("r1") + "," + ec.Jwk("e1") + "]}");
  for (const auto& [what, token] :
       {std::pair{"IssuerKeys::Verify RS256 (a token's first request)", rsa.Sign("r1", claims)},
        std::pair{"IssuerKeys::Verify ES256 (a token's first request)", ec.Sign("e1", claims)}}) {
    const Jwt jwt = *DecodeJwt(token);
    double best = 0;
    for (int round = 0; round < 5; ++round) {
      const double ns = NanosPerOp(iterations / 200, [&] {
        if (keys.Verify(jwt.alg, jwt.kid, jwt.signing_input, jwt.signature) !=
            SignatureCheck::kVerified) {
          std::abort();
        }
      });
      if (round == 0 || ns < best) best = ns;
    }
    std::printf("%-52s %9.0f ns/request\n", what, best);
  }
  return 0;
}
