#!/bin/sh
# Installs motiond as a system service (issue 9): the release binary in /usr/local/bin, its
# systemd unit, its user and group (sysusers.d), its folders (tmpfiles.d), a board file and an
# empty policy in /etc/opencoremotion; then starts it. Run as root on the board.
#
# usage: sudo tools/install-motiond.sh BOARD_FILE     (e.g. boards/gy-521.board)
set -eu
[ $# -eq 1 ] || { echo "usage: $0 BOARD_FILE" >&2; exit 2; }
board=$1
[ -f "$board" ] || { echo "$0: no board file $board (see boards/README.md)" >&2; exit 2; }
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
swift build -c release --product motiond --product motionctl
bin=$(swift build -c release --show-bin-path)
install -m 0755 "$bin/motiond" "$bin/motionctl" /usr/local/bin/
install -m 0644 tools/motiond/motiond.service /etc/systemd/system/motiond.service
install -m 0644 tools/motiond/motiond-sysusers.conf /etc/sysusers.d/opencoremotion.conf
install -m 0644 tools/motiond/motiond-tmpfiles.conf /etc/tmpfiles.d/opencoremotion.conf
install -d -m 0755 /etc/opencoremotion /usr/local/share/doc/opencoremotion
install -m 0644 "$board" /etc/opencoremotion/board
[ -f /etc/opencoremotion/policy ] || install -m 0644 tools/motiond/policy.example /etc/opencoremotion/policy
install -m 0644 Sources/MotionDaemonProtocol/PROTOCOL.md /usr/local/share/doc/opencoremotion/
systemd-sysusers
systemd-tmpfiles --create /etc/tmpfiles.d/opencoremotion.conf
systemctl daemon-reload
install -d -o motiond -g motion -m 0750 /var/lib/opencoremotion/calibration
systemctl enable --now motiond
echo "motiond runs. Add users to group motion (usermod -aG motion USER); check with: motionctl status"
