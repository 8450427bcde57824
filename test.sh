#!/usr/bin/env bash
# The whole test suite: formatting, vet, and every test (with the race detector on the
# packages that run goroutines against the emulator).
set -euo pipefail
cd "$(dirname "$0")"
go mod download
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" >&2; echo "$unformatted" >&2; exit 1
fi
go vet ./...
go test -race -count=1 ./aws/... ./ui/... ./cmd/...
go test -count=1 $(go list ./... | grep -v -e /aws -e /ui -e /cmd)
