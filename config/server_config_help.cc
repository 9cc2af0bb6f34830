// The --help text of the server: the options' table (OptionHelps, server_config.cc) laid out in
// columns, and the usage lines around it. The man page (man_page.cc) uses the same table.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "config/server_config.h"
#include "config/throttle_config.h"

namespace malachite {

std::string FormatOptionHelps(const std::vector<OptionHelp>& options) {
  std::string out;
  for (const OptionHelp& option : options) {
    std::string head = "  " + option.flag;
    if (!option.value_name.empty()) head += " " + option.value_name;
    head.resize(std::max<std::size_t>(head.size() + 1, 27), ' ');
    std::string_view help = option.help;
    std::string indent(27, ' ');
    out += head;
    for (std::size_t nl; (nl = help.find('\n')) != std::string_view::npos;) {
      out += std::string(help.substr(0, nl)) + "\n" + indent;
      help.remove_prefix(nl + 1);
    }
    out += std::string(help) + "\n";
    std::string tail;
    if (!option.default_text.empty()) tail = "default " + option.default_text;
    if (!option.env.empty()) tail += (tail.empty() ? "env " : "; env ") + option.env;
    if (!tail.empty()) out += indent + "(" + tail + ")\n";
  }
  return out;
}

std::string HelpText() {
  std::string out =
      "Usage: malachite [options]\n"
      "       malachite export|import|backup|restore|compact [options] (each --help)\n"
      "       malachite azurite-table [Azurite's table options]  (also as a link named\n"
      "                                      azurite-table; azurite-table --help)\n"
      "Malachite " +
      std::string(kMalachiteVersion) +
      ", an Azure Table storage emulator.\n"
      "\n"
      "Every option can also come from the environment (the MALACHITE_* name shown) or\n"
      "from a config file (--config FILE or MALACHITE_CONFIG: 'name = value' lines).\n"
      "Precedence: flags > environment > config file > defaults.\n"
      "\n"
      "Options:\n";
  out += FormatOptionHelps(OptionHelps());
  out += "\n" + ThrottleHelpText() + "\nEnvironment for throttling:\n" + ThrottleEnvHelpText();
  return out;
}

}  // namespace malachite
