#!/usr/bin/env bash
# The whole test suite: formatting, vet, and every test (with the race detector on the
# packages that run goroutines against the emulator).
set -euo pipefail
cd "$(dirname "$0")"
# Without -trimpath Go keys each package's build on the checkout's directory, so a fresh
# clone compiles and links everything again though the build cache holds it all.
export GOFLAGS="-trimpath${GOFLAGS:+ $GOFLAGS}"
go mod download

# The SVG report is checked by a real renderer, librsvg's rsvg-convert: installed here when
# it is missing and apt-get can be run (as root, or through sudo without a password); the
# test then must render rather than skip.
if ! command -v rsvg-convert >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  apt=""
  if [ "$(id -u)" = 0 ]; then
    apt="env"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    apt="sudo -n env"
  fi
  if [ -n "$apt" ]; then
    log=$(mktemp)
    install_rsvg() { $apt DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin >>"$log" 2>&1; }
    if install_rsvg || { $apt apt-get update -qq >>"$log" 2>&1 && install_rsvg; }; then
      rm -f "$log"
    else
      echo "test.sh: librsvg2-bin could not be installed (see $log); the SVG render test skips" >&2
    fi
  fi
fi
if command -v rsvg-convert >/dev/null 2>&1; then
  export GPUBLOCK_REQUIRE_SVG_RENDERER=1
fi
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" >&2; echo "$unformatted" >&2; exit 1
fi
go vet ./...
# A package's tests wait much of the time (the emulator over HTTP, child processes, the
# terminal harness), so twice as many packages as cores run at once.
jobs=$(( $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) * 2 ))
go test -p "$jobs" -race -count=1 ./aws/... ./ui/... ./cmd/...
# scripts/image builds gpublock without cgo: on a cold build cache that compiles every
# dependency once more, longer than go test's default 10-minute timeout on a loaded machine.
go test -count=1 -timeout 30m $(go list ./... | grep -v -e /aws -e /ui -e /cmd)
