#include "report/json/validity_json.h"

namespace loadcell {

void WriteValidityJson(JsonWriter& w, const Validity& v) {
  w.BeginObject();
  w.Key("overall").String(OverallName(v.overall()));
  w.Key("warnings").Int(v.Count(CheckLevel::kWarn));
  w.Key("invalid").Int(v.Count(CheckLevel::kInvalid));
  w.Key("not_checked").Int(v.Count(CheckLevel::kNotChecked));
  w.Key("cost_ms").Double(v.cost_ms);
  w.Key("checks");
  w.BeginArray();
  for (const CheckOutcome& c : v.checks) {
    w.BeginObject();
    w.Key("id").String(c.id);
    w.Key("level").String(CheckLevelName(c.level));
    w.Key("seen").String(c.seen);
    w.Key("advice").String(c.advice);
    w.Key("figures");
    w.BeginObject();
    for (const CheckFigure& f : c.figures) w.Key(f.name).Double(f.value);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace loadcell
