#pragma once
// CUDA's math API beyond what <math.h> already gives host code (sqrtf, expf, fmaf,
// fminf, ... come from the C library, with the same names). Fast-math intrinsics
// (__expf, __fdividef, ...) are computed at full precision; explicit rounding modes
// (_rz, _ru, _rd) use the host's round-to-nearest for float arithmetic, and exact
// rounding for float-to-integer conversions.
#include <math.h>
#include <stdlib.h>

#include <bit>
#include <cstdint>
#include <cstring>

// --- min / max: CUDA declares these overloads for host and device code ---------------
#define PARLAB_SIM_MIN_MAX(R, A, B)                                                  \
  inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); } \
  inline R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); }
PARLAB_SIM_MIN_MAX(int, int, int)
PARLAB_SIM_MIN_MAX(unsigned int, unsigned int, unsigned int)
PARLAB_SIM_MIN_MAX(unsigned int, int, unsigned int)
PARLAB_SIM_MIN_MAX(unsigned int, unsigned int, int)
PARLAB_SIM_MIN_MAX(long, long, long)
PARLAB_SIM_MIN_MAX(unsigned long, unsigned long, unsigned long)
PARLAB_SIM_MIN_MAX(unsigned long, long, unsigned long)
PARLAB_SIM_MIN_MAX(unsigned long, unsigned long, long)
PARLAB_SIM_MIN_MAX(long long, long long, long long)
PARLAB_SIM_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
PARLAB_SIM_MIN_MAX(unsigned long long, long long, unsigned long long)
PARLAB_SIM_MIN_MAX(unsigned long long, unsigned long long, long long)
#undef PARLAB_SIM_MIN_MAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(double a, float b) { return fmax(a, b); }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// --- single precision ------------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
inline float norm3df(float a, float b, float c) { return sqrtf(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline float norm4df(float a, float b, float c, float d) { return sqrtf(a * a + b * b + c * c + d * d); }
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline float sinpif(float x) { return static_cast<float>(sin(M_PI * static_cast<double>(x))); }
inline float cospif(float x) { return static_cast<float>(cos(M_PI * static_cast<double>(x))); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2)); }
inline float fdividef(float x, float y) { return x / y; }
inline float __fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x != x ? 0.0f : (x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x)); }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }

#define PARLAB_SIM_ROUNDED_FLOAT_OPS(mode)                                               \
  inline float __fadd_##mode(float a, float b) { return a + b; }                         \
  inline float __fsub_##mode(float a, float b) { return a - b; }                         \
  inline float __fmul_##mode(float a, float b) { return a * b; }                         \
  inline float __fdiv_##mode(float a, float b) { return a / b; }                         \
  inline float __frcp_##mode(float a) { return 1.0f / a; }                               \
  inline float __fsqrt_##mode(float a) { return sqrtf(a); }                              \
  inline float __fmaf_##mode(float a, float b, float c) { return fmaf(a, b, c); }        \
  inline double __dadd_##mode(double a, double b) { return a + b; }                      \
  inline double __dsub_##mode(double a, double b) { return a - b; }                      \
  inline double __dmul_##mode(double a, double b) { return a * b; }                      \
  inline double __ddiv_##mode(double a, double b) { return a / b; }                      \
  inline double __drcp_##mode(double a) { return 1.0 / a; }                             \
  inline double __dsqrt_##mode(double a) { return sqrt(a); }                             \
  inline double __fma_##mode(double a, double b, double c) { return fma(a, b, c); }
PARLAB_SIM_ROUNDED_FLOAT_OPS(rn)
PARLAB_SIM_ROUNDED_FLOAT_OPS(rz)
PARLAB_SIM_ROUNDED_FLOAT_OPS(ru)
PARLAB_SIM_ROUNDED_FLOAT_OPS(rd)
#undef PARLAB_SIM_ROUNDED_FLOAT_OPS

// --- double precision ------------------------------------------------------------------
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }

