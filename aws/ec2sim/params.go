package ec2sim

import (
	"net/http"
	"strings"
)

// knownParams lists every parameter of every action the emulator serves, as the SDK's
// serializers name them (aws-sdk-go-v2 service/ec2 v1.349.0), so that a misspelt or
// invented one is refused with UnknownParameter as EC2 refuses it, instead of being
// ignored here and failing against AWS. Names ending in "." admit any key under them
// (lists and structures). Action, Version and DryRun are every action's.
var knownParams = map[string][]string{
	"DescribeCapacityBlockOfferings": {"CapacityDurationHours", "InstanceType", "InstanceCount", "StartDateRange", "EndDateRange",
		"UltraserverType", "UltraserverCount", "AllAvailabilityZones", "MaxResults", "NextToken", "InstanceTypePreference."},
	"PurchaseCapacityBlock":                   {"CapacityBlockOfferingId", "InstancePlatform", "TagSpecification."},
	"DescribeCapacityReservations":            {"CapacityReservationId.", "Filter.", "MaxResults", "NextToken"},
	"DescribeCapacityBlocks":                  {"CapacityBlockId.", "Filter.", "MaxResults", "NextToken"},
	"DescribeCapacityBlockStatus":             {"CapacityBlockId.", "Filter.", "MaxResults", "NextToken"},
	"DescribeCapacityBlockExtensionOfferings": {"CapacityBlockExtensionDurationHours", "CapacityReservationId", "MaxResults", "NextToken"},
	"PurchaseCapacityBlockExtension":          {"CapacityBlockExtensionOfferingId", "CapacityReservationId"},
	"DescribeCapacityBlockExtensionHistory":   {"CapacityReservationId.", "Filter.", "MaxResults", "NextToken"},
	"TerminateInstances":                      {"InstanceId.", "Force", "SkipOsShutdown"},
	"RunInstances": {"AdditionalInfo", "BlockDeviceMapping.", "CapacityReservationSpecification.", "ClientToken", "CpuOptions.",
		"CreditSpecification.", "DisableApiStop", "DisableApiTermination", "EbsOptimized", "ElasticGpuSpecification.",
		"ElasticInferenceAccelerator.", "EnclaveOptions.", "HibernationOptions.", "IamInstanceProfile.", "ImageId",
		"InstanceInitiatedShutdownBehavior", "InstanceMarketOptions.", "InstanceType", "KernelId", "KeyName",
		"LaunchTemplate.LaunchTemplateId", "LaunchTemplate.LaunchTemplateName", "LaunchTemplate.Version",
		"LicenseSpecification.", "MaintenanceOptions.", "MaxCount", "MetadataOptions.", "MinCount", "Monitoring.",
		"NetworkInterface.", "NetworkPerformanceOptions.", "Operator.", "Placement.", "PrivateDnsNameOptions.", "PrivateIpAddress",
		"RamdiskId", "SecondaryInterface.", "SecurityGroup.", "SecurityGroupId.", "SubnetId", "TagSpecification.", "UserData"},
	"DescribeInstances":           {"Filter.", "InstanceId.", "IncludeManagedResources", "MaxResults", "NextToken"},
	"DescribeRegions":             {"Filter.", "RegionName.", "AllRegions"},
	"DescribeAvailabilityZones":   {"Filter.", "ZoneId.", "ZoneName.", "AllAvailabilityZones"},
	"DescribeSubnets":             {"Filter.", "SubnetId.", "MaxResults", "NextToken"},
	"ModifyAvailabilityZoneGroup": {"GroupName", "OptInStatus"},
	"DescribeImages":              {"ExecutableBy.", "Filter.", "ImageId.", "Owner.", "IncludeDeprecated", "IncludeDisabled", "MaxResults", "NextToken"},
	"DescribeSecurityGroups":      {"Filter.", "GroupId.", "GroupName.", "MaxResults", "NextToken"},
	"CreateKeyPair":               {"KeyName", "KeyType", "KeyFormat", "TagSpecification."},
	"DescribeKeyPairs":            {"Filter.", "KeyName.", "KeyPairId.", "IncludePublicKey"},
	"DeleteKeyPair":               {"KeyName", "KeyPairId"},
	"CreateTags":                  {"ResourceId.", "Tag."},
	"DescribeInstanceTypes":       {"InstanceType.", "Filter.", "IncludeUnsupportedInRegion", "MaxResults", "NextToken"},
	"CreateLaunchTemplate":        {"LaunchTemplateName", "LaunchTemplateData.", "VersionDescription", "ClientToken", "TagSpecification.", "Operator."},
	"DescribeLaunchTemplates":     {"LaunchTemplateId.", "LaunchTemplateName.", "Filter.", "IncludeManagedResources", "MaxResults", "NextToken"},
	"DeleteLaunchTemplate":        {"LaunchTemplateId", "LaunchTemplateName"},
	"DeleteTags":                  {"ResourceId.", "Tag."},
}

func checkParams(action string, f form) *apiError {
	known, ok := knownParams[action]
	if !ok {
		// Every served action is listed (a test checks it); refuse rather than accept blindly.
		return errf(http.StatusBadRequest, "UnknownParameter", "The emulator does not know the parameters of %s.", action)
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
