// Reads lab.toml into a LabSpec, validating every field with its location.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"
#include "spec/dataset_stand_ins.hpp"
#include "spec/lab_spec.hpp"
#include "spec/lab_tracks.hpp"
#include "spec/mismatch_kinds.hpp"
#include "spec/toml_reader.hpp"

namespace parlab::grader {
namespace {

constexpr double kMb = 1024.0 * 1024.0;

// A word of the lab vocabulary (spec/lab_vocabulary.hpp): an unknown one fails at its
// node, naming the key and the words allowed there.
template <typename Parse>
auto read_word(TomlReader& r, const std::string& key, const std::string& text, Parse parse) {
  try {
    return parse(text);
  } catch (const std::invalid_argument& e) {
    r.fail(r.node(key), "'" + key + "': " + e.what());
  }
}

ResourceLimits read_limits(TomlReader& r, ResourceLimits base) {
  r.expect_keys({"wall_seconds", "cpu_seconds", "memory_mb", "file_size_mb", "processes",
                 "output_kb", "output_kill_mb"});
  auto positive = [&](const std::string& key, double fallback) {
    auto v = r.optional_number(key);
    if (!v) return fallback;
    if (!(*v > 0)) r.fail(r.node(key), "'" + key + "' must be > 0");
    return *v;
  };
  base.wall_seconds = positive("wall_seconds", base.wall_seconds);
  base.cpu_seconds = positive("cpu_seconds", base.cpu_seconds);
  base.address_space_mb = static_cast<std::uint64_t>(
      positive("memory_mb", static_cast<double>(base.address_space_mb)));
  base.file_size_mb =
      static_cast<std::uint64_t>(positive("file_size_mb", static_cast<double>(base.file_size_mb)));
  base.max_processes =
      static_cast<std::uint64_t>(positive("processes", static_cast<double>(base.max_processes)));
  base.output_bytes = static_cast<std::uint64_t>(
      positive("output_kb", static_cast<double>(base.output_bytes) / 1024.0) * 1024.0);
  base.output_kill_bytes = static_cast<std::uint64_t>(
      positive("output_kill_mb", static_cast<double>(base.output_kill_bytes) / kMb) * kMb);
  return base;
}

ComparatorSpec read_comparator(TomlReader& r) {
  r.expect_keys({"kind", "rtol", "atol", "max_ulp", "exact"});
  ComparatorSpec c;
  std::string kind = r.optional_string("kind").value_or("tolerance");
  if (kind == "exact") {
    c.kind = ComparatorSpec::Kind::exact;
  } else if (kind == "tolerance") {
    c.kind = ComparatorSpec::Kind::tolerance;
  } else if (kind == "ulp") {
    c.kind = ComparatorSpec::Kind::ulp;
  } else {
    r.fail(r.node("kind"), "comparator kind '" + kind + "' is not one of exact, tolerance, ulp");
  }
  auto non_negative = [&](const std::string& key, double fallback) {
    auto v = r.optional_number(key);
    if (!v) return fallback;
    if (!(*v >= 0) || !std::isfinite(*v)) r.fail(r.node(key), "'" + key + "' must be >= 0");
    return *v;
  };
  c.rtol = non_negative("rtol", c.rtol);
  c.atol = non_negative("atol", c.atol);
  c.max_ulp = static_cast<std::int64_t>(non_negative("max_ulp", static_cast<double>(c.max_ulp)));
  c.exact_arrays = r.string_list("exact");
  return c;
}

PerformanceSpec read_performance(TomlReader& r) {
  r.expect_keys({"baseline", "baseline_params", "full_at", "zero_at", "scale_with_cores",
                 "min_cores", "warmup_pairs", "min_pairs", "max_pairs", "max_spread",
                 "budget_seconds", "parallel", "min_spread", "min_own_speedup",
                 "max_other_load", "serial_task", "reference_gain_share"});
  PerformanceSpec p;
  std::string baseline = r.required_string("baseline");
  auto colon = baseline.find(':');
  if (colon == std::string::npos) {
    r.fail(r.node("baseline"), "baseline must be 'reference:TASK', 'cpu_reference:TASK' or "
                                   "'submission:TASK', got '" + baseline + "'");
  }
  p.baseline_program = read_word(r, "baseline", baseline.substr(0, colon), baseline_program_from_string);
  p.baseline_task = baseline.substr(colon + 1);
  if (p.baseline_task.empty()) {
    r.fail(r.node("baseline"), "baseline must be 'reference:TASK', 'cpu_reference:TASK' or "
                                   "'submission:TASK', got '" + baseline + "'");
  }
  p.baseline_params = r.params("baseline_params");
  p.full_at = r.optional_number("full_at").value_or(p.full_at);
  p.zero_at = r.optional_number("zero_at").value_or(p.zero_at);
  if (!(p.zero_at > 0) || !(p.full_at > p.zero_at)) {
    r.fail(r.node("full_at"), "need 0 < zero_at < full_at (got zero_at " +
                                  std::to_string(p.zero_at) + ", full_at " +
                                  std::to_string(p.full_at) + ")");
  }
  p.scale_with_cores = r.optional_bool("scale_with_cores").value_or(false);
  p.min_cores = static_cast<int>(r.optional_int("min_cores").value_or(1));
  p.warmup_pairs = static_cast<int>(r.optional_int("warmup_pairs").value_or(p.warmup_pairs));
  p.min_pairs = static_cast<int>(r.optional_int("min_pairs").value_or(p.min_pairs));
  p.max_pairs = static_cast<int>(r.optional_int("max_pairs").value_or(p.max_pairs));
  p.max_spread = r.optional_number("max_spread").value_or(p.max_spread);
  p.budget_seconds = r.optional_number("budget_seconds").value_or(p.budget_seconds);
  if (p.min_pairs < 3) r.fail(r.node("min_pairs"), "min_pairs must be >= 3 (a median needs them)");
  if (p.max_pairs < p.min_pairs) r.fail(r.node("max_pairs"), "max_pairs must be >= min_pairs");
  if (p.warmup_pairs < 0) r.fail(r.node("warmup_pairs"), "warmup_pairs must be >= 0");
  if (p.min_cores < 1) r.fail(r.node("min_cores"), "min_cores must be >= 1");
  if (auto parallel = r.optional_string("parallel")) {
    p.parallel = read_word(r, "parallel", *parallel, parallel_kind_from_string);
  }
  p.min_spread = r.optional_number("min_spread").value_or(p.min_spread);
  if (!(p.min_spread >= 1)) r.fail(r.node("min_spread"), "min_spread must be >= 1 (1: serial)");
  p.min_own_speedup = r.optional_number("min_own_speedup").value_or(p.min_own_speedup);
  if (!(p.min_own_speedup >= 1)) {
    r.fail(r.node("min_own_speedup"), "min_own_speedup must be >= 1 (1: not checked)");
  }
  p.max_other_load = r.optional_number("max_other_load").value_or(p.max_other_load);
  if (!(p.max_other_load > 0)) r.fail(r.node("max_other_load"), "max_other_load must be > 0 cores");
  p.serial_task = r.optional_string("serial_task").value_or("");
  p.reference_gain_share = r.optional_number("reference_gain_share").value_or(p.reference_gain_share);
  if (!(p.reference_gain_share > 0 && p.reference_gain_share <= 1)) {
    r.fail(r.node("reference_gain_share"), "reference_gain_share must be in (0, 1]");
  }
  return p;
}

RooflineSpec read_roofline(TomlReader& r) {
  r.expect_keys({"bound", "hint_below", "hint"});
  RooflineSpec f;
  f.bound = read_word(r, "bound", r.required_string("bound"), roofline_bound_from_string);
  f.hint_below = r.optional_number("hint_below").value_or(f.hint_below);
  if (!(f.hint_below >= 0 && f.hint_below <= 1)) {
    r.fail(r.node("hint_below"), "hint_below is a fraction of the peak, in [0, 1]");
  }
  f.hint = r.optional_string("hint").value_or("");
  return f;
}

SimCheckSpec read_sim_check(TomlReader& r) {
  r.expect_keys({"counter", "dataset", "full_at", "zero_at", "hint"});
  SimCheckSpec c;
  c.where = r.location(nullptr);
  c.counter = read_word(r, "counter", r.required_string("counter"), sim_counter_from_string);
  c.dataset = r.required_string("dataset");
  c.full_at = r.optional_number("full_at").value_or(c.full_at);
  c.zero_at = r.optional_number("zero_at").value_or(c.zero_at);
  if (!(c.full_at > 0) || !(c.zero_at > c.full_at) || !std::isfinite(c.zero_at)) {
    r.fail(r.node("zero_at"), "need 0 < full_at < zero_at (ratios to the reference's "
                              "counter; lower is better)");
  }
  c.hint = r.optional_string("hint").value_or("");
  return c;
}

Visibility read_visibility(TomlReader& r) {
  auto v = r.optional_string("visibility");
  return v ? read_word(r, "visibility", *v, visibility_from_string) : Visibility::visible;
}

TestSpec read_test(const toml::table& t, const std::string& file, const ResourceLimits& limits,
                   Device lab_kind, int index) {
  // Messages name the test when it has a name, else its position.
  std::string context = "test #" + std::to_string(index + 1);
  if (auto n = t["name"].value<std::string>()) context = "test '" + *n + "'";
  TomlReader r(t, file, context);
  r.expect_keys({"name", "kind", "points", "visibility", "dataset", "task", "params", "warmup",
                 "repeat", "requires", "compare", "limits", "performance", "roofline", "device",
                 "sim", "gpu_alone"});
  TestSpec s;
  s.where = r.location(nullptr);
  s.name = r.required_string("name");
  s.kind = read_word(r, "kind", r.required_string("kind"), test_kind_from_string);
  auto points = r.optional_number("points");
  if (!points) r.fail(nullptr, "missing required key 'points'");
  if (!(*points >= 0) || !std::isfinite(*points)) r.fail(r.node("points"), "points must be >= 0");
  s.points = *points;
  s.visibility = read_visibility(r);
  s.dataset = r.required_string("dataset");
  s.task = r.required_string("task");
  s.device = lab_kind;
  if (auto device = r.optional_string("device")) s.device = read_word(r, "device", *device, device_from_string);
  if (s.device == Device::gpu && lab_kind != Device::gpu) {
    r.fail(r.node("device"), "device = \"gpu\" needs a GPU lab ([lab] kind = \"gpu\")");
  }
  s.params = r.params("params");
  s.warmup = static_cast<int>(r.optional_int("warmup").value_or(s.kind == TestKind::performance ? 1 : 0));
  s.repeat = static_cast<int>(r.optional_int("repeat").value_or(1));
  if (s.warmup < 0) r.fail(r.node("warmup"), "warmup must be >= 0");
  if (s.repeat < 1) r.fail(r.node("repeat"), "repeat must be >= 1");
  s.requires_tests = r.string_list("requires");
  s.gpu_alone = r.optional_bool("gpu_alone").value_or(false);
  if (s.gpu_alone && (s.kind != TestKind::correctness || s.device != Device::gpu)) {
    r.fail(r.node("gpu_alone"), "gpu_alone is for GPU correctness tests (a performance test "
                                "already runs alone on its GPU)");
  }

  if (const toml::table* c = r.optional_table("compare")) {
    TomlReader cr(*c, file, "test '" + s.name + "' compare");
    s.compare = read_comparator(cr);
  }
  s.limits = limits;
  if (const toml::table* l = r.optional_table("limits")) {
    TomlReader lr(*l, file, "test '" + s.name + "' limits");
    s.limits = read_limits(lr, limits);
  }
  const toml::table* perf = r.optional_table("performance");
  if (s.kind == TestKind::performance) {
    if (!perf) r.fail(nullptr, "a performance test needs a [tests.performance] table");
    TomlReader pr(*perf, file, "test '" + s.name + "' performance");
    s.performance = read_performance(pr);
  } else if (perf) {
    r.fail(r.node("performance"), "only performance tests take a 'performance' table");
  }
  if (const toml::table* roof = r.optional_table("roofline")) {
    if (s.kind != TestKind::performance) {
      r.fail(r.node("roofline"), "only performance tests take a 'roofline' table");
    }
    TomlReader rr(*roof, file, "test '" + s.name + "' roofline");
    s.roofline = read_roofline(rr);
  }
  if (const toml::table* sim = r.optional_table("sim")) {
    if (s.kind != TestKind::performance || s.device != Device::gpu) {
      r.fail(r.node("sim"), "only GPU performance tests take a 'sim' table (a sim-mode "
                            "substitute for the measurement)");
    }
    TomlReader sr(*sim, file, "test '" + s.name + "' sim");
    s.sim_check = read_sim_check(sr);
  }
  return s;
}

DatasetSpec read_dataset(const std::string& id, const toml::table& t, const std::string& file) {
  TomlReader r(t, file, "dataset '" + id + "'");
  r.expect_keys({"generator", "params", "hidden", "seed"});
  DatasetSpec d;
  d.id = id;
  d.where = r.location(nullptr);
  d.generator = r.required_string("generator");
  d.params = r.params("params");
  d.hidden = r.optional_bool("hidden").value_or(false);
  const toml::node* seed = r.node("seed");
  if (!seed) r.fail(nullptr, "missing required key 'seed' (an integer, or \"fresh\")");
  if (seed->is_integer() && *seed->value<std::int64_t>() >= 0) {
    d.seed = static_cast<std::uint64_t>(*seed->value<std::int64_t>());
  } else if (!(seed->is_string() && *seed->value<std::string>() == "fresh")) {
    r.fail(seed, "seed must be a non-negative integer or \"fresh\"");
  }
  return d;
}

// [outputs.NAME]: columns (a number, or a test/dataset parameter's name) and hints by
// mismatch kind (spec/mismatch_kinds.hpp).
OutputSpec read_output(const std::string& name, const toml::table& t, const std::string& file) {
  TomlReader r(t, file, "output '" + name + "'");
  r.expect_keys({"columns", "hints", "tasks"});
  OutputSpec o;
  o.name = name;
  o.where = r.location(nullptr);
  o.tasks = r.string_list("tasks");
  if (const toml::node* c = r.node("columns")) {
    if (c->is_integer() && *c->value<std::int64_t>() > 0) {
      o.columns = *c->value<std::int64_t>();
    } else if (c->is_string() && !c->value<std::string>()->empty()) {
      o.columns_param = *c->value<std::string>();
    } else {
      r.fail(c, "columns must be a positive integer or the name of a parameter");
    }
  }
  if (const toml::table* hints = r.optional_table("hints")) {
    const auto& kinds = mismatch_kinds();
    for (const auto& [kind, text] : *hints) {
      const std::string k(kind.str());
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) {
        std::string known;
        for (const auto& n : kinds) known += (known.empty() ? "" : ", ") + n;
        r.fail(&text, "unknown mismatch kind '" + k + "' (kinds: " + known + ")");
      }
      if (!text.is_string() || text.value<std::string>()->empty()) {
        r.fail(&text, "hint '" + k + "' must be a non-empty string");
      }
      o.hints[k] = *text.value<std::string>();
    }
  }
  return o;
}

// Each test's comparator gets the outputs' feedback with `columns` resolved from the
// test's parameters, else its dataset's (a matrix's row length is often a dataset size).
void resolve_outputs(LabSpec& lab) {
  for (TestSpec& t : lab.tests) {
    const DatasetSpec& d = lab.dataset(t.dataset);
    for (const OutputSpec& o : lab.outputs) {
      if (!o.tasks.empty() && std::find(o.tasks.begin(), o.tasks.end(), t.task) == o.tasks.end()) continue;
      OutputFeedback f;
      f.hints = o.hints;
      f.columns = o.columns;
      if (!o.columns_param.empty()) {
        const Params& from = t.params.has(o.columns_param) ? t.params : d.params;
        if (from.has(o.columns_param)) {
          try {
            f.columns = std::max<std::int64_t>(0, from.get_int(o.columns_param));
          } catch (const ParamError&) {
            f.columns = 0;  // not a number here: no (row, col) for this test
          }
        }
      }
      t.compare.outputs[o.name] = f;
    }
  }
}

void check_references(const LabSpec& lab) {
  std::set<std::string> names;
  for (const TestSpec& t : lab.tests) {
    if (!names.insert(t.name).second) {
      throw SpecError(t.where + ": test name '" + t.name + "' is used twice");
    }
    // A hidden dataset's values never reach a report: only hidden tests, whose messages
    // say where a result is wrong and not what, may use it.
    if (lab.dataset(t.dataset).hidden && t.visibility != Visibility::hidden) {
      throw SpecError(t.where + ": test '" + t.name + "' is visible but uses hidden dataset '" +
                      t.dataset + "': set visibility = \"hidden\" on the test, or hidden = "
                      "false on the dataset");
    }
    if (t.sim_check) (void)lab.dataset(t.sim_check->dataset);
  }
  // An output's `tasks` must name tasks the tests run (a typo would drop its hints).
  for (std::size_t i = 0; i < lab.outputs.size(); ++i) {
    const OutputSpec& o = lab.outputs[i];
    for (const std::string& task : o.tasks) {
      const bool used = std::any_of(lab.tests.begin(), lab.tests.end(),
                                    [&](const TestSpec& t) { return t.task == task; });
      if (!used) throw SpecError(o.where + ": output '" + o.name + "': tasks names '" + task + "', which no test runs");
      // Two feedbacks of one output for one task: which hint applies would be a guess.
      for (std::size_t j = 0; j < i; ++j) {
        const OutputSpec& earlier = lab.outputs[j];
        if (earlier.name != o.name) continue;
        if (std::find(earlier.tasks.begin(), earlier.tasks.end(), task) != earlier.tasks.end()) {
          throw SpecError(o.where + ": output '" + o.name + "': task '" + task +
                          "' already has its feedback at " + earlier.where);
        }
      }
    }
  }
  bool has_fresh = false;
  for (const DatasetSpec& d : lab.datasets) has_fresh |= !d.seed.has_value();
  if (!has_fresh) {
    throw SpecError(lab.file.string() +
                    ": no dataset has seed = \"fresh\"; every grading must include fresh "
                    "data so hard-coded answers fail (docs/design.md, rule 4)");
  }
  for (const TestSpec& t : lab.tests) {
    for (const std::string& req : t.requires_tests) {
      if (!names.count(req)) {
        throw SpecError(t.where + ": test '" + t.name + "' requires unknown test '" + req + "'");
      }
    }
    if (lab.kind != Device::gpu && t.performance &&
        t.performance->baseline_program == BaselineProgram::cpu_reference) {
      throw SpecError(t.where + ": test '" + t.name + "': baseline 'cpu_reference:...' exists "
                      "only in GPU labs (kind = \"gpu\"); a CPU lab's reference is 'reference'");
    }
    if (t.device != Device::gpu && t.roofline) {
      throw SpecError(t.where + ": test '" + t.name + "': a roofline table needs a GPU test "
                      "(a GPU lab's test with device = \"gpu\"), whose device peaks are measured");
    }
  }
}

}  // namespace

