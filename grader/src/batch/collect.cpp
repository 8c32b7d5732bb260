#include "batch/collect.hpp"

#include <algorithm>

#include "batch/class_summary.hpp"
#include "batch/gradebook.hpp"
#include "util/atomic_write.hpp"

namespace parlab::grader::batch {

std::vector<StudentRecord> load_records(const BatchLayout& layout, const BatchManifest& m) {
  std::vector<StudentRecord> records;
  for (const ManifestStudent& s : m.students) records.push_back(load_record(layout, s));
  for (const ManifestStudent& s : m.missing) {
    StudentRecord r;
    r.student = s;
    r.status = StudentStatus::missing;
    records.push_back(r);
  }
  std::sort(records.begin(), records.end(),
            [](const StudentRecord& a, const StudentRecord& b) { return a.student.id < b.student.id; });
  return records;
}

CollectCounts collect_batch(const BatchLayout& layout) {
  BatchManifest m = read_manifest(layout.manifest());
  std::vector<StudentRecord> records = load_records(layout, m);
  CollectCounts c;
  for (const StudentRecord& r : records) {
    ++c.students;
    if (r.result) ++c.finished;
    if (r.status == StudentStatus::error) ++c.errors;
    if (r.status == StudentStatus::pending) ++c.pending;
    if (r.status == StudentStatus::missing) ++c.missing;
  }
  nlohmann::json summary = class_summary(m, records);
  write_file_atomically(layout.gradebook(), gradebook_csv(m, records));
  write_file_atomically(layout.summary_json(), summary.dump(2) + "\n");
  write_file_atomically(layout.summary_markdown(), class_summary_markdown(summary));
  return c;
}

}  // namespace parlab::grader::batch
