#pragma once
// What a dbsim run writes beside its report: -save's configuration and
// -log's XML error log (else the configuration's ErrorFile), their places
// checked and their files opened. Each is written to a temporary beside its
// target and put in place whole at the end (cli/report_file.h); a run that
// cannot clean up (a SIGKILL, a second stop signal after the first one's
// grace, a crash) would leave its temporary behind. So each temporary is
// recorded, with its identity, in the manifest of the run's folder (-dir:
// workloads/sqlio/sqlio_manifest.h) while the run holds that folder's lock,
// and the next run in that folder, holding the lock in turn (no run that
// could still write one is alive), removes each one recorded that is still
// there as it was made. Its line:
//   temporary /abs/.errors.xml.loadcell-1a2b3c4d by loadcell dbsim device=2049 inode=131
// followed by " birth=B" where the file system gives the file's birth. A
// file not recorded so, or no longer the one recorded (another device,
// inode or birth: FileId), is never removed. A kill between a temporary's
// creation and its record (one write) would still leave it.

#include <string>
#include <vector>

#include "cli/dbsim/dbsim_args.h"
#include "cli/dbsim/dbsim_error_log.h"
#include "cli/report_file.h"
#include "core/status.h"
#include "dbsim/dbsim_config.h"
#include "os/file_system.h"

namespace loadcell {

// What a run writes beside its report: the configuration it was given
// (-save) and the XML error log (-log, else the configuration's ErrorFile).
struct DbsimOutputs {
  ReportFile save;
  DbsimErrorLog log;
  ReportFile html;  // --report-html
};

// Checks -save's, the log's and --report-html's places and opens them (nothing is written
// yet), after removing a killed run's temporaries and before recording
// theirs (RemoveStaleDbsimTemporaries, RecordDbsimTemporaries).
// InvalidArgument when one is a file of the run, the other's, or cannot be
// written. REQUIRES: the lock of the run's folder (-dir) held, until `out`
// is gone.
Status OpenDbsimOutputs(const DbsimArgs& a, const DbsimConfig& config, DbsimOutputs& out);

struct DbsimTemporary {
  std::string path;  // absolute
  FileId id;
};

// The manifest line of `t`, with its newline.
std::string FormatDbsimTemporaryLine(const DbsimTemporary& t);
// The temporaries recorded in a manifest's text, in order; every other line
// skipped.
std::vector<DbsimTemporary> ParseDbsimTemporaries(const std::string& manifest);

// Records each of `paths` ("" skipped; made absolute) that exists in the
// manifest of `dir`, fsynced. REQUIRES: the lock of `dir` held.
Status RecordDbsimTemporaries(FileSystem& fs, const std::string& dir,
                              const std::vector<std::string>& paths);
// Removes each temporary recorded in the manifest of `dir` that is still
// there with its recorded identity (one a removal fails on stays). REQUIRES:
// the lock of `dir` held. FailedPrecondition when the manifest is not
// loadcell's (a link in its place, too large).
Status RemoveStaleDbsimTemporaries(FileSystem& fs, const std::string& dir);

}  // namespace loadcell