double LabSpec::max_points() const {
  double total = 0;
  for (const TestSpec& t : tests) total += t.points;
  return total;
}

const DatasetSpec& LabSpec::dataset(const std::string& id_) const {
  for (const DatasetSpec& d : datasets) {
    if (d.id == id_) return d;
  }
  std::string known;
  for (const DatasetSpec& d : datasets) known += (known.empty() ? "" : ", ") + d.id;
  throw SpecError(file.string() + ": unknown dataset '" + id_ + "' (defined: " + known + ")");
}

namespace {

// [outputs.NAME] tables, or [[outputs.NAME]] arrays with `tasks`: one feedback per group
// of tasks (a CPU and a GPU version of one output have different bugs).
void read_outputs(TomlReader& top, const toml::table& outputs, const std::string& file, LabSpec& lab) {
  for (const auto& [k, v] : outputs) {
    const std::string name(k.str());
    if (v.is_table()) {
      lab.outputs.push_back(read_output(name, *v.as_table(), file));
    } else if (v.is_array_of_tables()) {
      for (const toml::node& entry : *v.as_array()) {
        OutputSpec o = read_output(name, *entry.as_table(), file);
        if (o.tasks.empty()) {
          top.fail(&entry, "output '" + name + "': each [[outputs." + name +
                               "]] entry needs `tasks` (the tasks its feedback is for)");
        }
        lab.outputs.push_back(std::move(o));
      }
    } else {
      top.fail(&v, "output '" + name + "' must be a table, or an array of tables with `tasks`");
    }
  }
}

}  // namespace

