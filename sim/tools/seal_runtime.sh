#!/usr/bin/env bash
# seal_runtime.sh LD NM OBJCOPY RUNTIME_ARCHIVE NETTLE_ARCHIVE PUBLIC_HEADERS_DIR OUT_OBJECT
#
# The grader's copy of the simulator runtime (docs/sandbox.md, "Nothing the submission
# can observe decides a verdict"): one relocatable object holding the runtime and the
# HMAC code it seals its reports with (nettle), in which every parlab_sim symbol that
# the public headers (sim/include) do not name, and every nettle symbol, is made local.
# A submission linked against it can call the CUDA API and what the headers' inline
# code needs, but cannot name the report key, the sealing functions, the settings
# loader or the switches of the checks. Debug sections go too (their names and
# addresses would point at the same code).
set -euo pipefail
ld=$1 nm=$2 objcopy=$3 runtime=$4 nettle=$5 headers=$6 out=$7
work="$out.work"
rm -rf "$work"
mkdir -p "$work"

"$ld" -r -o "$work/combined.o" --whole-archive "$runtime" --no-whole-archive "$nettle"

# Every identifier the public headers' code uses (the names their inline code may call).
# Comments go first: a word in a comment ("a sealed finding") must not keep a private
# namespace's names global.
find "$headers" -type f -print0 | xargs -0 cat | perl -0pe 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g' |
  grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u >"$work/header_names"

# Global definitions. Keep a parlab_sim symbol when the headers use its name (for a
# class member: its class's name).
"$nm" -g --defined-only "$work/combined.o" | awk '{print $3}' | sort -u >"$work/defined"
: >"$work/localize"
while IFS= read -r mangled; do
  case "$mangled" in
    nettle_*|_nettle_*) echo "$mangled" >>"$work/localize"; continue ;;
    _ZN10parlab_sim*|_ZNK10parlab_sim*|_ZZN10parlab_sim*|_ZTV*10parlab_sim*|_ZTI*10parlab_sim*|_ZTS*10parlab_sim*) ;;
    *) continue ;;
  esac
  demangled=$(printf '%s\n' "$mangled" | c++filt)
  # The first name under parlab_sim:: (and its detail:: or rewrite::): a function,
  # variable or class, whose members share its fate.
  name=${demangled#*parlab_sim::}
  name=${name#detail::}
  name=${name#rewrite::}
  base=${name%%(*}
  base=${base%%<*}
  base=${base%%::*}
  base=${base%% *}
  if ! grep -qxF -- "$base" "$work/header_names"; then echo "$mangled" >>"$work/localize"; fi
done <"$work/defined"

"$objcopy" --localize-symbols="$work/localize" --strip-debug "$work/combined.o" "$work/localized.o"

# Local is not enough: a running program can read its own symbol table (/proc/self/exe)
# and call the sealing code or find the key by name. So every private name becomes a
# random one, drawn anew for each build (a student's kit and the grading machine differ),
# and local names no relocation needs (the key, most state) are dropped. What stays is
# nameless function extents, which the counters need (counters/function_bounds).
count=$(wc -l <"$work/localize")
head -c $((count * 8 + 8)) /dev/urandom | od -An -v -tx1 -w8 | tr -d ' ' | head -n "$count" |
  sed 's/^/parlab_private_/' | paste -d ' ' "$work/localize" - >"$work/renames"
"$objcopy" --redefine-syms="$work/renames" --strip-unneeded "$work/localized.o" "$out.tmp"
mv "$out.tmp" "$out"
wc -l <"$work/localize" >"$work/localized_count"
