package pricing

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

func TestDefaultCachePath(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/var/cache/me")
	if p, err := DefaultCachePath(); err != nil || p != "/var/cache/me/gpublock/prices.json" {
		t.Errorf("with XDG_CACHE_HOME: %q, %v", p, err)
	}
	t.Setenv("XDG_CACHE_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/someone")
	if p, err := DefaultCachePath(); err != nil || p != "/home/someone/.cache/gpublock/prices.json" {
		t.Errorf("without XDG_CACHE_HOME: %q, %v", p, err)
	}
}

func TestCacheRoundTripAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", CacheFileName)
	if cat, err := Load(path); err != nil || len(cat.Rows()) != len(Embedded().Rows()) {
		t.Fatalf("missing cache: %v", err)
	}
	row := Row{Kind: KindOnDemand, InstanceType: "trn2.48xlarge", Region: "us-west-2", Status: StatusPrice,
		Hourly: model.MustMoney("44.7"), Source: SourcePriceListAPI, Date: "2026-11-29T20:00:00Z", DateNote: "fetched"}
	if err := WriteCache(path, []Row{row}, time.Now(), writeFile); err != nil {
		t.Fatal(err)
	}
	cat, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := cat.OnDemand("trn2.48xlarge", "us-west-2"); r.Hourly != row.Hourly || r.Source != SourcePriceListAPI || r.Age(time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)) != "today" {
		t.Errorf("cached row = %+v", r)
	}
	for _, body := range []string{"not json", `{"Rows":[{"Kind":"on-demand"}]}`,
		`{"Rows":[{"Kind":"on-demand","InstanceType":"x","Region":"r","Status":"price","Hourly":"0","Source":"s","Date":"2026-01-01"}]}`} {
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := Load(path); err == nil {
			t.Errorf("accepted cache %s", body)
		}
	}
	// a broken cache does not block a refresh
	if err := WriteCache(path, []Row{row}, time.Now(), writeFile); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Error(err)
	}
}

// writeFile is the cache's replace in these tests: the CLI's atomic write is filelock's.
func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o600) }