LabSpec load_lab_spec(const std::filesystem::path& toml_file) {
  const std::string file = toml_file.string();
  if (!std::filesystem::is_regular_file(toml_file)) {
    throw SpecError(file + ": lab spec not found");
  }
  toml::table root;
  try {
    root = toml::parse_file(file);
  } catch (const toml::parse_error& e) {
    throw SpecError(where(file, e.source()) + ": " + std::string(e.description()));
  }

  LabSpec lab;
  lab.file = toml_file;
  lab.dir = toml_file.parent_path();
  TomlReader top(root, file, "lab.toml");
  top.expect_keys({"lab", "limits", "datasets", "tests", "outputs", "tracks", "sim"});

  const toml::table* lab_table = top.optional_table("lab");
  if (!lab_table) top.fail(nullptr, "missing [lab] table");
  TomlReader l(*lab_table, file, "[lab]");
  l.expect_keys({"id", "title", "kind", "sources", "leaderboard"});
  lab.id = l.required_string("id");
  lab.title = l.required_string("title");
  if (auto kind = l.optional_string("kind")) lab.kind = read_word(l, "kind", *kind, device_from_string);
  lab.sources = l.string_list("sources");
  if (lab.sources.empty()) l.fail(nullptr, "'sources' must list the files a submission edits");
  lab.leaderboard = l.string_list("leaderboard");

  ResourceLimits limits;
  if (const toml::table* t = top.optional_table("limits")) {
    TomlReader lr(*t, file, "[limits]");
    limits = read_limits(lr, limits);
  }

  const toml::table* datasets = top.optional_table("datasets");
  if (!datasets || datasets->empty()) top.fail(nullptr, "missing [datasets.<id>] tables");
  for (const auto& [k, v] : *datasets) {
    if (!v.is_table()) top.fail(&v, "dataset '" + std::string(k.str()) + "' must be a table");
    lab.datasets.push_back(read_dataset(std::string(k.str()), *v.as_table(), file));
  }

  const toml::node* tests = top.node("tests");
  if (!tests || !tests->is_array_of_tables() || tests->as_array()->empty()) {
    top.fail(tests, "missing [[tests]] entries");
  }
  int index = 0;
  for (const toml::node& t : *tests->as_array()) {
    lab.tests.push_back(read_test(*t.as_table(), file, limits, lab.kind, index++));
  }
  if (const toml::table* outputs = top.optional_table("outputs")) read_outputs(top, *outputs, file, lab);
  check_references(lab);
  lab.tracks = read_tracks(top, top.optional_table("tracks"), lab);
  read_sim_table(top, top.optional_table("sim"), lab);
  resolve_outputs(lab);
  for (const std::string& name : lab.leaderboard) {
    const auto t = std::find_if(lab.tests.begin(), lab.tests.end(),
                                [&](const TestSpec& s) { return s.name == name; });
    if (t == lab.tests.end() || t->kind != TestKind::performance) {
      l.fail(l.node("leaderboard"), "leaderboard: '" + name + "' is not a performance test of this lab");
    }
  }
  return lab;
}

std::vector<LabSpec> load_all_labs(const std::filesystem::path& labs_root) {
  std::vector<LabSpec> labs;
  if (!std::filesystem::is_directory(labs_root)) {
    throw EnvironmentError("labs folder not found: " + labs_root.string());
  }
  for (const auto& entry : std::filesystem::directory_iterator(labs_root)) {
    auto spec = entry.path() / "lab.toml";
    if (entry.is_directory() && std::filesystem::exists(spec)) {
      labs.push_back(load_lab_spec(spec));
    }
  }
  std::sort(labs.begin(), labs.end(),
            [](const LabSpec& a, const LabSpec& b) { return a.id < b.id; });
  return labs;
}

}  // namespace parlab::grader
