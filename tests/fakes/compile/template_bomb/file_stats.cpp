// A compile-time bomb: every level doubles the number of distinct instantiations,
// so the compiler's memory (or time) runs out long before it finishes.
template <int Depth, long Id>
struct Tree {
  static constexpr long value = Tree<Depth - 1, 2 * Id>::value + Tree<Depth - 1, 2 * Id + 1>::value;
};
template <long Id>
struct Tree<0, Id> {
  static constexpr long value = 1;
};
long leaves = Tree<40, 0>::value;
