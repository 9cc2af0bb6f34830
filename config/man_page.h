// malachite(1), generated from the option table of server_config.cc.
#pragma once

#include <string>

namespace malachite {

// The man page malachite(1) in roff, generated from the same table as --help (the build writes
// it with `malachite --man`; `cmake --install` puts it in share/man/man1).
std::string ManPage();

}  // namespace malachite
