#include "report/html_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/console_layout.hpp"
#include "report/untrusted_text.hpp"
#include "util/number_format.hpp"

namespace parlab::grader::html {
namespace {

std::string num(double v) {  // SVG coordinates
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

constexpr const char* kStyle = R"css(
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:1040px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 10px}h3{font-size:15px;margin:0 0 6px}
.meta{color:#5b6475;font-size:13px}.meta span{margin-right:14px}
.verdict{background:#fff;border-radius:10px;padding:16px 20px;margin:18px 0;box-shadow:0 1px 3px #0002;border-left:6px solid #3b82f6}
.verdict.good{border-left-color:#16a34a}.verdict.bad{border-left-color:#dc2626}
.total{font-size:28px;font-weight:700}.left-out{color:#5b6475}.next{margin-top:6px}
table{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 3px #0002}
th,td{text-align:left;padding:7px 10px;border-bottom:1px solid #e7e9ee;vertical-align:top}
th{background:#eef1f6;font-size:13px}td.points,th.points{text-align:right;white-space:nowrap}td[data-rate]{white-space:nowrap}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.pass{background:#dcfce7;color:#166534}.partial{background:#fef9c3;color:#854d0e}.fail{background:#fee2e2;color:#991b1b}
.skipped{background:#e0f2fe;color:#075985}.rerun{background:#ffedd5;color:#9a3412}.notgraded{background:#eceef2;color:#4b5563}
.card{background:#fff;border-radius:8px;padding:14px 16px;margin:12px 0;box-shadow:0 1px 3px #0002}
.card ul{margin:6px 0;padding-left:20px}p.message{white-space:pre-wrap;overflow-wrap:anywhere}.card li{overflow-wrap:anywhere}pre{background:#f1f3f7;padding:8px;border-radius:6px;overflow-x:auto;font-size:13px;white-space:pre-wrap}
.note{background:#fffbeb;border:1px solid #fde68a;border-radius:6px;padding:6px 10px;margin:6px 0;font-size:13px}
svg text{font:12px system-ui,sans-serif;fill:#1d2330}.charts{display:flex;flex-wrap:wrap;gap:16px}
)css";

}  // namespace

std::string escape(std::string_view raw) {
  const std::string text = untrusted_text::escape_controls(raw);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string page(const std::string& title, const std::string& body) {
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         // Nothing is fetched: no script, no image, no font from anywhere.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; img-src data:\">\n<title>" + escape(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<main>\n" + body +
         "</main>\n</body>\n</html>\n";
}

std::string status_badge(TestStatus s) {
  const char* css = "fail";
  switch (s) {
    case TestStatus::passed: css = "pass"; break;
    case TestStatus::partial: css = "partial"; break;
    case TestStatus::failed: css = "fail"; break;
    case TestStatus::skipped: css = "skipped"; break;
    case TestStatus::inconclusive: css = "rerun"; break;
    case TestStatus::not_graded: css = "notgraded"; break;
  }
  return "<span class=\"badge " + std::string(css) + "\" data-status=\"" + to_string(s) + "\">" +
         escape(console_layout::status_word(s)) + "</span>";
}

std::string ratio_band_svg(const Measurement& m) {
  const double width = 460, left = 12, right = 12, bar_y = 30, bar_h = 18;
  double top = std::max({m.full_at * 1.25, m.median_ratio * 1.15, m.ratio_high * 1.1, 0.5});
  for (double r : m.ratios) top = std::max(top, std::isfinite(r) ? r * 1.05 : top);
  top = std::min(top, std::max(m.full_at * 4, 4.0));  // one wild pair does not squash the band
  const double span = width - left - right;
  auto x = [&](double ratio) { return left + std::clamp(ratio / top, 0.0, 1.0) * span; };
  std::string svg = "<svg class=\"ratio-band\" width=\"" + num(width) + "\" height=\"86\" viewBox=\"0 0 " +
                    num(width) + " 86\" role=\"img\" data-ratio=\"" + format_number(m.median_ratio, 4) +
                    "\" data-zero=\"" + format_number(m.zero_at, 4) + "\" data-full=\"" +
                    format_number(m.full_at, 4) + "\"><title>speed ratio " +
                    format_number(m.median_ratio, 3) + "x: no credit at " +
                    format_number(m.zero_at, 3) + "x, full credit at " + format_number(m.full_at, 3) +
                    "x</title>\n<defs><linearGradient id=\"ramp\"><stop offset=\"0\" stop-color=\"#fecaca\"/>"
                    "<stop offset=\"1\" stop-color=\"#bbf7d0\"/></linearGradient></defs>\n";
  svg += "<rect x=\"" + num(left) + "\" y=\"" + num(bar_y) + "\" width=\"" + num(x(m.zero_at) - left) +
         "\" height=\"" + num(bar_h) + "\" fill=\"#fecaca\"/>\n";
  svg += "<rect x=\"" + num(x(m.zero_at)) + "\" y=\"" + num(bar_y) + "\" width=\"" +
         num(x(m.full_at) - x(m.zero_at)) + "\" height=\"" + num(bar_h) + "\" fill=\"url(#ramp)\"/>\n";
  svg += "<rect x=\"" + num(x(m.full_at)) + "\" y=\"" + num(bar_y) + "\" width=\"" +
         num(left + span - x(m.full_at)) + "\" height=\"" + num(bar_h) + "\" fill=\"#bbf7d0\"/>\n";
  for (double r : m.ratios) {
    if (!std::isfinite(r)) continue;
    svg += "<line x1=\"" + num(x(r)) + "\" x2=\"" + num(x(r)) + "\" y1=\"" + num(bar_y + 2) +
           "\" y2=\"" + num(bar_y + 7) + "\" stroke=\"#64748b\"/>\n";
  }
  if (m.ratio_high > 0) {
    svg += "<line x1=\"" + num(x(m.ratio_low)) + "\" x2=\"" + num(x(m.ratio_high)) + "\" y1=\"" +
           num(bar_y + bar_h / 2) + "\" y2=\"" + num(bar_y + bar_h / 2) +
           "\" stroke=\"#1e3a8a\" stroke-width=\"2\"/>\n";
    for (double r : {m.ratio_low, m.ratio_high}) {
      svg += "<line x1=\"" + num(x(r)) + "\" x2=\"" + num(x(r)) + "\" y1=\"" + num(bar_y + 4) +
             "\" y2=\"" + num(bar_y + bar_h - 4) + "\" stroke=\"#1e3a8a\" stroke-width=\"2\"/>\n";
    }
  }
  svg += "<circle cx=\"" + num(x(m.median_ratio)) + "\" cy=\"" + num(bar_y + bar_h / 2) +
         "\" r=\"6\" fill=\"#1d4ed8\" stroke=\"#fff\" stroke-width=\"2\"/>\n";
  svg += "<text x=\"" + num(x(m.median_ratio)) + "\" y=\"20\" text-anchor=\"middle\" font-weight=\"700\">" +
         format_number(m.median_ratio, 3) + "x</text>\n";
  svg += "<text x=\"" + num(x(m.zero_at)) + "\" y=\"66\" text-anchor=\"middle\">none " +
         format_number(m.zero_at, 3) + "x</text>\n";
  svg += "<text x=\"" + num(x(m.full_at)) + "\" y=\"80\" text-anchor=\"middle\">full " +
         format_number(m.full_at, 3) + "x</text>\n";
  return svg + "</svg>";
}

std::string roofline_svg(const Roofline& r) {
  const double width = 460, left = 12, span = 436;
  const double fraction = std::clamp(r.fraction, 0.0, 1.0);
  const std::string peak_name = r.bound == RooflineBound::memory ? "measured copy bandwidth" : "measured cuBLAS SGEMM rate";
  std::string svg = "<svg class=\"roofline\" width=\"" + num(width) + "\" height=\"70\" viewBox=\"0 0 " +
                    num(width) + " 70\" role=\"img\" data-fraction=\"" + format_number(r.fraction, 3) +
                    "\"><title>" + escape(format_number(r.achieved, 4) + " " + r.unit + " of " +
                                          format_number(r.peak, 4) + " " + r.unit) + "</title>\n";
  svg += "<rect x=\"" + num(left) + "\" y=\"24\" width=\"" + num(span) + "\" height=\"14\" fill=\"#e5e7eb\"/>\n";
  svg += "<rect x=\"" + num(left) + "\" y=\"24\" width=\"" + num(span * fraction) +
         "\" height=\"14\" fill=\"" + (fraction >= 0.6 ? "#22c55e" : "#f59e0b") + "\"/>\n";
  svg += "<circle cx=\"" + num(left + span * fraction) + "\" cy=\"31\" r=\"6\" fill=\"#1d4ed8\" stroke=\"#fff\" stroke-width=\"2\"/>\n";
  svg += "<text x=\"" + num(left) + "\" y=\"16\">" + escape(format_number(r.achieved, 4) + " " + r.unit) +
         " (" + format_number(r.fraction * 100, 3) + "% of the roof)</text>\n";
  svg += "<text x=\"" + num(left + span) + "\" y=\"56\" text-anchor=\"end\">roof: " +
         escape(format_number(r.peak, 4) + " " + r.unit + ", " + peak_name) + "</text>\n";
  return svg + "</svg>";
}

std::string phases_svg(const std::vector<Phase>& phases) {
  static const char* const kColors[] = {"#60a5fa", "#f97316", "#a78bfa", "#34d399", "#f472b6", "#facc15"};
  double total = 0;
  for (const Phase& p : phases) total += std::max(0.0, p.seconds);
  const double width = 460, left = 12, span = 436;
  std::string svg = "<svg class=\"phases\" width=\"" + num(width) + "\" height=\"" +
                    num(40 + 18 * phases.size()) + "\" role=\"img\"><title>GPU time per phase</title>\n";
  double at = left;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const double w = total > 0 ? span * std::max(0.0, phases[i].seconds) / total : 0;
    svg += "<rect x=\"" + num(at) + "\" y=\"6\" width=\"" + num(w) + "\" height=\"18\" fill=\"" +
           kColors[i % 6] + "\"/>\n";
    at += w;
    std::string name = phases[i].name;
    std::replace(name.begin(), name.end(), '_', ' ');
    svg += "<rect x=\"" + num(left) + "\" y=\"" + num(34 + 18 * i) + "\" width=\"10\" height=\"10\" fill=\"" +
           kColors[i % 6] + "\"/><text x=\"" + num(left + 16) + "\" y=\"" + num(43 + 18 * i) + "\">" +
           escape(name) + ": " + format_number(phases[i].seconds * 1e3, 3) + " ms (" +
           format_number(total > 0 ? 100 * phases[i].seconds / total : 0, 3) + "%)</text>\n";
  }
  return svg + "</svg>";
}

std::string histogram_svg(const std::vector<int>& bins, const std::vector<std::string>& labels) {
  const double width = 520, height = 190, left = 10, bottom = 150;
  const int highest = bins.empty() ? 0 : *std::max_element(bins.begin(), bins.end());
  const double slot = (width - 2 * left) / std::max<std::size_t>(bins.size(), 1);
  std::string svg = "<svg class=\"histogram\" width=\"" + num(width) + "\" height=\"" + num(height) +
                    "\" role=\"img\"><title>score histogram</title>\n";
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const double h = highest > 0 ? 120.0 * bins[i] / highest : 0;
    const double x = left + slot * i;
    svg += "<rect x=\"" + num(x + 3) + "\" y=\"" + num(bottom - h) + "\" width=\"" + num(slot - 6) +
           "\" height=\"" + num(h) + "\" fill=\"#3b82f6\" data-count=\"" + std::to_string(bins[i]) + "\"/>\n";
    svg += "<text x=\"" + num(x + slot / 2) + "\" y=\"" + num(bottom - h - 4) +
           "\" text-anchor=\"middle\">" + std::to_string(bins[i]) + "</text>\n";
    if (i < labels.size()) {
      svg += "<text x=\"" + num(x + slot / 2) + "\" y=\"" + num(bottom + 16) +
             "\" text-anchor=\"middle\" font-size=\"11\">" + escape(labels[i]) + "</text>\n";
    }
  }
  svg += "<line x1=\"" + num(left) + "\" x2=\"" + num(width - left) + "\" y1=\"" + num(bottom) +
         "\" y2=\"" + num(bottom) + "\" stroke=\"#94a3b8\"/>\n";
  return svg + "</svg>";
}

std::string fraction_bar_svg(double fraction) {
  fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
  return "<svg class=\"rate\" width=\"120\" height=\"12\" role=\"img\"><rect width=\"120\" height=\"12\" "
         "fill=\"#e5e7eb\"/><rect width=\"" + num(120 * fraction) + "\" height=\"12\" fill=\"" +
         (fraction >= 0.5 ? "#22c55e" : "#f59e0b") + "\"/></svg>";
}

}  // namespace parlab::grader::html
