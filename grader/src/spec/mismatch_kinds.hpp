#pragma once
// The names of the mismatch patterns compare/ recognises: the vocabulary of lab.toml's
// [outputs.NAME] hints, so the spec can reject an unknown kind without compare/.
#include <string>
#include <vector>

namespace parlab::grader {

// The kinds, most specific first (a hint is looked up in this order, "any" last):
//   missing    the array is not in the output
//   size       it has the wrong number of elements
//   bytes_as_count  exactly the elements from n / sizeof(element) on differ, the ones
//              after the first of them still poisoned: a copy of n bytes where n
//              elements were meant (cudaMemcpy's size is in bytes)
//   unwritten  every mismatch still holds the poison (all bits set: never written);
//              the detail gives the range when they form one block
//   unloaded_shared  some mismatch is a NaN carrying the simulator's shared-memory
//              poison: computed from shared memory never stored to (sim mode)
//   nan        some mismatch is a NaN the program computed (0/0), not a poison
//   reordered  the differing elements hold the expected values, in other places: results
//              kept in the order they finished, not the order of their inputs
//   edge       matrix: only the last partial tile (rows or columns past a multiple of
//              8, 16 or 32) differs
//   tail       vector: only the elements past a multiple of a block size differ
//   close      every mismatch is within 100x the tolerance (rounding, summation order)
//   too_large  every mismatching value is larger than expected
//   too_small  ... smaller
//   any        whatever the pattern
const std::vector<std::string>& mismatch_kinds();

}  // namespace parlab::grader
