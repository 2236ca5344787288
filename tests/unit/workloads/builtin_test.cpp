#include "workloads/builtin.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/options.h"
#include "testing/status.h"

namespace loadcell {
namespace {

TEST(Builtin, ListsTheBuiltinTestsInOrder) {
  std::vector<std::string> names;
  for (const WorkloadEntry& e : BuiltinWorkloads()) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "cpu", "memory", "threads", "mutex", "null", "fileio", "oltp_read_only",
                       "oltp_read_write", "oltp_write_only", "oltp_point_select",
                       "oltp_update_index", "oltp_update_non_index", "oltp_insert", "oltp_delete",
                       "select_random_points", "select_random_ranges", "bulk_insert", "oltp"}));
}

TEST(Builtin, EntriesMakeMatchingWorkloads) {
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    std::unique_ptr<Workload> w = e.make();
    ASSERT_NE(w, nullptr) << e.name;
    const WorkloadInfo info = w->Info();
    EXPECT_EQ(info.name, e.name);
    EXPECT_EQ(info.summary, e.summary);
    EXPECT_FALSE(e.summary.empty()) << e.name;
    EXPECT_FALSE(info.event_definition.empty()) << e.name;
    EXPECT_EQ(info.event_definition.find('\n'), std::string::npos) << e.name;
    // Every option registers and the defaults validate.
    OptionSet set(e.name + " options");
    w->RegisterOptions(set);
    RawOptions raw;
    EXPECT_OK(set.Apply(raw)) << e.name;
    EXPECT_OK(w->Validate(1)) << e.name;
  }
}

TEST(Builtin, MakeWorkloadByName) {
  auto cpu = MakeWorkload("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->Info().name, "cpu");
  EXPECT_EQ(MakeWorkload("fileio-nonexistent"), nullptr);
  EXPECT_EQ(MakeWorkload(""), nullptr);
}

TEST(Builtin, OptionNamesAreSysbenchs) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
      {"cpu", {"cpu-max-prime"}},
      {"memory",
       {"memory-block-size", "memory-total-size", "memory-scope", "memory-hugetlb", "memory-oper",
        "memory-access-mode"}},
      {"threads", {"thread-yields", "thread-locks"}},
      {"mutex", {"mutex-num", "mutex-locks", "mutex-loops"}},
      {"null", {}},
  };
  for (const auto& [test, options] : expected) {
    auto w = MakeWorkload(test);
    ASSERT_NE(w, nullptr);
    OptionSet set(test);
    w->RegisterOptions(set);
    std::vector<std::string> names;
    for (const OptionSpec& spec : set.specs()) names.push_back(spec.name());
    EXPECT_EQ(names, options) << test;
  }
}

}  // namespace
}  // namespace loadcell
