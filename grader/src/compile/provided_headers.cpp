#include "compile/provided_headers.hpp"

namespace parlab::grader {

namespace fs = std::filesystem;

namespace {

std::string first_component(const std::string& relative) {
  return relative.substr(0, relative.find('/'));
}

}  // namespace

std::optional<ShadowingFile> find_shadowing_file(const std::vector<std::string>& staged,
                                                 const std::vector<ProvidedHeaders>& provided,
                                                 const std::string& reserved_folder) {
  for (const std::string& file : staged) {
    if (!reserved_folder.empty() && file.find('/') != std::string::npos &&
        first_component(file) == reserved_folder) {
      return ShadowingFile{file, file + ": a submission may not hold a folder named '" +
                                     reserved_folder + "/': the build writes its own files there; "
                                     "rename the folder (and its #include lines)"};
    }
    const fs::path relative = fs::path(file).lexically_normal();
    for (const ProvidedHeaders& p : provided) {
      std::error_code ec;
      // A link, a folder or a file: any entry of that name is the grader's.
      if (p.root.empty() || !fs::exists(fs::symlink_status(p.root / relative, ec))) continue;
      return ShadowingFile{
          file, file + ": " + p.owner + " provides a header of this name, and a submission's "
                "file cannot take its place (the compiler would read yours instead); rename your "
                "file and its #include lines"};
    }
  }
  return std::nullopt;
}

}  // namespace parlab::grader
