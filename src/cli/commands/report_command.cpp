#include "cli/commands/report_command.h"

#include <algorithm>
#include <cerrno>

#include "cli/cluster_setup.h"
#include "cli/progress.h"
#include "core/progress.h"
#include "report/html/html_report.h"
#include "report/json/json_reader.h"

namespace loadcell {

Result<RunExtras> TakeRunExtras(RawOptions& options) {
  RunExtras extras;
  if (RawOption* o = options.Find("report-html"); o != nullptr && !o->consumed) {
    o->consumed = true;
    if (!o->has_value || o->value.empty()) {
      return Status::InvalidArgument(o->spelled + ": needs a file name (--report-html=PATH)");
    }
    extras.report_html = o->value;
  }
  LC_ASSIGN_OR_RETURN(extras.quiet, TakeQuietOption(options));
  LC_ASSIGN_OR_RETURN(extras.cluster, TakeClusterOptions(options));
  if (extras.quiet) SetProgressEnabled(false);
  return extras;
}

double HtmlSamplePeriod(double time_limit_s) {
  if (time_limit_s <= 0) return 1.0;
  return std::clamp(time_limit_s / 60.0, 0.1, 1.0);
}

Status RunAddons::Attach(const RunExtras& extras, const Workload& w, const ReportSettings& settings,
                         RunConfig& cfg, MultiReporter& reporters, std::ostream& err) {
  double period = 0;
  if (!extras.report_html.empty()) {
    if (!cfg.output_file.empty() && SamePath(cfg.output_file, extras.report_html)) {
      return Status::InvalidArgument("--report-html=" + extras.report_html +
                                     ": the same file as --output-file; give each its own");
    }
    LC_RETURN_IF_ERROR(html_.Open("--report-html", extras.report_html));
    if (cfg.report_interval_s <= 0) period = HtmlSamplePeriod(cfg.time_s);
  }
  if (!extras.quiet && cfg.report_interval_s <= 0 && StderrIsTerminal()) {
    reporters.Add(MakeLiveStatus(err, cfg.time_s));
    period = period > 0 ? std::min(period, kLiveStatusPeriodS) : kLiveStatusPeriodS;
  }
  if (html_.is_open()) reporters.Add(MakeHtmlReporter(html_.stream(), w, settings));
  cfg.status_interval_s = period;
  return Status::Ok();
}

Status RunAddons::Finish() { return html_.Commit(); }

int RunReportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string input;
  std::string output;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-o" || a == "--output") {
      if (i + 1 >= args.size()) {
        err << "loadcell: error: report: " << a << " needs a file name (-o report.html)\n";
        return 2;
      }
      output = args[++i];
    } else if (a.rfind("--output=", 0) == 0) {
      output = a.substr(9);
    } else if (a == "--help" || a == "-h") {
      out << "Usage: loadcell report RESULT.json [-o REPORT.html]\n"
             "Writes the HTML report of a saved JSON result (--format=json) to REPORT.html,\n"
             "or to standard output without -o.\n";
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      err << "loadcell: error: report: unknown option '" << a
          << "'; usage: loadcell report RESULT.json [-o REPORT.html]\n";
      return 2;
    } else if (input.empty()) {
      input = a;
    } else {
      err << "loadcell: error: report: one result at a time ('" << input << "' and '" << a
          << "'); to put results side by side use 'loadcell compare'\n";
      return 2;
    }
  }
  if (input.empty()) {
    err << "loadcell: error: report: no result file given; usage: loadcell report RESULT.json "
           "[-o REPORT.html]\n";
    return 2;
  }
  if (!output.empty() && output != "-" && SamePath(input, output)) {
    err << "loadcell: error: report: -o " << output
        << " is the result file itself; write the page to another file\n";
    return 2;
  }
  Result<ResultData> data = ReadResultFile(input);
  if (!data.ok()) {
    err << "loadcell: error: " << data.status().ToString() << "\n";
    return 2;
  }
  std::string page = RenderRunHtml(*data);
  if (output.empty() || output == "-") {
    out << page;
    out.flush();
    return 0;
  }
  ReportFile file;
  if (Status s = file.Open("-o", output); !s.ok()) {
    err << "loadcell: error: report: " << s.ToString() << "\n";
    return 2;
  }
  file.stream() << page;
  if (Status s = file.Commit(); !s.ok()) {
    err << "loadcell: error: report: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace loadcell
