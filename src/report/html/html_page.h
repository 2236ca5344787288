#pragma once
// Pieces shared by the HTML pages (run report, sweep): the document head
// with its inline style sheet, and the manifest tables. Internal to the
// report module.

#include <string>
#include <utility>
#include <vector>

#include "report/json/json_reader.h"
#include "runner/run_result.h"

namespace loadcell::html {

// "<!DOCTYPE html>...<body><main>" with `title`.
std::string PageStart(const std::string& title);
// "</main></body></html>" with the footer line.
std::string PageEnd();

// A <section> with the manifest: what ran (test, command, version, threads,
// limits, seed), the workload's description, the options (set ones first,
// defaults folded into <details>) and the machine.
std::string ManifestSection(const Manifest& m);

// A table from rows of cells; cells of columns listed in `numeric` are
// right-aligned. The first row is the header.
std::string Table(const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& numeric, const std::string& css_class = "");

// A dbsim run's users and data files, a table each (ResultData's
// dbsim_users and dbsim_files); "" for another test. html_dbsim.cpp.
std::string DbsimTablesSection(const ResultData& r);

// A <figure> with a heading, a chart, an optional legend and a caption.
std::string Figure(const std::string& heading, const std::string& svg, const std::string& legend,
                   const std::string& caption);

}  // namespace loadcell::html
