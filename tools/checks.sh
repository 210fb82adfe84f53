# Sourced by the end-to-end test scripts (test-motionctl.sh, test-iio-umockdev.sh,
# test-i2c-umockdev.sh). The script sets $root, its temporary folder, before sourcing.
#   check NAME COMMAND...  runs COMMAND; prints "ok   NAME" or "FAIL NAME" with the tail of its
#                          output, and counts it
#   finish LABEL           prints "LABEL: N passed, N failed"; returns 1 when any failed
passed=0; failed=0
check() {
    local name="$1"; shift
    if "$@" >"$root/last.log" 2>&1; then passed=$((passed + 1)); echo "ok   $name"
    else failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$root/last.log" | tail -20; fi
}
finish() {
    echo "$1: $passed passed, $failed failed"
    ((failed == 0))
}
