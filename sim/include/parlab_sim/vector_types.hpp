#pragma once
// CUDA's built-in vector types (float4, int2, uchar4, ...), uint3 and dim3, with
// CUDA's sizes and alignments so reinterpret_casts in student code (float4 loads of a
// float array) behave as on a GPU. Like CUDA, no arithmetic operators are defined.

#define PARLAB_SIM_VECTOR_FAMILY(name, T, align2, align4)                              \
  struct name##1 {                                                                     \
    T x;                                                                               \
  };                                                                                   \
  struct alignas(align2) name##2 {                                                     \
    T x, y;                                                                            \
  };                                                                                   \
  struct name##3 {                                                                     \
    T x, y, z;                                                                         \
  };                                                                                   \
  struct alignas(align4) name##4 {                                                     \
    T x, y, z, w;                                                                      \
  };                                                                                   \
  inline constexpr name##1 make_##name##1(T x) { return {x}; }                         \
  inline constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }                 \
  inline constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }         \
  inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

PARLAB_SIM_VECTOR_FAMILY(char, signed char, 2, 4)
PARLAB_SIM_VECTOR_FAMILY(uchar, unsigned char, 2, 4)
PARLAB_SIM_VECTOR_FAMILY(short, short, 4, 8)
PARLAB_SIM_VECTOR_FAMILY(ushort, unsigned short, 4, 8)
PARLAB_SIM_VECTOR_FAMILY(int, int, 8, 16)
PARLAB_SIM_VECTOR_FAMILY(uint, unsigned int, 8, 16)
PARLAB_SIM_VECTOR_FAMILY(long, long, 2 * sizeof(long), 16)
PARLAB_SIM_VECTOR_FAMILY(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
PARLAB_SIM_VECTOR_FAMILY(longlong, long long, 16, 16)
PARLAB_SIM_VECTOR_FAMILY(ulonglong, unsigned long long, 16, 16)
PARLAB_SIM_VECTOR_FAMILY(float, float, 8, 16)
PARLAB_SIM_VECTOR_FAMILY(double, double, 16, 16)

#undef PARLAB_SIM_VECTOR_FAMILY

// dim3: a uint3 whose unspecified components are 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
