#include "cli/fio/fio_logs.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>

#include "cli/report_file.h"

namespace loadcell {
namespace {

// The option that asks for a log of `kind`.
const char* LogOption(FioLogKind kind) {
  switch (kind) {
    case FioLogKind::kBw:
      return "write_bw_log";
    case FioLogKind::kIops:
      return "write_iops_log";
    default:
      return "write_lat_log";
  }
}

// The first line of the file at `path` (at most 256 bytes of it).
Result<std::string> FirstLine(FileSystem& fs, const std::string& path) {
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_RDONLY));
  std::string buf(256, '\0');
  Result<size_t> n = fs.PRead(fd, buf.data(), buf.size(), 0);
  (void)fs.Close(fd);
  if (!n.ok()) return n.status();
  buf.resize(*n);
  return buf.substr(0, buf.find('\n'));
}

// A log's target: its folder takes a file, and what is there is a log.
Status CheckOneTarget(const FioPlannedJob& job, FioLogKind kind, const std::string& path,
                      FileSystem& fs) {
  const std::string where = FioWhere(*job.spec, LogOption(kind)) + LogOption(kind) + ": ";
  LC_ASSIGN_OR_RETURN(FileInfo st, fs.Stat(path));
  if (st.exists && !st.is_regular) {
    return Status::InvalidArgument(where + path + " exists and is not a regular file");
  }
  if (st.exists && st.size > 0) {
    Result<std::string> line = FirstLine(fs, path);
    if (!line.ok() || !LooksLikeFioLogLine(*line)) {
      return Status::InvalidArgument(where + path +
                                     " exists and is not a fio log: loadcell does not replace it "
                                     "(remove it or choose another prefix)");
    }
  }
  ReportFile probe;  // the folder takes the file (the probe's temporary goes with it)
  if (Status opened = probe.Open(LogOption(kind), path); !opened.ok()) {
    return Status::InvalidArgument(FioWhere(*job.spec, LogOption(kind)) + opened.message());
  }
  return Status::Ok();
}

}  // namespace

FioLogSettings FioLogSettingsOf(const fio::FioJobSpec& spec) {
  FioLogSettings s;
  s.lat = !spec.write_lat_log.empty();
  s.bw = !spec.write_bw_log.empty();
  s.iops = !spec.write_iops_log.empty();
  s.avg_ns = spec.log_avg_ns;
  s.offset = spec.log_offset;
  return s;
}

std::vector<std::pair<FioLogKind, std::string>> FioLogFilesOf(const fio::FioJobSpec& spec,
                                                              int index) {
  std::vector<std::pair<FioLogKind, std::string>> out;
  if (!spec.write_lat_log.empty()) {
    for (FioLogKind k : {FioLogKind::kLat, FioLogKind::kClat, FioLogKind::kSlat}) {
      out.emplace_back(k, FioLogFileName(spec.write_lat_log, k, index));
    }
  }
  if (!spec.write_bw_log.empty()) {
    out.emplace_back(FioLogKind::kBw, FioLogFileName(spec.write_bw_log, FioLogKind::kBw, index));
  }
  if (!spec.write_iops_log.empty()) {
    out.emplace_back(FioLogKind::kIops,
                     FioLogFileName(spec.write_iops_log, FioLogKind::kIops, index));
  }
  return out;
}

Status CheckFioLogTargets(const FioPlan& plan, const std::string& output, FileSystem& fs) {
  std::vector<std::string> seen;
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& job : step) {
      for (const auto& [kind, path] : job.logs) {
        const std::string where = FioWhere(*job.spec, LogOption(kind)) + LogOption(kind) + ": ";
        if (!output.empty() && SamePath(path, output)) {
          return Status::InvalidArgument(where + path + " is also --output");
        }
        for (const std::string& other : seen) {
          if (SamePath(path, other)) {
            return Status::InvalidArgument(where + path + " is written by two logs");
          }
        }
        seen.push_back(path);
      }
    }
  }
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& job : step) {
      for (const auto& [kind, path] : job.logs) {
        for (const auto& other_step : plan.steps) {
          for (const FioPlannedJob& other : other_step) {
            for (const std::string& data : other.settings.files) {
              if (SamePath(path, data)) {
                return Status::InvalidArgument(FioWhere(*job.spec, LogOption(kind)) +
                                               LogOption(kind) + ": " + path +
                                               " is a data file of job " + other.instance.name);
              }
            }
          }
        }
        LC_RETURN_IF_ERROR(CheckOneTarget(job, kind, path, fs));
      }
    }
  }
  return Status::Ok();
}

Status WriteFioLogs(const FioPlannedJob& job, const FioLogRecorder* log,
                    std::vector<std::string>* written) {
  if (log == nullptr) return Status::Ok();
  for (const auto& [kind, path] : job.logs) {
    ReportFile file;
    LC_RETURN_IF_ERROR(file.Open(LogOption(kind), path));
    WriteFioLog(log->Lines(kind), log->settings().offset, file.stream());
    LC_RETURN_IF_ERROR(file.Commit());
    written->push_back(path);
  }
  return Status::Ok();
}

}  // namespace loadcell
