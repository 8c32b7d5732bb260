// CUDA's intrinsics, min/max overloads and vector types, as host functions.
#include <catch2/catch.hpp>
#include <cmath>

#include "sim_test_support.hpp"

TEST_CASE("vector types have CUDA's sizes and alignments", "[sim][types]") {
  STATIC_REQUIRE(sizeof(float4) == 16 && alignof(float4) == 16);
  STATIC_REQUIRE(sizeof(float2) == 8 && alignof(float2) == 8);
  STATIC_REQUIRE(sizeof(float3) == 12 && alignof(float3) == 4);
  STATIC_REQUIRE(sizeof(int4) == 16 && alignof(int4) == 16);
  STATIC_REQUIRE(sizeof(int2) == 8 && alignof(int2) == 8);
  STATIC_REQUIRE(sizeof(double2) == 16 && alignof(double2) == 16);
  STATIC_REQUIRE(sizeof(uchar4) == 4 && alignof(uchar4) == 4);
  STATIC_REQUIRE(sizeof(short2) == 4 && alignof(short2) == 4);
  STATIC_REQUIRE(sizeof(char1) == 1);
  const float4 v = make_float4(1, 2, 3, 4);
  CHECK(v.x == 1.0f);
  CHECK(v.w == 4.0f);
  const int2 p = make_int2(-1, 7);
  CHECK(p.y == 7);
  const dim3 d(5);
  CHECK(d.x == 5);
  CHECK(d.y == 1);
  CHECK(d.z == 1);
  const uint3 u = d;
  CHECK(u.x == 5);
}

TEST_CASE("integer intrinsics", "[sim][math]") {
  CHECK(__popc(0xf0f0u) == 8);
  CHECK(__popcll(~0ull) == 64);
  CHECK(__clz(1) == 31);
  CHECK(__clz(0) == 32);
  CHECK(__clzll(1ll) == 63);
  CHECK(__ffs(0) == 0);
  CHECK(__ffs(8) == 4);
  CHECK(__brev(1u) == 0x80000000u);
  CHECK(__brevll(1ull) == 0x8000000000000000ull);
  CHECK(__mul24(-3, 5) == -15);
  CHECK(__umulhi(0xffffffffu, 2u) == 1u);
  CHECK(__mulhi(-2, 0x40000000) == -1);
  CHECK(__umul64hi(~0ull, ~0ull) == ~0ull - 1);
  CHECK(__mul64hi(-1ll, 5ll) == -1ll);
  CHECK(__mul64hi(1ll << 62, 8ll) == 2ll);
  CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x5410u) == 0x55441100u);
  CHECK(__funnelshift_l(0x80000000u, 1u, 1u) == 3u);
  CHECK(__funnelshift_r(1u, 1u, 1u) == 0x80000000u);
  CHECK(__sad(3, 10, 1u) == 8u);
  CHECK(__hadd(7, 8) == 7);
  CHECK(__rhadd(7, 8) == 8);
}

TEST_CASE("float intrinsics and conversions", "[sim][math]") {
  CHECK(__fdividef(1.0f, 4.0f) == 0.25f);
  CHECK(rsqrtf(4.0f) == 0.5f);
  CHECK(__saturatef(-1.0f) == 0.0f);
  CHECK(__saturatef(2.0f) == 1.0f);
  CHECK(__saturatef(NAN) == 0.0f);
  CHECK(__expf(0.0f) == 1.0f);
  CHECK(fmaf(2.0f, 3.0f, 1.0f) == 7.0f);
  CHECK(__fmaf_rn(2.0f, 3.0f, 1.0f) == 7.0f);
  CHECK(__float2int_rn(2.5f) == 2);
  CHECK(__float2int_rn(3.5f) == 4);
  CHECK(__float2int_ru(2.1f) == 3);
  CHECK(__float2int_rd(-2.1f) == -3);
  CHECK(__float2int_rz(-2.9f) == -2);
  CHECK(__float_as_int(1.0f) == 0x3f800000);
  CHECK(__int_as_float(0x40000000) == 2.0f);
  CHECK(__double_as_longlong(1.0) == 0x3ff0000000000000ll);
  CHECK(__hiloint2double(__double2hiint(3.25), __double2loint(3.25)) == 3.25);
  CHECK(std::fabs(sinpif(0.5f) - 1.0f) < 1e-6f);
  CHECK(std::fabs(normcdff(0.0f) - 0.5f) < 1e-6f);
  float s = 0, c = 0;
  __sincosf(0.0f, &s, &c);
  CHECK(c == 1.0f);
}

TEST_CASE("min and max overloads cover CUDA's mixed types", "[sim][math]") {
  CHECK(min(3, 5) == 3);
  CHECK(max(-1, 2) == 2);
  CHECK(min(3, 5u) == 3u);
  CHECK(max(2.0f, 1.0) == 2.0);
  CHECK(min(1.5f, 2.5f) == 1.5f);
  CHECK(max(1ll, 9ll) == 9ll);
  CHECK(umin(4u, 2u) == 2u);
  CHECK(ullmax(4ull, 2ull) == 4ull);
}
