#pragma once
// What a finished record graded (docs/batch.md "What a record names"): the class-folder
// entry and a hash of its content, the roster row that named it, the grader and the
// lab. A re-run compares the saved identity with the current one and re-grades the
// student when any part changed (resubmission, roster correction, new grader, edited
// tests), saying which.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parlab::grader::batch {

struct RecordIdentity {
  std::string entry;            // "alice.zip", "bob"
  std::string submission_hash;  // content of the entry: names, types, bytes, link targets
  std::string roster_row;       // "folder,id,name,members" as read; empty without a roster entry
  std::string grader_version;   // PARLAB_VERSION
  std::string grader_hash;      // the grade executable's bytes
  std::string lab_hash;         // lab_digest(): lab.toml, the lab's test files, the built reference

  bool operator==(const RecordIdentity&) const = default;
};

// Hash of a submission entry, following no link: a regular file's bytes (an archive),
// or a folder's tree in name order (relative names, entry types, file bytes, link
// targets). Throws std::runtime_error when something in it cannot be read.
std::string submission_content_hash(const std::filesystem::path& entry);

// Hash of one file's bytes (the grader executable, lab.toml).
std::string file_content_hash(const std::filesystem::path& file);

nlohmann::json identity_json(const RecordIdentity& id);
// Missing fields read as empty (records written before identities existed).
RecordIdentity identity_from_json(const nlohmann::json& j);

// Why a record graded as `saved` is stale for `now`: "" when nothing changed, else
// e.g. "the submission changed; the roster row changed". A record without a saved
// identity (an older grader wrote it) counts as changed.
std::string identity_change(const std::optional<RecordIdentity>& saved, const RecordIdentity& now);

}  // namespace parlab::grader::batch
