#include "config/man_page.h"

#include <string>
#include <string_view>

#include "config/server_config.h"

namespace malachite {
namespace {

// roff escaping: backslashes and hyphens, and a leading '.' or '\'' that would start a request.
std::string Roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

constexpr std::string_view kHead = R"(.TH MALACHITE 1 "" "Malachite @VERSION@" "User Commands"
.SH NAME
malachite \- Azure Table storage emulator
.SH SYNOPSIS
.B malachite
[\fIoptions\fR]
.br
.B malachite \-\-probe
\fIurl\fR
.br
.B malachite export\fR|\fBimport\fR|\fBbackup\fR|\fBrestore\fR|\fBcompact
[\fIoptions\fR] (each with \fB\-\-help\fR)
.br
.B azurite\-table
[\fIAzurite's table options\fR], or
.B malachite azurite\-table
[\fIoptions\fR] (with \fB\-\-help\fR)
.SH DESCRIPTION
.B malachite
serves the Azure Table storage REST API on one port, with its data in an LMDB environment on
disk (or in memory with \fB\-\-in\-memory\fR). The Azure SDKs connect with
\fBUseDevelopmentStorage=true\fR or a connection string naming the account
\fBdevstoreaccount1\fR and its well\-known key; the server prints the connection string to copy
when it starts.
.PP
Every option can also be given in the environment (\fBMALACHITE_\fR\fINAME\fR, shown with each
option) or in a config file (\fB\-\-config\fR \fIfile\fR or \fBMALACHITE_CONFIG\fR) of
\fIname\fR \fB=\fR \fIvalue\fR lines with \fB#\fR comments. Precedence: flags, then the
environment, then the config file, then the defaults.
.PP
Run as \fBazurite\-table\fR (a link of that name, or the subcommand), it takes the command line
of Azurite's table service instead (\fB\-\-tableHost\fR, \fB\-\-tablePort\fR, \fB\-l\fR
\fIdir\fR, ...; \fBAZURITE_ACCOUNTS\fR), keeps its data in
\fIdir\fR\fB/__malachite_table__\fR and prints Azurite's start and ready lines.
.SH OPTIONS
)";

constexpr std::string_view kTail = R"(.SH ENDPOINTS
.TP
.B GET /\-/healthy
200 while the process serves (liveness).
.TP
.B GET /\-/ready
200 once the store is open, 503 while shutting down (readiness).
.TP
.B POST /\-/reset[?account=\fIname\fB][&seed=false]
Deletes the tables of the configured accounts (or one) in one write and restores the
\fB\-\-seed\fR fixtures.
.TP
.B POST /\-/backup?dest=\fIdir\fB
Copies the live store, consistent and compacted, into \fIdir\fR (new or empty) on the server's
file system.
.SH SIGNALS
SIGINT and SIGTERM stop accepting, finish in\-flight requests (at most 10 s) and close the
store; acknowledged writes are durable.
.SH EXIT STATUS
0 after a clean stop, 1 when the port or the data directory cannot be used, 2 for a bad option.
.SH EXAMPLES
.nf
malachite \-\-host 0.0.0.0 \-\-data\-dir /var/lib/malachite
malachite \-\-in\-memory \-\-port 0 \-\-log\-format json \-\-access\-log\-level info
malachite \-\-cert server.pem \-\-key server.key
malachite \-\-probe http://127.0.0.1:10002/\-/ready
.fi
)";

}  // namespace

std::string ManPage() {
  std::string out(kHead);
  out.replace(out.find("@VERSION@"), 9, kMalachiteVersion);
  for (const OptionHelp& option : OptionHelps()) {
    out += ".TP\n.B " + Roff(option.flag);
    std::string value;  // "<file>" -> file, in italics
    for (char c : option.value_name) {
      if (c != '<' && c != '>') value += c;
    }
    if (!value.empty()) out += " \\fI" + Roff(value) + "\\fR";
    out += "\n" + Roff(option.help) + (option.help.back() == '.' ? "\n" : ".\n");
    if (!option.default_text.empty()) out += "Default: " + Roff(option.default_text) + ".\n";
    if (!option.env.empty()) out += "Environment: \\fB" + Roff(option.env) + "\\fR.\n";
  }
  out += ".SS Throttling and faults\n.nf\n" + Roff(ThrottleHelpText()) + "\n" +
         Roff(ThrottleEnvHelpText()) + ".fi\n";
  out += kTail;
  return out;
}

}  // namespace malachite
