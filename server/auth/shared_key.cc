#include "server/auth/shared_key.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <algorithm>
#include <array>
#include <atomic>

#include "common/encoding.h"

namespace malachite::server {
namespace {

constexpr std::string_view kSecondarySuffix = "-secondary";

std::string_view DateValue(const Request& request) {
  // Azure: spec §10.2 — x-ms-date wins over Date.
  if (auto date = request.Find("x-ms-date")) return *date;
  return request.Find("Date").value_or(std::string_view{});
}

// Appends the CanonicalizedResource of `route` to `out`.
void AppendCanonicalizedResource(const Route& route, std::string& out) {
  std::string_view path = route.raw_path;
  out += '/';
  out += route.account;
  if (route.secondary && !route.host_style) {
    // Azure: spec §10.4 — the secondary suffix is removed before signing.
    std::size_t end = path.find('/', 1);
    std::string_view segment = path.substr(0, end);
    if (segment.ends_with(kSecondarySuffix)) {
      out += segment.substr(0, segment.size() - kSecondarySuffix.size());
      path = end == std::string_view::npos ? std::string_view{} : path.substr(end);
    }
  }
  out += path;
  if (const std::string* comp = route.query.Find("comp")) {
    out += "?comp=";
    out += *comp;
  }
}

// An upper bound of what AppendCanonicalizedResource appends, so that a string to sign is built
// in one allocation.
std::size_t CanonicalizedResourceBound(const Route& route) {
  const std::string* comp = route.query.Find("comp");
  return 1 + route.account.size() + route.raw_path.size() + (comp ? 6 + comp->size() : 0);
}

}  // namespace

std::string CanonicalizedResource(const Route& route) {
  std::string out;
  out.reserve(CanonicalizedResourceBound(route));
  AppendCanonicalizedResource(route, out);
  return out;
}

std::string SharedKeyStringToSign(const Request& request, const Route& route) {
  const std::string_view md5 = request.Find("Content-MD5").value_or(std::string_view{});
  const std::string_view type = request.Find("Content-Type").value_or(std::string_view{});
  const std::string_view date = DateValue(request);
  std::string out;
  out.reserve(request.method.size() + md5.size() + type.size() + date.size() + 4 +
              CanonicalizedResourceBound(route));
  out += request.method;
  out += '\n';
  out += md5;
  out += '\n';
  out += type;
  out += '\n';
  out += date;
  out += '\n';
  AppendCanonicalizedResource(route, out);
  return out;
}

std::string SharedKeyLiteStringToSign(const Request& request, const Route& route) {
  const std::string_view date = DateValue(request);
  std::string out;
  out.reserve(date.size() + 1 + CanonicalizedResourceBound(route));
  out += date;
  out += '\n';
  AppendCanonicalizedResource(route, out);
  return out;
}

namespace {

// The HMAC implementation of the default provider, looked up once.
EVP_MAC* HmacAlgorithm() {
  static EVP_MAC* const algorithm = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  return algorithm;
}

// OpenSSL's reasons for the last failure on this thread, for logs.
std::string OpenSslError(std::string_view step) {
  std::string out = "HMAC-SHA256: ";
  out += step;
  while (const unsigned long code = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    out += "; ";
    out += text;
  }
  return out;
}

// Distinguishes keys in the per-thread cache below (ids are never reused, addresses could be).
std::atomic<std::uint64_t> next_key_id{1};

}  // namespace

struct HmacSha256Key::State {
  std::uint64_t id = 0;
  EVP_MAC_CTX* keyed = nullptr;  // holds the key; only duplicated, never used to sign
  std::string error;             // why `keyed` is null
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() { EVP_MAC_CTX_free(keyed); }
};

HmacSha256Key::HmacSha256Key(std::string_view raw_key) {
  auto state = std::make_shared<State>();
  state->id = next_key_id.fetch_add(1, std::memory_order_relaxed);
  EVP_MAC* algorithm = HmacAlgorithm();
  EVP_MAC_CTX* ctx = algorithm != nullptr ? EVP_MAC_CTX_new(algorithm) : nullptr;
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_construct_end()};
  if (ctx != nullptr && EVP_MAC_init(ctx, reinterpret_cast<const unsigned char*>(raw_key.data()),
                                     raw_key.size(), params) == 1) {
    state->keyed = ctx;
  } else {
    state->error = OpenSslError(ctx == nullptr ? "no HMAC context" : "EVP_MAC_init");
    EVP_MAC_CTX_free(ctx);
  }
  state_ = std::move(state);
}

Result<std::string> HmacSha256Key::Sign(std::string_view text) const {
  if (state_->keyed == nullptr) return Fail(ErrorCode::kInternalError, {}, state_->error);
  // One keyed context per thread and key (a request signs with one or two account keys), so
  // signing re-initializes a context instead of allocating one per request.
  struct Slot {
    std::uint64_t id = 0;
    EVP_MAC_CTX* ctx = nullptr;
  };
  struct Cache {
    std::array<Slot, 4> slots{};
    std::size_t next = 0;
    ~Cache() {
      for (Slot& slot : slots) EVP_MAC_CTX_free(slot.ctx);
    }
  };
  thread_local Cache cache;
  EVP_MAC_CTX* ctx = nullptr;
  for (const Slot& slot : cache.slots) {
    if (slot.id == state_->id) ctx = slot.ctx;
  }
  if (ctx == nullptr) {
    ctx = EVP_MAC_CTX_dup(state_->keyed);
    if (ctx == nullptr) return Fail(ErrorCode::kInternalError, {}, OpenSslError("EVP_MAC_CTX_dup"));
    Slot& slot = cache.slots[cache.next];
    cache.next = (cache.next + 1) % cache.slots.size();
    EVP_MAC_CTX_free(slot.ctx);
    slot = Slot{state_->id, ctx};
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  std::size_t length = 0;
  // A null key re-initializes with the key the context already holds.
  if (EVP_MAC_init(ctx, nullptr, 0, nullptr) != 1 ||
      EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(text.data()), text.size()) != 1 ||
      EVP_MAC_final(ctx, digest, &length, sizeof digest) != 1) {
    return Fail(ErrorCode::kInternalError, {}, OpenSslError("signing"));
  }
  return Base64Encode(std::string_view(reinterpret_cast<const char*>(digest), length));
}

Result<bool> SignatureMatches(const std::vector<HmacSha256Key>& keys, std::string_view to_sign,
                              std::string_view signature) {
  for (const HmacSha256Key& key : keys) {
    auto expected = key.Sign(to_sign);
    if (!expected) return tl::unexpected(expected.error());
    if (expected->size() == signature.size() &&
        CRYPTO_memcmp(expected->data(), signature.data(), signature.size()) == 0) {
      return true;
    }
  }
  return false;
}

Result<std::string> ComputeSignature(std::string_view raw_key, std::string_view string_to_sign) {
  return HmacSha256Key(raw_key).Sign(string_to_sign);
}

}  // namespace malachite::server
