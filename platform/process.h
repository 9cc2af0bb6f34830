// The process and its console: limits, signals, standard streams. One implementation per system
// (posix/process.cc, windows/process.cc), chosen by CMake; see files.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace malachite::platform {

// The process's open-file limit. Every connection is a descriptor (a SOCKET on Windows).
struct OpenFileLimit {
  static constexpr std::uint64_t kUnlimited = UINT64_MAX;
  std::uint64_t before = 0;  // the soft limit the process started with
  std::uint64_t now = 0;     // the soft limit in force (the hard limit when raising worked)
  std::uint64_t hard = 0;    // kUnlimited when the system sets none
};

// POSIX: raises the soft RLIMIT_NOFILE to the hard limit (capped at the kernel's fs.nr_open when
// the hard limit is unlimited). Windows: sockets have no per-process limit; reports the number
// of connections the server plans for (windows/process.cc). Never fails: when raising is
// refused, `now` is the unchanged soft limit.
OpenFileLimit RaiseOpenFileLimit();

// The signal numbers that ask the server to stop: SIGINT and SIGTERM; on Windows also SIGBREAK
// (Ctrl-Break). For an asio::signal_set.
std::vector<int> StopSignals();

// Windows: closing the console window, logging off and shutting down send no signal; this makes
// them raise SIGTERM (so the stop signal set sees them) and holds the system's handler while the
// process stops, for up to `grace_ms` (Windows ends the process when the handler returns).
// POSIX: nothing to do (SIGHUP is not a stop request here).
void ForwardConsoleCloseToSigterm(unsigned grace_ms);

// Reads standard input to its end with blocking reads and says how it ended ("standard input
// ended", "standard input failed"). For the parent-process lifeline where the input cannot be
// watched asynchronously.
std::string ReadStdinToEnd();

// Windows: puts stdout and stderr in binary mode, so the server's lines end in "\n" as on Linux
// (a console shows them the same; launchers and log collectors reading a pipe get one format on
// every system). POSIX: nothing to do.
void WriteStdioAsBytes();

// The program's arguments (argv[0] first) in UTF-8, as main(argc, argv) should have had them.
// POSIX: argv as it is (the bytes the caller gave; UTF-8 in any UTF-8 locale). Windows: argv
// holds the arguments converted to the ANSI code page, which loses every character outside it
// (a --data-dir named "données-数据" under code page 1252); these are the process's UTF-16
// command line split as the C runtime splits it (CommandLineToArgvW) and converted to UTF-8, or
// argv as it is when the two splits disagree on the count.
std::vector<std::string> Utf8Arguments(int argc, const char* const* argv);

// The environment ("NAME=value" entries) in UTF-8, as main's envp should have had it. POSIX:
// envp's entries as they are. Windows: envp is in the ANSI code page too; these are the process's
// UTF-16 environment block converted to UTF-8 (without the "=C:=C:\dir" entries of the drives'
// current directories, which are not variables).
std::vector<std::string> Utf8Environment(const char* const* envp);

bool StderrIsTerminal();

std::uint64_t CurrentProcessId();

}  // namespace malachite::platform
