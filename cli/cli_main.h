// The subcommands of the one binary: `malachite export|import|backup|restore ...` move data in
// and out of a data directory (server stopped) or a running endpoint, `malachite compact` gives a
// stopped one's free pages back to the disk. main() dispatches on argv[1] before the server's own
// options are parsed.
#pragma once

#include <string_view>

namespace malachite::cli {

// True when `arg` (argv[1]) names a subcommand.
bool IsCliCommand(std::string_view arg);

// Runs the subcommand argv[1] with its options. Returns the exit status: 0 done, 1 failed (one
// line on stderr says why), 2 bad usage. `--help` prints the command's options and returns 0.
int RunCli(int argc, const char* const* argv, const char* const* envp);

// The commands (cli_main.cc dispatches; each lives in its own file). Same contract as RunCli,
// with argv[1] the command.
int RunExport(int argc, const char* const* argv, const char* const* envp);
int RunImport(int argc, const char* const* argv, const char* const* envp);
int RunBackup(int argc, const char* const* argv, const char* const* envp);
int RunRestore(int argc, const char* const* argv, const char* const* envp);
int RunCompact(int argc, const char* const* argv, const char* const* envp);

}  // namespace malachite::cli
