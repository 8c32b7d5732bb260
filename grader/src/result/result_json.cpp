// GradeResult <-> JSON. Writing is a plain field-by-field mapping; reading checks every
// field's presence and type and names the exact path of the first bad one, because a
// result file may come from another grader version or a hand edit.
#include "result/result_json.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

namespace parlab::grader {
namespace {

using nlohmann::json;

// JSON has no NaN or infinity, and a student's NaN is exactly what a mismatch reports.
json number_to_json(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

json mismatch_to_json(const Mismatch& m) {
  return {{"array", m.array},
          {"index", m.index},
          {"label", m.label},
          {"expected", number_to_json(m.expected)},
          {"got", number_to_json(m.got)},
          {"tolerance", m.tolerance},
          {"mismatches", m.mismatches},
          {"compared", m.compared}};
}

json measurement_fields(const Measurement& m) {
  json ratios = json::array();
  for (double r : m.ratios) ratios.push_back(number_to_json(r));
  return {{"baseline", m.baseline},
          {"candidate", m.candidate},
          {"ratios", std::move(ratios)},
          {"median_ratio", number_to_json(m.median_ratio)},
          {"spread", number_to_json(m.spread)},
          {"baseline_median_s", number_to_json(m.baseline_median_s)},
          {"candidate_median_s", number_to_json(m.candidate_median_s)},
          {"full_at", number_to_json(m.full_at)},
          {"zero_at", number_to_json(m.zero_at)},
          {"cores", m.cores},
          {"warmup_pairs", m.warmup_pairs},
          {"noisy", m.noisy}};
}

json counter_to_json(const CounterMeasurement& c) {
  return {{"counter", c.counter},
          {"what", c.what},
          {"value", number_to_json(c.value)},
          {"reference", number_to_json(c.reference)},
          {"ratio", number_to_json(c.ratio)},
          {"full_at", number_to_json(c.full_at)},
          {"zero_at", number_to_json(c.zero_at)}};
}

// What the grader observed itself; absent when nothing was observed (older results).
json measurement_to_json(const Measurement& m) {
  json out = measurement_fields(m);
  if (m.counter) out["counter"] = counter_to_json(*m.counter);  // a timed measurement has none
  // Known without the grader's own observation too (written before the early return).
  out["ratio_interval"] = {number_to_json(m.ratio_low), number_to_json(m.ratio_high)};
  out["serial_speedup"] = number_to_json(m.serial_speedup);
  if (m.reference_ratio > 0) {
    out["reference_gain"] = {{"ratio", number_to_json(m.reference_ratio)},
                             {"ratio_low", number_to_json(m.reference_ratio_low)},
                             {"spec_full_at", number_to_json(m.spec_full_at)}};
  }
  out["interference"] = m.interference;
  if (!(m.observed_cap > 0)) return out;
  out["observed"] = {{"reported_ratio", number_to_json(m.reported_ratio)},
                     {"cap", number_to_json(m.observed_cap)},
                     {"overhead_s", number_to_json(m.overhead_s)},
                     {"candidate_cores", number_to_json(m.candidate_cores)},
                     {"timing_trusted", m.timing_trusted},
                     {"candidate_processes", m.candidate_processes},
                     {"candidate_threads", m.candidate_threads},
                     {"work_spread", number_to_json(m.work_spread)},
                     {"required_cores", number_to_json(m.required_cores)}};
  return out;
}

json roofline_to_json(const Roofline& r) {
  return {{"bound", to_string(r.bound)},
          {"unit", r.unit},
          {"achieved", number_to_json(r.achieved)},
          {"peak", number_to_json(r.peak)},
          {"fraction", number_to_json(r.fraction)},
          {"hint", r.hint}};
}

json test_to_json(const TestResult& t) {
  json out = {{"name", t.name},
          {"kind", to_string(t.kind)},
          {"visibility", to_string(t.visibility)},
          {"points", number_to_json(t.points)},
          {"max_points", number_to_json(t.max_points)},
          {"status", to_string(t.status)},
          {"outcome", to_string(t.outcome)},
          {"message", t.message},
          {"mismatch", t.mismatch ? mismatch_to_json(*t.mismatch) : json(nullptr)},
          {"measurement", t.measurement ? measurement_to_json(*t.measurement) : json(nullptr)},
          {"stdout_tail", t.stdout_tail},
          {"stderr_tail", t.stderr_tail},
          {"dataset", t.dataset},
          {"seconds", number_to_json(t.seconds)}};
  // Optional (GPU labs), so CPU labs' results stay as they were.
  if (!t.phases.empty()) {
    json phases = json::array();
    for (const Phase& p : t.phases) {
      phases.push_back({{"name", p.name}, {"seconds", number_to_json(p.seconds)}});
    }
    out["phases"] = std::move(phases);
  }
  if (t.roofline) out["roofline"] = roofline_to_json(*t.roofline);
  return out;
}

json device_to_json(const DeviceInfo& d) {
  return {{"mode", to_string(d.mode)},
          {"name", d.name},
          {"detail", d.detail},
          {"bandwidth_gbs", number_to_json(d.bandwidth_gbs)},
          {"sgemm_gflops", number_to_json(d.sgemm_gflops)}};
}

json build_to_json(const BuildResult& b) {
  json diagnostics = json::array();
  for (const Diagnostic& d : b.diagnostics) {
    diagnostics.push_back({{"file", d.file},
                           {"line", d.line},
                           {"column", d.column},
                           {"severity", d.severity},
                           {"message", d.message}});
  }
  json out = {{"ok", b.ok},
              {"seconds", number_to_json(b.seconds)},
              {"command", b.command},
              {"log", b.log},
              {"diagnostics", std::move(diagnostics)}};
  if (!b.needs_gpu.empty()) out["needs_gpu"] = b.needs_gpu;
  return out;
}

json phases_to_json(const PhaseSeconds& p) {
  return {{"setup", number_to_json(p.setup)},
          {"reference_runs", number_to_json(p.reference_runs)},
          {"build", number_to_json(p.build)},
          {"tests", number_to_json(p.tests)},
          {"checking_reruns", number_to_json(p.checking_reruns)},
          {"performance", number_to_json(p.performance)}};
}

json host_to_json(const HostInfo& h) {
  json j = {{"hostname", h.hostname},
            {"cpu_model", h.cpu_model},
            {"cores", h.cores},
            {"sandbox", h.sandbox},
            {"gpu", h.gpu}};
  // Added in version 1 without a bump (docs/result-schema.md): absent in older results.
  if (!h.sandbox_level.empty()) j["sandbox_level"] = h.sandbox_level;
  if (!h.isolation.empty()) j["isolation"] = h.isolation;
  return j;
}

// Reads the fields of one JSON object, naming `path.key` in every error.
class FieldReader {
 public:
  FieldReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail(path_.empty() ? "result" : path_, "must be an object");
  }

  [[noreturn]] static void fail(const std::string& path, const std::string& problem) {
    throw std::runtime_error("result JSON: field '" + path + "' " + problem);
  }

  std::string path_of(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  bool has_value(const char* key) const {
    auto it = object_.find(key);
    return it != object_.end() && !it->is_null();
  }

  const json& require(const char* key) const {
    auto it = object_.find(key);
    if (it == object_.end()) fail(path_of(key), "is missing");
    return *it;
  }

  std::string string(const char* key) const {
    const json& v = require(key);
    if (!v.is_string()) fail(path_of(key), "must be a string, got " + std::string(v.type_name()));
    return v.get<std::string>();
  }

  bool boolean(const char* key) const {
    const json& v = require(key);
    if (!v.is_boolean()) fail(path_of(key), "must be a boolean, got " + std::string(v.type_name()));
    return v.get<bool>();
  }

  double number(const char* key) const { return number_from(require(key), path_of(key)); }

  static double number_from(const json& v, const std::string& path) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
      if (s == "Infinity") return std::numeric_limits<double>::infinity();
      if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    }
    fail(path, "must be a number (or \"NaN\", \"Infinity\", \"-Infinity\"), got " + v.dump());
  }

