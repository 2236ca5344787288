#pragma once
// The `validity` object of a result (docs/json-schema.md): the one writer of
// it, for loadcell's own JSON report and for the front ends' JSON that
// carries it beside their tool's fields (fio's jobs, dbsim's users).

#include "report/json/json_writer.h"
#include "runner/validity.h"

namespace loadcell {

// Writes `v` as the next value of `w`: overall, warnings, invalid,
// not_checked, cost_ms and every check (id, level, seen, advice, figures).
void WriteValidityJson(JsonWriter& w, const Validity& v);

}  // namespace loadcell
