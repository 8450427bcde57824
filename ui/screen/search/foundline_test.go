package search

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// One offering is "1 offering", not "1 offerings".
func TestFoundLineCountsInTheSingular(t *testing.T) {
	m := unsized().resize(160, 48)
	v := withResults(m, uitest.SyntheticOfferings(1)).view()
	if !strings.Contains(v, "Found 1 offering in us-east-1 (1 call)") {
		t.Errorf("the line over one offering does not say \"Found 1 offering in\":\n%s", v)
	}
	v = withResults(m, uitest.SyntheticOfferings(2)).view()
	if !strings.Contains(v, "Found 2 offerings in us-east-1") {
		t.Errorf("the line over two offerings does not say \"Found 2 offerings in\":\n%s", v)
	}
}
