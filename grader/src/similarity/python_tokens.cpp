// Python's tokenize as the normaliser for sim_text (python_tokens.hpp).
#include "similarity/python_tokens.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "batch/child_grade.hpp"
#include "core/errors.hpp"
#include "util/program_on_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::similarity {
namespace {

// argv: SOURCE WORDS ROWS, repeated. A docstring is a statement of strings alone; a file
// tokenize gives up on (a syntax error) keeps its tokens so far and its later lines as
// text, one line per line. Prints the files it gave up on.
constexpr const char* kNormaliser = R"(import builtins, io, keyword, sys, token, tokenize
KEEP = set(keyword.kwlist) | set(keyword.softkwlist) | set(dir(builtins))
STARTS = (token.NEWLINE, token.INDENT, token.DEDENT, None)
def read_tokens(text):
    toks = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.ENDMARKER):
                toks.append(t)
    except (tokenize.TokenError, SyntaxError):
        return toks, False
    return toks, True
def word(t):
    if t.type == token.NAME:  # sim_text's words are letters and digits: "__init__" is "init"
        return ((t.string if t.string in KEEP else "ID").replace("_", "") or "ID"), True
    if t.type == token.NUMBER:
        return "NUM", True
    if t.type == token.STRING:
        return "STR", True
    if t.type == token.OP:
        return "op" + token.tok_name[t.exact_type].replace("_", ""), False
    return token.tok_name.get(t.type, "ERR").replace("_", ""), False
def normalise(text):
    toks, whole = read_tokens(text)
    last_row = len(text.splitlines())  # the closing NEWLINE and DEDENTs sit one line below
    out = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.type == token.STRING and (toks[i - 1].type if i else None) in STARTS:
            j = i
            while j < len(toks) and toks[j].type == token.STRING:
                j += 1
            if j == len(toks) or toks[j].type == token.NEWLINE:
                i = j + 1
                continue
        w, code = word(t)
        out.append((w, min(t.start[0], last_row), code))
        i += 1
    if not whole:
        lines = text.split("\n")
        for row in range(max([t.end[0] for t in toks], default=0) + 1, len(lines) + 1):
            if lines[row - 1].strip():
                out.append((lines[row - 1].strip(), row, True))
    return out, whole
failed = []
args = sys.argv[1:]
for k in range(0, len(args), 3):
    with open(args[k], encoding="utf-8", errors="replace") as f:
        words, whole = normalise(f.read())
    with open(args[k + 1], "w", encoding="utf-8") as f:
        f.write("".join(w + "\n" for w, _, _ in words))
    with open(args[k + 2], "w", encoding="utf-8") as f:
        f.write("".join(f"{row} {'c' if code else '-'}\n" for _, row, code in words))
    if not whole:
        failed.append(args[k])
print("\n".join(failed))
)";

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw EnvironmentError("cannot read " + file.string());
  return text.str();
}

}  // namespace

void read_word_rows(const std::string& text, SourceCopy& c) {
  c.word_rows.clear();
  c.code_lines.assign(c.lines.size(), false);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    int row = 0;
    std::string kind, rest;
    if (!(fields >> row >> kind) || (fields >> rest) || row < 1 || row > static_cast<int>(c.lines.size()) ||
        (kind != "c" && kind != "-")) {
      throw EnvironmentError("the Python normaliser's line map has a bad line: \"" + line.substr(0, 80) + "\"");
    }
    c.word_rows.push_back(row);
    if (kind == "c") c.code_lines[row - 1] = true;
  }
}

std::vector<std::string> normalise_python_group(TrackGroup& group, double timeout_s, const fs::path& work_dir) {
  const auto python = program_on_path("python3");
  if (!python) throw EnvironmentError("python3 not found: the Python similarity check needs it");
  std::vector<SourceCopy*> copies{&group.base};
  for (auto& s : group.submissions) copies.push_back(&s);
  std::vector<std::string> args{"-I", "-S", "-c", kNormaliser};
  for (SourceCopy* c : copies) {
    for (const char* ext : {"", ".words", ".rows"}) args.push_back(c->copy.string() + ext);
  }
  const fs::path log = work_dir / (group.track + ".tokenize.log");
  const batch::ChildRun r = batch::run_child(*python, args, log, timeout_s);
  if (r.timed_out || r.exit_code != 0) {
    throw EnvironmentError("the Python normaliser failed: " + r.describe() + " (its messages: " + log.string() + ")");
  }
  std::map<std::string, std::string> student_of;
  for (SourceCopy* c : copies) {
    student_of[c->copy.string()] = c->student;
    read_word_rows(read_all(c->copy.string() + ".rows"), *c);
    c->copy += ".words";
  }
  std::vector<std::string> notes;
  std::istringstream gave_up(read_all(log));
  for (std::string line; std::getline(gave_up, line);) {
    if (student_of.count(line)) notes.push_back(student_of[line] + ": not valid Python from some line on (compared from there as plain text)");
  }
  return notes;
}

void map_runs_to_source(const TrackGroup& group, std::vector<SimRun>& runs) {
  std::map<std::string, const SourceCopy*> by_copy{{group.base.copy.string(), &group.base}};
  for (const auto& s : group.submissions) by_copy[s.copy.string()] = &s;
  auto to_source = [&](const std::string& file, int& first, int& last) {
    auto it = by_copy.find(file);
    if (it == by_copy.end() || it->second->word_rows.empty()) return;
    const auto& rows = it->second->word_rows;
    if (first < 1 || last > static_cast<int>(rows.size())) {
      throw EnvironmentError("similarity-tester named lines " + std::to_string(first) + "-" + std::to_string(last) +
                             " of " + file + ", which has " + std::to_string(rows.size()));
    }
    first = rows[first - 1];
    last = rows[last - 1];
  };
  for (SimRun& r : runs) {
    to_source(r.file_a, r.a_first, r.a_last);
    to_source(r.file_b, r.b_first, r.b_last);
  }
}

}  // namespace parlab::grader::similarity
