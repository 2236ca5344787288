#pragma once
// SQLIOSim's XML error log as `loadcell dbsim` writes it (-log FILE, or the
// configuration's ErrorFile; docs/dbsim.md, "The XML error log"), in
// SQLIOSim's layout so that its stylesheet (ErrorLog.xslt) renders it: one
// XML document naming that stylesheet, a LOG element holding an ENTRY
// element per event with SQLIOSim's attributes (TYPE, TIME, DATE, TID,
// User, File, Line, Func, HRESULT, SYSTEXT) and an EXTENDED_DESCRIPTION;
// loadcell's own facts beside them: the time since the run's start, and of
// a page that failed its check its data file, page, offset, kind, the
// expected and the seen header fields and what its re-reads saw. Written to a temporary file and
// put in place whole at the end (cli/report_file.h; the temporary recorded:
// cli/dbsim/dbsim_outputs.h). Not thread-safe: the database calls Fault under its lock of failures,
// the rest is called from the command's thread.

#include <cstdint>
#include <string>

#include "cli/report_file.h"
#include "core/status.h"
#include "workloads/dbsim/dbsim_database.h"

namespace loadcell {

class DbsimErrorLog final {
 public:
  // Opens the log at `path`, `option` ("-log", "ErrorFile") naming it in
  // errors: InvalidArgument when its folder does not exist or cannot be
  // written (nothing is left behind then).
  Status Open(const std::string& option, const std::string& path);
  bool is_open() const { return file_.is_open(); }
  // The temporary the log is written to until Finish ("" when not open).
  const std::string& temporary() const { return file_.temporary(); }

  // The document's start and its first entry: what runs (`what`), at
  // `start_ns` (MonotonicNow(): the entries' times count from it).
  void Begin(const std::string& what, int64_t start_ns);
  // One page that failed its check (DbsimDatabase's fault sink).
  void Fault(const DbsimFaultRecord& f);
  // An entry of `type` ("INFO", "ERROR") for `user` ("main", a user's name).
  void Entry(const std::string& type, const std::string& user, const std::string& text);
  // The last entry (`summary`), the document's end, and the file put in
  // place: IoError naming it when a write failed.
  Status Finish(const std::string& summary);

 private:
  // What an ENTRY's start tag says of it (SQLIOSim's attributes).
  struct EntryHead {
    std::string type;  // INFO, WARNING, ERROR
    std::string user;
    int tid = 0;       // the user's thread number; 0: the main thread
    std::string file;  // where in loadcell's source
    int line = 0;
    std::string func;
    std::string hresult = "0x00000000";
    std::string systext;
  };
  // The ENTRY start tag's common attributes (not its '>').
  std::string EntryStart(const EntryHead& e, uint64_t at_ns) const;

  ReportFile file_;
  int64_t start_ns_ = 0;
};

}  // namespace loadcell
