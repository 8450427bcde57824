package ec2sim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// documentedCodes are EC2's error codes that the emulator may answer, as the EC2 API
// reference lists them (docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html:
// common client errors, client errors of specific actions, server errors).
var documentedCodes = map[string]bool{
	"AuthFailure": true, "DryRunOperation": true, "IncorrectState": true, "InstanceLimitExceeded": true,
	"InternalError": true, "InvalidAction": true, "InvalidAMIID.Malformed": true, "InvalidAMIID.NotFound": true,
	"InvalidCapacityBlockOfferingIdExpired": true, "InvalidCapacityBlockOfferingIdMalformed": true,
	"InvalidCapacityBlockOfferingIdNotFound": true, "InvalidCapacityReservationId.Malformed": true,
	"InvalidCapacityReservationId.NotFound": true, "InvalidCapacityReservationState.PendingActivation": true,
	"InvalidGroup.NotFound": true, "InvalidID": true, "InvalidInstanceType": true, "InvalidLaunchTemplateName.AlreadyExistsException": true, "InvalidLaunchTemplateName.MalformedException": true, "InvalidLaunchTemplateName.NotFoundException": true, "InvalidLaunchTemplateId.Malformed": true, "InvalidLaunchTemplateId.NotFound": true, "InvalidLaunchTemplateId.VersionNotFound": true, "IdempotentParameterMismatch": true, "TagLimitExceeded": true, "InvalidGroupId.Malformed": true, "InvalidInstanceID.Malformed": true,
	"InvalidInstanceID.NotFound": true, "InvalidKeyPair.Duplicate": true, "InvalidKeyPair.NotFound": true, "InvalidNetworkInterfaceID.NotFound": true,
	"InvalidLaunchTargets": true, "InvalidPaginationToken": true, "InvalidParameterCombination": true,
	"InvalidParameterValue": true, "InvalidQueryParameter": true, "InvalidSubnetID.NotFound": true,
	"MalformedQueryString": true, "MissingAuthenticationToken": true, "MissingParameter": true,
	"RequestLimitExceeded": true, "ReservationCapacityExceeded": true, "UnauthorizedOperation": true,
	"Unavailable": true, "UnknownParameter": true, "UnsupportedOperation": true,
	// Among the codes of specific actions, for DescribeCapacityBlockOfferings.
	"CapacityBlockDescribeLimitExceeded": true,
}

// Every code the EC2 handlers answer is documented: the codes are read from the source,
// so a new undocumented one fails here.
func TestErrorCodesAreDocumented(t *testing.T) {
	// The EC2 handlers and what the core answers in EC2's words; the Price List, STS and
	// other services' handlers speak their own services' codes.
	files, _ := filepath.Glob("action_*.go")
	files = append(files, "server.go", "errors.go", "faults.go", "form.go", "params.go", "filters.go", "paging.go",
		"../simcore/errors.go", "../simcore/core.go", "../simcore/persist.go")
	code := regexp.MustCompile(`(?i)errf\(http\.Status\w+,\s*"([A-Za-z.]+)"`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range code.FindAllStringSubmatch(string(b), -1) {
			found++
			if !documentedCodes[m[1]] {
				t.Errorf("%s answers %s, which EC2 does not document", f, m[1])
			}
		}
	}
	if found < 30 {
		t.Fatalf("only %d error codes found in the source; the pattern no longer matches", found)
	}
}
