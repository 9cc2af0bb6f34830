#include "platform/process.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>  // environ
#endif

namespace malachite::platform {
namespace {

TEST_CASE("platform process: SIGINT and SIGTERM stop the server on every system", "[platform]") {
  const std::vector<int> signals = StopSignals();
  CHECK(std::count(signals.begin(), signals.end(), SIGINT) == 1);
  CHECK(std::count(signals.begin(), signals.end(), SIGTERM) == 1);
}

TEST_CASE("platform process: the open-file limit in force is at least the one before",
          "[platform]") {
  const OpenFileLimit limit = RaiseOpenFileLimit();
  CHECK(limit.now >= limit.before);
  CHECK(limit.now > 0);
  CHECK(limit.hard >= limit.now);
}

TEST_CASE("platform process: the process id is this process's, the same each time", "[platform]") {
  CHECK(CurrentProcessId() != 0);
  CHECK(CurrentProcessId() == CurrentProcessId());
}

// "données-数据" in UTF-8 (outside code page 1252, the ANSI code page of Western Windows).
const std::string kUtf8Value =
    "donn\xc3\xa9"
    "es-\xe6\x95\xb0\xe6\x8d\xae";

TEST_CASE("platform process: the arguments in UTF-8 are the program's, one for each of argv's",
          "[platform]") {
#ifdef _WIN32
  // This program's own argv, as the C runtime made it (ANSI), and its command line, split again:
  // the same words, the ASCII ones (the test's name that ctest passes) unchanged.
  const std::vector<std::string> arguments = Utf8Arguments(__argc, __argv);
  REQUIRE(arguments.size() == static_cast<std::size_t>(__argc));
  for (int i = 0; i < __argc; ++i) {
    const std::string argument = __argv[i];
    const bool ascii = std::all_of(argument.begin(), argument.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii) CHECK(arguments[static_cast<std::size_t>(i)] == argument);
  }
#else
  // argv itself, whatever its bytes.
  const char* argv[] = {"malachite", "--data-dir", kUtf8Value.c_str(), "\xff", nullptr};
  CHECK(Utf8Arguments(4, argv) ==
        std::vector<std::string>{"malachite", "--data-dir", kUtf8Value, "\xff"});
  CHECK(Utf8Arguments(0, argv).empty());
#endif
}

TEST_CASE(
    "platform process: the environment in UTF-8 holds a value outside the ANSI code page "
    "as it was set",
    "[platform]") {
#ifdef _WIN32
  REQUIRE(::SetEnvironmentVariableW(L"MALACHITE_TEST_UTF8", L"donn\u00e9es-\u6570\u636e"));
  const std::vector<std::string> environment = Utf8Environment(nullptr);
  // The drives' current directories ("=C:=C:\\dir") are not variables.
  for (const std::string& entry : environment) CHECK(entry.front() != '=');
#else
  REQUIRE(::setenv("MALACHITE_TEST_UTF8", kUtf8Value.c_str(), 1) == 0);
  const std::vector<std::string> environment = Utf8Environment(environ);
#endif
  CHECK(std::count(environment.begin(), environment.end(), "MALACHITE_TEST_UTF8=" + kUtf8Value) ==
        1);
}

}  // namespace
}  // namespace malachite::platform
