#include "report/html/html_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/status.h"

namespace loadcell::html {
namespace {

// The drawing area in viewBox units; the <svg> scales to its container.
constexpr double kWidth = 560;
constexpr double kHeight = 280;
constexpr double kLeft = 62;
constexpr double kRight = 14;
constexpr double kTop = 12;
constexpr double kBottom = 44;
constexpr size_t kMaxMarkers = 400;  // beyond this many points only lines are drawn
constexpr int kPaletteColours = 8;

bool Finite(double v) { return std::isfinite(v); }

// Maps a data range onto a pixel range, linearly or on log10.
struct Scale {
  double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
  bool log = false;
  double Map(double v) const {
    double a = log ? std::log10(v) : v;
    double b0 = log ? std::log10(d0) : d0;
    double b1 = log ? std::log10(d1) : d1;
    if (b1 == b0) return (r0 + r1) / 2;
    return r0 + (a - b0) / (b1 - b0) * (r1 - r0);
  }
};

std::string Px(double v) { return fmt::format("{:.1f}", v); }

std::string TickText(const Axis& a, double v) {
  return a.format != nullptr ? a.format(v) : ShortNumber(v);
}

// Data range and ticks of one axis.
struct AxisLayout {
  double lo = 0, hi = 1;
  std::vector<double> ticks;
};

AxisLayout LayoutLinear(double lo, double hi, bool from_zero) {
  if (from_zero) lo = std::min(lo, 0.0);
  if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1);
  AxisLayout l;
  l.ticks = NiceTicks(lo, hi, 5);
  l.lo = std::min(lo, l.ticks.front());
  l.hi = std::max(hi, l.ticks.back());
  return l;
}

AxisLayout LayoutLog(double lo, double hi) {
  AxisLayout l;
  if (!(lo > 0)) lo = 1;
  if (!(hi >= lo)) hi = lo;
  int e0 = static_cast<int>(std::floor(std::log10(lo)));
  int e1 = static_cast<int>(std::ceil(std::log10(hi)));
  if (e1 == e0) ++e1;
  l.lo = std::pow(10.0, e0);
  l.hi = std::pow(10.0, e1);
  int step = std::max(1, (e1 - e0 + 5) / 6);
  for (int e = e0; e <= e1; e += step) l.ticks.push_back(std::pow(10.0, e));
  return l;
}

std::string SvgOpen(const std::string& id, const std::string& description, size_t points,
                    size_t series) {
  return fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\" data-points=\"{}\" data-series=\"{}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" role=\"img\" aria-label=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\"><desc>{}</desc>",
      Escape(id), points, series, kWidth, kHeight, Escape(description), Escape(description));
}

// Horizontal grid lines and labels of the y axis, the axis titles.
std::string YAxis(const Axis& a, const AxisLayout& l, const Scale& s) {
  std::string out;
  for (double t : l.ticks) {
    double y = s.Map(t);
    out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", Px(kLeft),
                       Px(y), Px(kWidth - kRight), Px(y));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                       Px(kLeft - 5), Px(y + 4), Escape(TickText(a, t)));
  }
  out += fmt::format(
      "<text class=\"axis-title\" transform=\"translate(13 {}) rotate(-90)\" "
      "text-anchor=\"middle\">{}</text>",
      Px((kTop + kHeight - kBottom) / 2), Escape(a.label));
  return out;
}

std::string XTitle(const std::string& label) {
  return fmt::format(
      "<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
      Px((kLeft + kWidth - kRight) / 2), Px(kHeight - 6), Escape(label));
}

std::string Frame() {
  return fmt::format("<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                     Px(kLeft), Px(kTop), Px(kWidth - kLeft - kRight),
                     Px(kHeight - kTop - kBottom));
}

// Labels under evenly spaced categories, thinned so that they do not overlap.
std::string CategoryLabels(const std::vector<std::string>& labels, const Scale& s) {
  std::string out;
  size_t widest = 1;
  for (const auto& l : labels) widest = std::max(widest, l.size());
  double slot = labels.empty() ? 1 : (kWidth - kLeft - kRight) / static_cast<double>(labels.size());
  size_t every =
      std::max<size_t>(1, static_cast<size_t>(std::ceil(static_cast<double>(widest) * 7.0 / slot)));
  for (size_t i = 0; i < labels.size(); i += every) {
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                       Px(s.Map(static_cast<double>(i))), Px(kHeight - kBottom + 16),
                       Escape(labels[i]));
  }
  return out;
}

