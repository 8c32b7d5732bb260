# When CI's sanitizer stage runs (.ci/run): sourced, no side effects.
# PARLAB_CI_SANITIZERS: budget (unless set), always or never.
# PARLAB_CI_SANITIZERS_BY: the latest second of the run at which the stage may start
# (2700 unless set): past it, the two cold sanitizer builds would take a slow machine
# past CI's 90-minute limit (docs/performance.md, "Sanitizer builds in CI").

# sanitizer_settings_error MODE BUDGET: what is wrong with the settings, or nothing.
sanitizer_settings_error() {
  case "$1" in
    always|never|budget) ;;
    *) echo "PARLAB_CI_SANITIZERS must be always, never or budget, got '$1'"; return ;;
  esac
  case "$2" in
    ''|*[!0-9]*) echo "PARLAB_CI_SANITIZERS_BY must be a whole number of seconds, got '$2'" ;;
  esac
}

# sanitizer_skip_reason MODE BUDGET ELAPSED: why the stage does not run now, or nothing
# when it does (valid settings assumed).
sanitizer_skip_reason() {
  case "$1" in
    always) ;;
    never) echo "PARLAB_CI_SANITIZERS=never" ;;
    budget) [ "$3" -le "$2" ] ||
      echo "the run is at ${3}s, past its budget of ${2}s for starting them (PARLAB_CI_SANITIZERS_BY)" ;;
  esac
}
