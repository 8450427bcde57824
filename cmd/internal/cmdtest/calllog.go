package cmdtest

import (
	"os"
	"strings"
	"testing"
)

// ReadCallLog reads a --log-file as records of key=value fields. A line with a field
// twice, or without time first and a duration, is two lines run together: the test fails.
func ReadCallLog(t *testing.T, path string) []map[string]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the call log: %v", err)
	}
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		t.Fatalf("call log %q: want whole lines", raw)
	}
	var out []map[string]string
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		rec := map[string]string{}
		for i, f := range strings.Fields(line) {
			k, v, ok := strings.Cut(f, "=")
			if _, dup := rec[k]; !ok || dup || (i == 0 && k != "time") {
				t.Fatalf("malformed line %q", line)
			}
			rec[k] = v
		}
		if rec["duration_ms"] == "" {
			t.Fatalf("line %q has no duration", line)
		}
		out = append(out, rec)
	}
	return out
}