std::string XTicks(const Axis& a, const AxisLayout& l, const Scale& s) {
  std::string out;
  for (double t : l.ticks) {
    double x = s.Map(t);
    out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", Px(x),
                       Px(kTop), Px(x), Px(kHeight - kBottom));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                       Px(x), Px(kHeight - kBottom + 16), Escape(TickText(a, t)));
  }
  return out;
}

std::string NoData(const std::string& id, const std::string& description) {
  return SvgOpen(id, description, 0, 0) + Frame() +
         fmt::format(
             "<text class=\"nodata\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">no data</text>",
             Px(kWidth / 2), Px(kHeight / 2)) +
         "</svg>";
}

}  // namespace

std::string Escape(std::string_view s) {
  // Control bytes (from a saved result, a host name, a label) never reach
  // the page raw: it may be printed to a terminal, where a carriage return
  // would let a value write over the line before it.
  const std::string text = EscapeControlBytes(s, "\t\n");
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string ShortNumber(double v, int digits) {
  if (!Finite(v)) return "n/a";
  double a = std::abs(v);
  if (a >= 1e12) return fmt::format("{:.{}g}T", v / 1e12, digits);
  if (a >= 1e9) return fmt::format("{:.{}g}G", v / 1e9, digits);
  if (a >= 1e6) return fmt::format("{:.{}g}M", v / 1e6, digits);
  if (a >= 1e4) return fmt::format("{:.{}g}k", v / 1e3, digits);
  if (a == 0) return "0";
  if (a < 1e-3) return fmt::format("{:.{}e}", v, std::max(0, digits - 1));
  // Plain decimals: up to `digits` significant ones.
  int int_digits = a >= 1 ? static_cast<int>(std::floor(std::log10(a))) + 1 : 0;
  int lead_zeros = a < 1 ? -static_cast<int>(std::floor(std::log10(a))) - 1 : 0;
  int decimals = std::max(0, digits - int_digits) + lead_zeros;
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string ShortDuration(double ns) {
  if (!Finite(ns)) return "n/a";
  double a = std::abs(ns);
  if (a >= 1e9) return ShortNumber(ns / 1e9) + " s";
  if (a >= 1e6) return ShortNumber(ns / 1e6) + " ms";
  if (a >= 1e3) return ShortNumber(ns / 1e3) + " µs";
  return ShortNumber(ns) + " ns";
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!(hi > lo)) return {lo};
  double raw = (hi - lo) / std::max(1, target);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  std::vector<double> out;
  double first = std::floor(lo / step) * step;
  for (int i = 0; i < 100; ++i) {
    double t = first + step * i;
    if (std::abs(t) < step * 1e-9) t = 0;
    out.push_back(t);
    if (t >= hi - step * 1e-9) break;
  }
  return out;
}

std::string RenderLegend(const std::vector<std::string>& names) {
  std::string out = "<ul class=\"legend\">";
  for (size_t i = 0; i < names.size(); ++i) {
    out += fmt::format("<li><span class=\"sw s{}\"></span>{}</li>", i % kPaletteColours,
                       Escape(names[i]));
  }
  return out + "</ul>";
}

namespace {

// A point is drawn when both coordinates are finite and positive on a log axis.
bool Usable(const LineChart& c, double x, double y) {
  return Finite(x) && Finite(y) && (!c.x.log || x > 0) && (!c.y.log || y > 0);
}

// The range of the usable points of every series.
struct DataBounds {
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
  double ymin = xmin, ymax = -xmin;
  size_t points = 0;
};

DataBounds BoundsOf(const LineChart& c) {
  DataBounds b;
  for (const Series& s : c.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!Usable(c, s.x[i], s.y[i])) continue;
      ++b.points;
      b.xmin = std::min(b.xmin, s.x[i]);
      b.xmax = std::max(b.xmax, s.x[i]);
      b.ymin = std::min(b.ymin, s.y[i]);
      b.ymax = std::max(b.ymax, s.y[i]);
    }
  }
  return b;
}

