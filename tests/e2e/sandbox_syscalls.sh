#!/usr/bin/env bash
# The fallback level as sealed as bubblewrap for the network and the kernel keyrings
# (docs/sandbox.md, "Sealed at every level"): a lab01 fake with no lab code asks a
# server on 127.0.0.1 for the answers and stores a key in its uid's keyring. At
# --sandbox off and at auto without bubblewrap the seccomp filter refuses both (the
# server never sees a connection); at the default level bubblewrap's own network
# namespace has no route to it. The reference keeps its marks at the fallback level.
source "$(dirname "$0")/lib.bash"
W="$E2E_WORK"
mkdir -p "$W/net"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
sed "s|@PORT@|$PORT|" "$PARLAB_SOURCE_DIR/tests/fakes/sandbox/network_and_keys/file_stats.cpp" >"$W/net/file_stats.cpp"
# The answer server: counts connections in a file, bounded in time (it stops by itself).
python3 - "$PORT" "$W/connections" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); s.settimeout(1)
seen = 0; end = time.time() + 300
open(sys.argv[2], "w").write("0")
while time.time() < end:
    try: c, _ = s.accept()
    except socket.timeout: continue
    seen += 1; open(sys.argv[2], "w").write(str(seen)); c.sendall(b"ANSWERS"); c.close()
PY
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 50); do [ -f "$W/connections" ] && break; sleep 0.1; done

for level in off fallback default; do
  case $level in
    off) args=(--sandbox off) ;;
    fallback) args=(--sandbox auto); export PARLAB_BWRAP=/nonexistent/bwrap ;;
    default) args=() ;;
  esac
  run_grade "net_$level" lab01 "$W/net" --no-perf --wall-limit 20 --work-dir "$W/work" "${args[@]}" \
    --json "$W/net_$level.json"
  unset PARLAB_BWRAP
  expect_field "$W/net_$level.json" score '0(\.0*)?' "network_and_keys at $level: no points"
  expect_no_output "$W/net_$level.json" 'NET: connected' "network_and_keys at $level: no answers from the network"
  if [ "$level" != default ]; then
    expect_output "$W/net_$level.json" 'NET: socket refused: Permission denied' "at $level: internet sockets refused"
    expect_output "$W/net_$level.json" 'KEYS: add_key refused: Function not implemented' "at $level: keyrings refused"
    expect_field "$W/net_$level.json" host.isolation '.*seccomp \(no network sockets, no keyrings\).*' \
      "at $level: the report says what the filter refuses"
  fi
done
[ "$(cat "$W/connections")" = 0 ] && pass "the answer server saw no connection" || fail "the answer server saw $(cat "$W/connections") connection(s)"
PARLAB_BWRAP=/nonexistent/bwrap run_grade reference lab01 --reference --no-perf --work-dir "$W/work" \
  --sandbox auto --json "$W/reference.json"
expect_field "$W/reference.json" score '60(\.0*)?' "the reference keeps its correctness marks under the filter"
finish
