#include "cli/cli_main.h"

#include <cstdio>
#include <string>

namespace malachite::cli {

bool IsCliCommand(std::string_view arg) {
  return arg == "export" || arg == "import" || arg == "backup" || arg == "restore" ||
         arg == "compact";
}

int RunCli(int argc, const char* const* argv, const char* const* envp) {
  const std::string_view command = argv[1];
  if (command == "export") return RunExport(argc, argv, envp);
  if (command == "import") return RunImport(argc, argv, envp);
  if (command == "backup") return RunBackup(argc, argv, envp);
  if (command == "restore") return RunRestore(argc, argv, envp);
  if (command == "compact") return RunCompact(argc, argv, envp);
  std::fprintf(stderr, "malachite: unknown command '%s'\n", argv[1]);
  return 2;
}

}  // namespace malachite::cli
