#pragma once
// What a student's grade depends on in the lab, as one hash kept in each record
// (`lab_hash`): lab.toml (tests, points, datasets, comparisons), every other file of the
// lab folder a grading reads (driver, checks, headers, the Python track's driver), and
// the built driver libraries and reference programs (the expected outputs are the
// reference's). A record graded under another digest is graded again, so a class
// resumed after an edit to its tests never keeps rows graded against the old ones.
// The lab's documentation (README.md, figures/) is left out: a typo fix regrades nobody;
// so is a __pycache__ folder (derived bytes, written by any in-place import).
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader::batch {

// `lab_dir`'s files in name order (relative names and bytes, links as their target
// text, documentation left out), then each of `built` that exists (a file's bytes, a
// folder's tree; a missing or empty path counts as absent). Throws std::runtime_error
// when something in them cannot be read.
std::string lab_digest(const std::filesystem::path& lab_dir, const std::vector<std::filesystem::path>& built);

}  // namespace parlab::grader::batch