  int integer(const char* key) const {
    const json& v = require(key);
    if (!v.is_number_integer()) fail(path_of(key), "must be an integer, got " + v.dump());
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
    const bool fits = v.is_number_unsigned()
                          ? v.get<std::uint64_t>() <= kMax
                          : v.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                v.get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!fits) fail(path_of(key), "is out of range for an int: " + v.dump());
    return v.get<int>();
  }

  std::uint64_t unsigned_integer(const char* key) const {
    const json& v = require(key);
    if (!v.is_number_unsigned()) {
      fail(path_of(key), "must be a non-negative integer, got " + v.dump());
    }
    return v.get<std::uint64_t>();
  }

  const json& array(const char* key) const {
    const json& v = require(key);
    if (!v.is_array()) fail(path_of(key), "must be an array, got " + std::string(v.type_name()));
    return v;
  }

  FieldReader object(const char* key) const { return FieldReader(require(key), path_of(key)); }

  // Enum fields: the from_string error (which lists the valid names) gets the path.
  template <typename Parse>
  auto enumeration(const char* key, Parse parse) const {
    std::string text = string(key);
    try {
      return parse(text);
    } catch (const std::invalid_argument& e) {
      fail(path_of(key), e.what());
    }
  }

 private:
  const json& object_;
  std::string path_;
};