AxisLayout LayoutX(const LineChart& c, const DataBounds& b) {
  AxisLayout xl;
  if (!c.x.categories.empty()) {
    xl.lo = -0.5;
    xl.hi = static_cast<double>(c.x.categories.size()) - 0.5;
  } else if (c.x.log) {
    xl = LayoutLog(b.xmin, b.xmax);
  } else {
    xl = LayoutLinear(b.xmin, b.xmax, /*from_zero=*/false);
    // Time axes: start at the first point, not at a rounder value before it.
    xl.lo = b.xmin == b.xmax ? b.xmin - 1 : b.xmin;
    xl.hi = b.xmin == b.xmax ? b.xmax + 1 : b.xmax;
    xl.ticks.erase(std::remove_if(xl.ticks.begin(), xl.ticks.end(),
                                  [&](double t) { return t < xl.lo - 1e-9 || t > xl.hi + 1e-9; }),
                   xl.ticks.end());
  }
  return xl;
}

// Series `si` of `c` as one <g>: a polyline per run of usable points, and a
// marker with a tooltip per point when `markers`.
std::string SeriesSvg(const LineChart& c, size_t si, const Scale& xs, const Scale& ys,
                      bool markers) {
  const bool categorical = !c.x.categories.empty();
  const Series& s = c.series[si];
  size_t n = 0;
  std::string lines;
  std::string segment;
  std::string dots;
  auto flush = [&]() {
    if (!segment.empty()) {
      lines += fmt::format("<polyline class=\"line s{}\" points=\"{}\"/>", si % kPaletteColours,
                           segment);
    }
    segment.clear();
  };
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!Usable(c, s.x[i], s.y[i])) {
      flush();
      continue;
    }
    ++n;
    double px = xs.Map(s.x[i]);
    double py = ys.Map(s.y[i]);
    if (!segment.empty()) segment += ' ';
    segment += Px(px) + "," + Px(py);
    if (markers) {
      std::string xt =
          categorical && s.x[i] >= 0 && static_cast<size_t>(s.x[i]) < c.x.categories.size()
              ? c.x.categories[static_cast<size_t>(s.x[i])]
              : TickText(c.x, s.x[i]);
      dots += fmt::format(
          "<circle class=\"pt s{}\" cx=\"{}\" cy=\"{}\" r=\"2.6\"><title>{}: {} at "
          "{}</title></circle>",
          si % kPaletteColours, Px(px), Px(py), Escape(s.name), Escape(TickText(c.y, s.y[i])),
          Escape(xt));
    }
  }
  flush();
  return fmt::format("<g class=\"series\" data-series=\"{}\" data-points=\"{}\">{}{}</g>",
                     Escape(s.name), n, lines, dots);
}

}  // namespace

std::string RenderLineChart(const LineChart& c) {
  const bool categorical = !c.x.categories.empty();
  const DataBounds b = BoundsOf(c);
  if (b.points == 0) return NoData(c.id, c.description);

  const AxisLayout xl = LayoutX(c, b);
  const AxisLayout yl =
      c.y.log ? LayoutLog(b.ymin, b.ymax) : LayoutLinear(b.ymin, b.ymax, c.y_from_zero);
  Scale xs{xl.lo, xl.hi, kLeft, kWidth - kRight, c.x.log && !categorical};
  Scale ys{yl.lo, yl.hi, kHeight - kBottom, kTop, c.y.log};

  std::string out = SvgOpen(c.id, c.description, b.points, c.series.size());
  out += YAxis(c.y, yl, ys);
  out += categorical ? CategoryLabels(c.x.categories, xs) : XTicks(c.x, xl, xs);
  out += XTitle(c.x.label);
  out += Frame();
  const bool markers = b.points <= kMaxMarkers;
  for (size_t si = 0; si < c.series.size(); ++si) out += SeriesSvg(c, si, xs, ys, markers);
  return out + "</svg>";
}

