#pragma once
// Inline SVG charts for the HTML report, drawn by loadcell itself (no
// script, no external resource). Every chart is one <svg> element carrying
//   data-chart="<id>"      which chart it is
//   data-points="<N>"      how many data points it draws
//   data-series="<S>"      how many series (lines or bar groups)
// so that tests (and curious readers) can check what was drawn. Points carry
// a <title> for a hover tooltip. Colours come from the page's CSS classes
// s0..s7 (see html_report.cpp), so a chart follows the page's print style.
//
// These are layout functions only: they place given numbers, they compute
// no statistics.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loadcell::html {

// Text safe inside HTML/SVG text and attribute values.
std::string Escape(std::string_view s);

// Number text for axis labels and tooltips: at most `digits` significant
// digits, no exponent for everyday magnitudes ("0.25", "1200", "1.5M").
std::string ShortNumber(double v, int digits = 3);
// A duration in nanoseconds for humans: "850 ns", "12.5 µs", "3.2 ms", "1.05 s".
std::string ShortDuration(double ns);

struct Axis {
  std::string label;  // with its unit, e.g. "latency (ms)"
  bool log = false;   // base-10 logarithmic (values must be > 0; others are skipped)
  // When set, x values are indices 0..n-1 and these are their labels
  // (evenly spaced categories, e.g. "4K", "64K").
  std::vector<std::string> categories;
  // Formats a tick value; empty: ShortNumber.
  std::string (*format)(double) = nullptr;
};

struct Series {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;  // same length as x; a non-finite y is a gap
};

struct LineChart {
  std::string id;           // data-chart
  std::string description;  // for <desc> and aria-label
  Axis x;
  Axis y;
  std::vector<Series> series;
  bool y_from_zero = true;  // linear y axis starts at 0
};

// An <svg> with axes, grid, one polyline (and point markers) per series.
std::string RenderLineChart(const LineChart& c);

struct Bar {
  std::string label;  // category label (under the bar)
  double value = 0;
  std::string tooltip;  // empty: label and value
};

struct BarChart {
  std::string id;
  std::string description;
  Axis y;
  std::string x_label;
  std::vector<Bar> bars;
  bool has_reference = false;  // draw a horizontal line at `reference`
  double reference = 0;
  std::string reference_label;
};

// Vertical bars, one per category.
std::string RenderBarChart(const BarChart& c);

struct HistogramBin {
  double low = 0;  // value range (same unit as the axis)
  double high = 0;
  uint64_t count = 0;
};

struct HistogramChart {
  std::string id;
  std::string description;
  Axis x;  // log is honoured; bins are drawn over [low, high]
  std::string y_label;
  std::vector<HistogramBin> bins;  // ascending, non-overlapping
};

// Bars over value ranges (a latency histogram on a log axis).
std::string RenderHistogramChart(const HistogramChart& c);

// The legend for `names` as HTML (coloured swatches s0..s7).
std::string RenderLegend(const std::vector<std::string>& names);

// Up to ~`target` round tick values covering [lo, hi] (linear axis).
std::vector<double> NiceTicks(double lo, double hi, int target);

}  // namespace loadcell::html