Mismatch mismatch_from(const FieldReader& f) {
  Mismatch m;
  m.array = f.string("array");
  m.index = f.unsigned_integer("index");
  m.label = f.string("label");
  m.expected = f.number("expected");
  m.got = f.number("got");
  m.tolerance = f.string("tolerance");
  m.mismatches = f.unsigned_integer("mismatches");
  m.compared = f.unsigned_integer("compared");
  return m;
}

CounterMeasurement counter_from(const FieldReader& f) {
  CounterMeasurement c;
  c.counter = f.string("counter");
  c.what = f.string("what");
  c.value = f.number("value");
  c.reference = f.number("reference");
  c.ratio = f.number("ratio");
  c.full_at = f.number("full_at");
  c.zero_at = f.number("zero_at");
  return c;
}

Measurement measurement_from(const FieldReader& f) {
  Measurement m;
  m.baseline = f.string("baseline");
  m.candidate = f.string("candidate");
  const json& ratios = f.array("ratios");
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    m.ratios.push_back(
        FieldReader::number_from(ratios[i], f.path_of("ratios") + "[" + std::to_string(i) + "]"));
  }
  m.median_ratio = f.number("median_ratio");
  m.spread = f.number("spread");
  m.baseline_median_s = f.number("baseline_median_s");
  m.candidate_median_s = f.number("candidate_median_s");
  m.full_at = f.number("full_at");
  m.zero_at = f.number("zero_at");
  m.cores = f.integer("cores");
  m.warmup_pairs = f.integer("warmup_pairs");
  m.noisy = f.boolean("noisy");
  if (f.has_value("observed")) {  // absent in results written before it existed
    FieldReader o = f.object("observed");
    m.reported_ratio = o.number("reported_ratio");
    m.observed_cap = o.number("cap");
    m.overhead_s = o.number("overhead_s");
    m.candidate_cores = o.number("candidate_cores");
    m.timing_trusted = o.boolean("timing_trusted");
    if (o.has_value("candidate_processes")) m.candidate_processes = o.integer("candidate_processes");
    if (o.has_value("candidate_threads")) m.candidate_threads = o.integer("candidate_threads");
    if (o.has_value("work_spread")) m.work_spread = o.number("work_spread");
    if (o.has_value("required_cores")) m.required_cores = o.number("required_cores");
  }
  if (f.has_value("ratio_interval")) {
    const json& ci = f.array("ratio_interval");
    if (ci.size() != 2) FieldReader::fail(f.path_of("ratio_interval"), "must hold two numbers");
    m.ratio_low = FieldReader::number_from(ci[0], f.path_of("ratio_interval") + "[0]");
    m.ratio_high = FieldReader::number_from(ci[1], f.path_of("ratio_interval") + "[1]");
  }
  if (f.has_value("serial_speedup")) m.serial_speedup = f.number("serial_speedup");
  if (f.has_value("reference_gain")) {  // gain tests only
    FieldReader g = f.object("reference_gain");
    m.reference_ratio = g.number("ratio");
    m.reference_ratio_low = g.number("ratio_low");
    m.spec_full_at = g.number("spec_full_at");
  }
  if (f.has_value("interference")) m.interference = f.string("interference");
  if (f.has_value("counter")) m.counter = counter_from(f.object("counter"));  // absent before it existed
  return m;
}

