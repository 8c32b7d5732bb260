#pragma once
// Pieces of the self-contained HTML pages (a grading's report.html, a batch's
// summary.html): escaping, the page frame with its inline style, and inline SVG
// charts. No script, no font, no request: a page opens offline, from a mail or an LMS.
#include <string>
#include <string_view>
#include <vector>

#include "result/result.hpp"

namespace parlab::grader::html {

// Text for HTML content or attributes: controls and invalid UTF-8 shown escaped
// (untrusted_text), then & < > " ' as entities.
std::string escape(std::string_view raw);

// A whole document: <!doctype html>, the title, the inline style, `body`.
std::string page(const std::string& title, const std::string& body);

// CSS class of a status badge ("pass", "fail", ...) and its word (console_layout's).
std::string status_badge(TestStatus s);

// A performance test's speed ratio against its band: no credit up to zero_at, full
// credit from full_at; the median ratio as a dot, its 95 % confidence interval as a
// whisker, each pair's ratio as a tick. Carries data-ratio for tests.
std::string ratio_band_svg(const Measurement& m);

// The roofline point: achieved against the device's measured peak (memory or compute).
std::string roofline_svg(const Roofline& r);

// GPU time split: one stacked bar of the phases (transfers, kernels), with a legend.
std::string phases_svg(const std::vector<Phase>& phases);

// A histogram of counts per bin, labelled under each bar.
std::string histogram_svg(const std::vector<int>& bins, const std::vector<std::string>& labels);

// A horizontal bar 0..1 (pass rates).
std::string fraction_bar_svg(double fraction);

}  // namespace parlab::grader::html
