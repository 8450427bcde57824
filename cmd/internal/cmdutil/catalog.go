package cmdutil

import (
	"github.com/gpublock/gpublock/pricing"
)

// LoadCatalog is the embedded catalog with the cache of `gpublock prices --refresh` over
// it. A damaged cache leaves the embedded figures, and an error that names the file.
func LoadCatalog() (*pricing.Catalog, error) {
	path, _ := pricing.DefaultCachePath()
	return pricing.Load(path)
}

// PriceCatalog is LoadCatalog's catalog, whose error a caller that cannot say it ignores: on
// an error Load still returns the embedded catalog.
func PriceCatalog() *pricing.Catalog {
	cat, _ := LoadCatalog()
	return cat
}