TestResult test_from(const FieldReader& f) {
  TestResult t;
  t.name = f.string("name");
  t.kind = f.enumeration("kind", test_kind_from_string);
  t.visibility = f.enumeration("visibility", visibility_from_string);
  t.points = f.number("points");
  t.max_points = f.number("max_points");
  t.status = f.enumeration("status", test_status_from_string);
  t.outcome = f.enumeration("outcome", run_outcome_from_string);
  t.message = f.string("message");
  if (f.has_value("mismatch")) t.mismatch = mismatch_from(f.object("mismatch"));
  if (f.has_value("measurement")) t.measurement = measurement_from(f.object("measurement"));
  t.stdout_tail = f.string("stdout_tail");
  t.stderr_tail = f.string("stderr_tail");
  t.dataset = f.string("dataset");
  t.seconds = f.number("seconds");
  if (f.has_value("phases")) {
    const json& phases = f.array("phases");
    for (std::size_t i = 0; i < phases.size(); ++i) {
      FieldReader p(phases[i], f.path_of("phases") + "[" + std::to_string(i) + "]");
      t.phases.push_back({.name = p.string("name"), .seconds = p.number("seconds")});
    }
  }
  if (f.has_value("roofline")) {
    FieldReader r = f.object("roofline");
    t.roofline = Roofline{.bound = r.enumeration("bound", roofline_bound_from_string),
                          .unit = r.string("unit"),
                          .achieved = r.number("achieved"),
                          .peak = r.number("peak"),
                          .fraction = r.number("fraction"),
                          .hint = r.string("hint")};
  }
  return t;
}

BuildResult build_from(const FieldReader& f) {
  BuildResult b;
  b.ok = f.boolean("ok");
  b.seconds = f.number("seconds");
  b.command = f.string("command");
  b.log = f.string("log");
  const json& diagnostics = f.array("diagnostics");
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    FieldReader d(diagnostics[i], f.path_of("diagnostics") + "[" + std::to_string(i) + "]");
    b.diagnostics.push_back({.file = d.string("file"),
                             .line = d.integer("line"),
                             .column = d.integer("column"),
                             .severity = d.string("severity"),
                             .message = d.string("message")});
  }
  if (f.has_value("needs_gpu")) b.needs_gpu = f.string("needs_gpu");
  return b;
}

PhaseSeconds phases_from(const FieldReader& f) {
  return {.setup = f.number("setup"),
          .reference_runs = f.number("reference_runs"),
          .build = f.number("build"),
          .tests = f.number("tests"),
          .checking_reruns = f.number("checking_reruns"),
          .performance = f.number("performance")};
}

HostInfo host_from(const FieldReader& f) {
  HostInfo h{.hostname = f.string("hostname"),
             .cpu_model = f.string("cpu_model"),
             .cores = f.integer("cores"),
             .sandbox = f.string("sandbox"),
             .gpu = f.string("gpu")};
  if (f.has_value("sandbox_level")) h.sandbox_level = f.string("sandbox_level");
  if (f.has_value("isolation")) h.isolation = f.string("isolation");
  return h;
}

DeviceInfo device_from(const FieldReader& f) {
  return {.mode = f.enumeration("mode", device_mode_from_string),
          .name = f.string("name"),
          .detail = f.string("detail"),
          .bandwidth_gbs = f.number("bandwidth_gbs"),
          .sgemm_gflops = f.number("sgemm_gflops")};
}

}  // namespace

