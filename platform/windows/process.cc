#include "platform/process.h"

#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <array>
#include <csignal>
#include <cstdio>

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

bool StderrIsTerminal() { return ::_isatty(::_fileno(stderr)) != 0; }

std::uint64_t CurrentProcessId() { return ::GetCurrentProcessId(); }

}  // namespace malachite::platform
