#include "platform/process.h"

#include <fcntl.h>
#include <io.h>
#include <windows.h>
// After windows.h, which it needs.
#include <shellapi.h>

#include <array>
#include <csignal>
#include <cstdio>

#include "platform/windows/wide.h"

namespace malachite::platform {
namespace {

// Emulator: Windows sets no per-process limit on sockets (they are kernel handles, bounded by
// memory). The server plans for this many connections: ConnectionHighWater closes the
// longest-idle ones beyond most of it, as it does under a Linux limit.
constexpr std::uint64_t kPlannedConnections = 16384;

unsigned grace_ms_for_close = 0;

BOOL WINAPI OnConsoleEvent(DWORD event) {
  switch (event) {
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
      // The system ends the process when this handler returns (or after its own timeout): raise
      // the stop signal, then give the server its time to stop; its exit ends the wait.
      std::raise(SIGTERM);
      ::Sleep(grace_ms_for_close);
      return TRUE;
    default:
      // Ctrl-C and Ctrl-Break: the C runtime's handler turns them into SIGINT and SIGBREAK.
      return FALSE;
  }
}

}  // namespace

OpenFileLimit RaiseOpenFileLimit() {
  return {kPlannedConnections, kPlannedConnections, OpenFileLimit::kUnlimited};
}

std::vector<int> StopSignals() { return {SIGINT, SIGTERM, SIGBREAK}; }

void ForwardConsoleCloseToSigterm(unsigned grace_ms) {
  grace_ms_for_close = grace_ms;
  ::SetConsoleCtrlHandler(OnConsoleEvent, TRUE);
}

std::string ReadStdinToEnd() {
  HANDLE input = ::GetStdHandle(STD_INPUT_HANDLE);
  if (input == nullptr || input == INVALID_HANDLE_VALUE) return "standard input is closed";
  std::array<char, 4096> buffer{};
  for (;;) {
    DWORD n = 0;
    if (::ReadFile(input, buffer.data(), static_cast<DWORD>(buffer.size()), &n, nullptr)) {
      if (n > 0) continue;
      return "standard input ended";
    }
    // A pipe whose writer closed (the parent process ended) reports a broken pipe, not EOF.
    if (::GetLastError() == ERROR_BROKEN_PIPE) return "standard input ended";
    return "standard input failed";
  }
}

void WriteStdioAsBytes() {
  ::_setmode(::_fileno(stdout), _O_BINARY);
  ::_setmode(::_fileno(stderr), _O_BINARY);
}

std::vector<std::string> Utf8Arguments(int argc, const char* const* argv) {
  // The C runtime made argv from this same command line, narrowed to the ANSI code page.
  // CommandLineToArgvW splits it by the same documented rules (quotes, backslashes before a
  // quote); they differ only in corner cases (a doubled quote inside quotes). Should the counts
  // disagree, argv's split is the one the program was given: keep it rather than shift every
  // argument.
  int count = 0;
  LPWSTR* wide = ::CommandLineToArgvW(::GetCommandLineW(), &count);
  if (wide == nullptr) return {argv, argv + argc};
  std::vector<std::string> arguments;
  if (count == argc) {
    arguments.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) arguments.push_back(Utf8(wide[i]));
  } else {
    arguments.assign(argv, argv + argc);
  }
  ::LocalFree(wide);
  return arguments;
}

std::vector<std::string> Utf8Environment(const char* const* envp) {
  // The block is "NAME=value\0" entries, ended by an empty one.
  LPWCH block = ::GetEnvironmentStringsW();
  std::vector<std::string> entries;
  if (block == nullptr) {
    for (; envp != nullptr && *envp != nullptr; ++envp) entries.emplace_back(*envp);
    return entries;
  }
  for (const wchar_t* entry = block; *entry != L'\0';) {
    const std::wstring_view text(entry);
    if (text.front() != L'=') entries.push_back(Utf8(text));
    entry += text.size() + 1;
  }
  ::FreeEnvironmentStringsW(block);
  return entries;
}

bool StderrIsTerminal() { return ::_isatty(::_fileno(stderr)) != 0; }

std::uint64_t CurrentProcessId() { return ::GetCurrentProcessId(); }

}  // namespace malachite::platform