nlohmann::json to_json(const GradeResult& r) {
  json tests = json::array();
  for (const TestResult& t : r.tests) tests.push_back(test_to_json(t));
  json out = {{"format", kResultFormatName},
          {"schema_version", r.schema_version},
          {"grader_version", r.grader_version},
          {"lab_id", r.lab_id},
          {"lab_title", r.lab_title},
          {"submission", r.submission},
          {"reference_mode", r.reference_mode},
          {"started_at", r.started_at},
          {"seconds", number_to_json(r.seconds)},
          {"child_seconds", number_to_json(r.child_seconds)},
          {"phase_seconds", phases_to_json(r.phase_seconds)},
          {"fresh_seed", r.fresh_seed},
          {"performance_enabled", r.performance_enabled},
          {"host", host_to_json(r.host)},
          {"build", build_to_json(r.build)},
          {"tests", std::move(tests)},
          {"score", number_to_json(r.score)},
          {"max_score", number_to_json(r.max_score)},
          {"graded_max_score", number_to_json(r.graded_max_score)},
          {"notes", r.notes}};
  if (r.device.mode != DeviceMode::host) out["device"] = device_to_json(r.device);
  if (r.track != Track::cpp) out["track"] = to_string(r.track);
  if (!r.interrupted.empty()) out["interrupted"] = r.interrupted;
  return out;
}

GradeResult grade_result_from_json(const nlohmann::json& json) {
  FieldReader f(json, "");
  // Format and version first: a different document should fail on what it is, not
  // on whichever of its fields happens to be missing.
  if (const std::string format = f.string("format"); format != kResultFormatName) {
    FieldReader::fail("format", "must be \"" + std::string(kResultFormatName) + "\", got \"" +
                                    format + "\"");
  }
  GradeResult r;
  r.schema_version = f.integer("schema_version");
  if (r.schema_version != kResultSchemaVersion) {
    FieldReader::fail("schema_version", "is " + std::to_string(r.schema_version) +
                                            ", this grader reads version " +
                                            std::to_string(kResultSchemaVersion));
  }
  r.grader_version = f.string("grader_version");
  r.lab_id = f.string("lab_id");
  r.lab_title = f.string("lab_title");
  r.submission = f.string("submission");
  r.reference_mode = f.boolean("reference_mode");
  r.started_at = f.string("started_at");
  r.seconds = f.number("seconds");
  r.child_seconds = f.number("child_seconds");
  // Older results did not itemize their time.
  if (f.has_value("phase_seconds")) r.phase_seconds = phases_from(f.object("phase_seconds"));
  r.fresh_seed = f.unsigned_integer("fresh_seed");
  r.performance_enabled = f.boolean("performance_enabled");
  r.host = host_from(f.object("host"));
  if (f.has_value("device")) r.device = device_from(f.object("device"));
  if (f.has_value("track")) r.track = f.enumeration("track", track_from_string);
  r.build = build_from(f.object("build"));
  const nlohmann::json& tests = f.array("tests");
  for (std::size_t i = 0; i < tests.size(); ++i) {
    r.tests.push_back(test_from(FieldReader(tests[i], "tests[" + std::to_string(i) + "]")));
  }
  r.score = f.number("score");
  r.max_score = f.number("max_score");
  // Older results had no such field: everything was counted.
  r.graded_max_score = f.has_value("graded_max_score") ? f.number("graded_max_score") : r.max_score;
  const nlohmann::json& notes = f.array("notes");
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (!notes[i].is_string()) {
      FieldReader::fail("notes[" + std::to_string(i) + "]", "must be a string");
    }
    r.notes.push_back(notes[i].get<std::string>());
  }
  if (f.has_value("interrupted")) r.interrupted = f.string("interrupted");
  return r;
}

std::string result_json_text(const GradeResult& result) {
  return to_json(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

GradeResult grade_result_from_json_text(std::string_view text) {
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(std::string("result JSON: not valid JSON: ") + e.what());
  }
  return grade_result_from_json(parsed);
}

}  // namespace parlab::grader
