package cmdutil

import (
	"strings"
)

// TableOrJSONFormat reads -o of the commands that print no CSV.
func TableOrJSONFormat(s string) (OutputFormat, error) {
	format, err := ParseOutputFormat(s)
	if err != nil || format == "csv" {
		return "", Usagef("-o %q: allowed table or json", s)
	}
	return format, nil
}

func SingleRegion(f *AWSFlags) error {
	regions, err := f.RegionList(nil)
	if err != nil {
		return err
	}
	if len(regions) > 1 || strings.EqualFold(strings.TrimSpace(f.Region), "all") {
		return Usagef("--region %q: give the one region of the Capacity Block", f.Region)
	}
	return nil
}
