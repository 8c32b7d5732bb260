// Fake submission (tests/fakes/sandbox): no lab code of its own; the reference
// solution's source, included at compile time. Where the compiler may not read it,
// the build fails: 0 points.
#include "@REFERENCE_DIR@/file_stats.cpp"
