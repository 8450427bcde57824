package ec2sim

import (
	"net/http"
	"strings"
)

// knownParams lists the parameters of the Capacity Block actions, so that a misspelt one
// is rejected with UnknownParameter as EC2 does, instead of being silently ignored by the
// emulator and then failing against AWS. Names ending in "." admit any key under them
// (lists and structures). Actions not listed accept any parameter: RunInstances and the
// general describe calls have far more optional inputs than the emulator uses.
var knownParams = map[string][]string{
	"DescribeCapacityBlockOfferings": {"CapacityDurationHours", "InstanceType", "InstanceCount", "StartDateRange", "EndDateRange",
		"UltraserverType", "UltraserverCount", "AllAvailabilityZones", "MaxResults", "NextToken"},
	"PurchaseCapacityBlock":                   {"CapacityBlockOfferingId", "InstancePlatform", "TagSpecification."},
	"DescribeCapacityReservations":            {"CapacityReservationId.", "Filter.", "MaxResults", "NextToken"},
	"DescribeCapacityBlocks":                  {"CapacityBlockId.", "Filter.", "MaxResults", "NextToken"},
	"DescribeCapacityBlockStatus":             {"CapacityBlockId.", "Filter.", "MaxResults", "NextToken"},
	"DescribeCapacityBlockExtensionOfferings": {"CapacityBlockExtensionDurationHours", "CapacityReservationId", "MaxResults", "NextToken"},
	"PurchaseCapacityBlockExtension":          {"CapacityBlockExtensionOfferingId", "CapacityReservationId"},
	"DescribeCapacityBlockExtensionHistory":   {"CapacityReservationId.", "Filter.", "MaxResults", "NextToken"},
	"TerminateInstances":                      {"InstanceId.", "Force", "SkipOsShutdown"},
}

func checkParams(action string, f form) *apiError {
	known, ok := knownParams[action]
	if !ok {
		return nil
	}
	for k := range f.v {
		switch k {
		case "Action", "Version", "DryRun":
			continue
		}
		found := false
		for _, p := range known {
			if k == p || strings.HasSuffix(p, ".") && strings.HasPrefix(k, p) {
				found = true
				break
			}
		}
		if !found {
			return errf(http.StatusBadRequest, "UnknownParameter", "The parameter %s is not recognized by %s.", k, action)
		}
	}
	return nil
}
