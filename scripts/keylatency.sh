#!/usr/bin/env bash
# How soon a key shows: gpublock --demo in a 160×48 tmux pane, the default search run, then
# 30 presses of ↓/↑ on the offerings table 150 ms apart, each timed from `tmux send-keys` to
# the first `tmux capture-pane` (polled every 3 ms) that differs from the screen before it.
# Prints the median, 90th percentile and maximum in milliseconds; each includes tmux's own
# send and capture, a few ms. Usage: scripts/keylatency.sh [path/to/gpublock]
set -euo pipefail
bin=$(realpath "${1:-$(command -v gpublock)}")
home=$(mktemp -d)
session=gpublock-keylatency-$$
trap 'tmux kill-session -t "$session" 2>/dev/null; rm -rf "$home"' EXIT
tmux new-session -d -s "$session" -x 160 -y 48 \
	"HOME=$home XDG_STATE_HOME=$home AWS_CONFIG_FILE=$home/none AWS_SHARED_CREDENTIALS_FILE=$home/none $bin --demo"
screen() { tmux capture-pane -p -t "$session"; }
waitfor() {
	for _ in $(seq 2000); do
		screen | grep -q "$1" && return 0
		sleep 0.01
	done
	echo "no \"$1\" on screen" >&2
	exit 1
}
waitfor SIMULATED
tmux send-keys -t "$session" Enter
waitfor "Found "
sleep 3
times=()
for i in $(seq 30); do
	key=Down
	((i % 2 == 0)) && key=Up
	before=$(screen)
	t0=$(date +%s%N)
	tmux send-keys -t "$session" "$key"
	while [[ "$(screen)" == "$before" ]]; do
		sleep 0.003
		(($(date +%s%N) - t0 < 2000000000)) || break
	done
	times+=($((($(date +%s%N) - t0) / 1000000)))
	sleep 0.15
done
printf '%s\n' "${times[@]}" | sort -n | awk '{v[NR]=$1} END {printf "median %d ms, 90th percentile %d ms, max %d ms (%d presses)\n", v[int((NR+1)/2)], v[int(NR*0.9+0.5)], v[NR], NR}'