// --- conversions -----------------------------------------------------------------------
#define PARLAB_SIM_FLOAT_TO_INTEGER(From, suffix, To, name)                        \
  inline To __##suffix##2##name##_rn(From x) { return static_cast<To>(nearbyint(x)); } \
  inline To __##suffix##2##name##_rz(From x) { return static_cast<To>(trunc(x)); }     \
  inline To __##suffix##2##name##_ru(From x) { return static_cast<To>(ceil(x)); }      \
  inline To __##suffix##2##name##_rd(From x) { return static_cast<To>(floor(x)); }
PARLAB_SIM_FLOAT_TO_INTEGER(float, float, int, int)
PARLAB_SIM_FLOAT_TO_INTEGER(float, float, unsigned int, uint)
PARLAB_SIM_FLOAT_TO_INTEGER(float, float, long long, ll)
PARLAB_SIM_FLOAT_TO_INTEGER(float, float, unsigned long long, ull)
PARLAB_SIM_FLOAT_TO_INTEGER(double, double, int, int)
PARLAB_SIM_FLOAT_TO_INTEGER(double, double, unsigned int, uint)
PARLAB_SIM_FLOAT_TO_INTEGER(double, double, long long, ll)
PARLAB_SIM_FLOAT_TO_INTEGER(double, double, unsigned long long, ull)
#undef PARLAB_SIM_FLOAT_TO_INTEGER
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline float __ull2float_rn(unsigned long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned int x) { return x; }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned int __float_as_uint(float x) { return std::bit_cast<unsigned int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned int x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(std::bit_cast<std::uint64_t>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(std::bit_cast<std::uint64_t>(x)); }
inline double __hiloint2double(int hi, int lo) {
  return std::bit_cast<double>((static_cast<std::uint64_t>(static_cast<unsigned int>(hi)) << 32) |
                               static_cast<unsigned int>(lo));
}

// --- integer intrinsics ----------------------------------------------------------------
inline int __popc(unsigned int x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned int>(x)) + 1; }
inline int __ffsll(long long x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}
inline int __mul24(int x, int y) {
  return static_cast<int>(((static_cast<long long>(x) << 40) >> 40) * ((static_cast<long long>(y) << 40) >> 40));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  const unsigned long long x_lo = x & 0xffffffffull, x_hi = x >> 32;
  const unsigned long long y_lo = y & 0xffffffffull, y_hi = y >> 32;
  const unsigned long long low = x_lo * y_lo, cross1 = x_lo * y_hi, cross2 = x_hi * y_lo;
  const unsigned long long middle = (low >> 32) + (cross1 & 0xffffffffull) + (cross2 & 0xffffffffull);
  return x_hi * y_hi + (cross1 >> 32) + (cross2 >> 32) + (middle >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  // The signed high half: the unsigned one, corrected for negative operands.
  unsigned long long high = __umul64hi(static_cast<unsigned long long>(x), static_cast<unsigned long long>(y));
  if (x < 0) high -= static_cast<unsigned long long>(y);
  if (y < 0) high -= static_cast<unsigned long long>(x);
  return static_cast<long long>(high);
}
inline unsigned int __sad(int x, int y, unsigned int z) {
  return z + static_cast<unsigned int>(x > y ? x - y : y - x);
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return z + (x > y ? x - y : y - x);
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int selector) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int result = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned int pick = (selector >> (4 * i)) & 7u;
    result |= static_cast<unsigned int>((bytes >> (8 * pick)) & 0xffu) << (8 * i);
  }
  return result;
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((both << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((both << (shift > 32u ? 32u : shift)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(both >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(both >> (shift > 32u ? 32u : shift));
}

// Read-only cache loads are ordinary loads on the host.
template <class T>
inline T __ldg(const T* address) { return *address; }
template <class T>
inline T __ldcg(const T* address) { return *address; }
template <class T>
inline T __ldca(const T* address) { return *address; }
template <class T>
inline T __ldcs(const T* address) { return *address; }
template <class T>
inline T __ldlu(const T* address) { return *address; }
template <class T>
inline T __ldcv(const T* address) { return *address; }
template <class T>
inline void __stcg(T* address, T value) { *address = value; }
template <class T>
inline void __stcs(T* address, T value) { *address = value; }
template <class T>
inline void __stwb(T* address, T value) { *address = value; }
template <class T>
inline void __stwt(T* address, T value) { *address = value; }
