#include "platform/process.h"

#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <fstream>

namespace malachite::platform {
namespace {

// The kernel refuses a soft limit above fs.nr_open (1,048,576 by default).
std::uint64_t KernelMaxOpen() {
  std::ifstream in("/proc/sys/fs/nr_open");
  std::uint64_t value = 0;
  if (in >> value && value > 0) return value;
  return 1u << 20;
}

std::uint64_t Limit(rlim_t value) {
  return value == RLIM_INFINITY ? OpenFileLimit::kUnlimited : static_cast<std::uint64_t>(value);
}

}  // namespace

OpenFileLimit RaiseOpenFileLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
  OpenFileLimit out{Limit(limit.rlim_cur), Limit(limit.rlim_cur), Limit(limit.rlim_max)};
  rlim_t wanted = limit.rlim_max;
  if (wanted == RLIM_INFINITY) wanted = KernelMaxOpen();
  if (limit.rlim_cur != RLIM_INFINITY && wanted > limit.rlim_cur) {
    rlimit raised = limit;
    raised.rlim_cur = wanted;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) out.now = wanted;
  }
  return out;
}

std::vector<int> StopSignals() { return {SIGINT, SIGTERM}; }

void ForwardConsoleCloseToSigterm(unsigned /*grace_ms*/) {}

std::string ReadStdinToEnd() {
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (n > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    return n == 0 ? "standard input ended" : "standard input failed";
  }
}

void WriteStdioAsBytes() {}

std::vector<std::string> Utf8Arguments(int argc, const char* const* argv) {
  return {argv, argv + argc};
}

std::vector<std::string> Utf8Environment(const char* const* envp) {
  std::vector<std::string> entries;
  for (; envp != nullptr && *envp != nullptr; ++envp) entries.emplace_back(*envp);
  return entries;
}

bool StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

std::uint64_t CurrentProcessId() { return static_cast<std::uint64_t>(::getpid()); }

}  // namespace malachite::platform