std::string RenderBarChart(const BarChart& c) {
  if (c.bars.empty()) return NoData(c.id, c.description);
  double ymax = c.has_reference ? c.reference : 0;
  for (const Bar& b : c.bars) ymax = std::max(ymax, Finite(b.value) ? b.value : 0);
  AxisLayout yl = LayoutLinear(0, ymax, true);
  const double n = static_cast<double>(c.bars.size());
  Scale xs{-0.5, n - 0.5, kLeft, kWidth - kRight, false};
  Scale ys{yl.lo, yl.hi, kHeight - kBottom, kTop, false};
  std::string out = SvgOpen(c.id, c.description, c.bars.size(), 1);
  out += YAxis(c.y, yl, ys);
  std::vector<std::string> labels;
  for (const Bar& b : c.bars) labels.push_back(b.label);
  out += CategoryLabels(labels, xs);
  out += XTitle(c.x_label);
  out += Frame();
  const double slot = (kWidth - kLeft - kRight) / n;
  const double w = std::max(1.0, slot * 0.7);
  out += "<g class=\"series\" data-series=\"bars\" data-points=\"" + std::to_string(c.bars.size()) +
         "\">";
  for (size_t i = 0; i < c.bars.size(); ++i) {
    const Bar& b = c.bars[i];
    double v = Finite(b.value) ? b.value : 0;
    double x = xs.Map(static_cast<double>(i)) - w / 2;
    double y = ys.Map(v);
    std::string tip = b.tooltip.empty() ? b.label + ": " + TickText(c.y, v) : b.tooltip;
    out += fmt::format(
        "<rect class=\"bar s0\" x=\"{}\" y=\"{}\" width=\"{}\" "
        "height=\"{}\"><title>{}</title></rect>",
        Px(x), Px(y), Px(w), Px(std::max(0.0, kHeight - kBottom - y)), Escape(tip));
  }
  out += "</g>";
  if (c.has_reference) {
    double y = ys.Map(c.reference);
    out += fmt::format(
        "<line class=\"ref\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>"
        "<text class=\"ref-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        Px(kLeft), Px(y), Px(kWidth - kRight), Px(y), Px(kWidth - kRight - 4), Px(y - 4),
        Escape(c.reference_label));
  }
  return out + "</svg>";
}

std::string RenderHistogramChart(const HistogramChart& c) {
  std::vector<HistogramBin> bins;
  for (const HistogramBin& b : c.bins) {
    if (b.count > 0 && (!c.x.log || b.low > 0) && b.high >= b.low) bins.push_back(b);
  }
  if (bins.empty()) return NoData(c.id, c.description);
  double lo = bins.front().low;
  double hi = bins.back().high;
  uint64_t ymax = 0;
  for (const HistogramBin& b : bins) ymax = std::max(ymax, b.count);
  AxisLayout xl = c.x.log ? LayoutLog(lo, hi) : LayoutLinear(lo, hi, false);
  AxisLayout yl = LayoutLinear(0, static_cast<double>(ymax), true);
  Scale xs{xl.lo, xl.hi, kLeft, kWidth - kRight, c.x.log};
  Scale ys{yl.lo, yl.hi, kHeight - kBottom, kTop, false};
  Axis y_axis;
  y_axis.label = c.y_label;
  std::string out = SvgOpen(c.id, c.description, bins.size(), 1);
  out += YAxis(y_axis, yl, ys);
  out += XTicks(c.x, xl, xs);
  out += XTitle(c.x.label);
  out += Frame();
  out += "<g class=\"series\" data-series=\"count\" data-points=\"" + std::to_string(bins.size()) +
         "\">";
  for (const HistogramBin& b : bins) {
    double x0 = xs.Map(b.low);
    double x1 = std::max(x0 + 1.0, xs.Map(b.high));
    double y = ys.Map(static_cast<double>(b.count));
    out += fmt::format(
        "<rect class=\"bar s0\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} to {}: "
        "{}</title></rect>",
        Px(x0), Px(y), Px(x1 - x0), Px(std::max(0.0, kHeight - kBottom - y)),
        Escape(TickText(c.x, b.low)), Escape(TickText(c.x, b.high)), b.count);
  }
  return out + "</g></svg>";
}

}  // namespace loadcell::html
