package search

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// Two exports in one second make two files; neither replaces the other.
func TestExportNameNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	o := model.Offering{ID: "cb-1", Region: "us-east-1", InstanceType: "p5.48xlarge", Count: 1, DurationHours: 24}
	cmps := []pricing.Comparison{pricing.Compare(nil, o)}
	first, err := writeExport(dir, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), cmps)
	if err != nil {
		t.Fatal(err)
	}
	second, err := writeExport(dir, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), cmps)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(first) != "gpublock-offerings-20261201-090000.csv" || filepath.Base(second) != "gpublock-offerings-20261201-090000-2.csv" {
		t.Errorf("files %s and %s", first, second)
	}
}

func TestNewsSentence(t *testing.T) {
	o := func(id, typ, region, fee string) model.Offering {
		return model.Offering{ID: id, InstanceType: typ, Region: region, Fee: model.MustMoney(fee)}
	}
	for _, tc := range []struct {
		offs []model.Offering
		want string
	}{
		{[]model.Offering{o("a", "p5.48xlarge", "us-east-1", "7015.92")}, "1 new p5.48xlarge offering in us-east-1 ($7,015.92)"},
		{[]model.Offering{o("a", "p5.48xlarge", "us-west-2", "9000"), o("b", "p5.48xlarge", "us-east-1", "7015.92"), o("c", "p5.48xlarge", "us-west-2", "8000")},
			"3 new p5.48xlarge offerings in us-east-1, us-west-2 (from $7,015.92)"},
		{[]model.Offering{o("a", "p5e.48xlarge", "eu-north-1", "1"), o("b", "p5.48xlarge", "us-east-1", "2"), o("c", "p5.48xlarge", "us-east-2", "3"), o("d", "p5.48xlarge", "ap-south-1", "4"), o("e", "p5.48xlarge", "us-west-2", "5")},
			"5 new p5.48xlarge, p5e.48xlarge offerings in ap-south-1, eu-north-1, us-east-1 and 2 more regions (from $1.00)"},
	} {
		if got := newsSentence(tc.offs); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
