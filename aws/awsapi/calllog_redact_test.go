package awsapi

import (
	"errors"
	"strings"
	"testing"
)

// The call log's error text passes the redaction step too.
func TestCallLogErrorTextIsRedacted(t *testing.T) {
	err := errors.New(`process provider error: {"AccessKeyId": "ASIACALLLOGLEAK00001", "SecretAccessKey": "callLogSecretLEAK", "SessionToken": "callLogToken`)
	got := errorText(err)
	for _, s := range []string{"CALLLOGLEAK", "callLogSecretLEAK", "callLogToken"} {
		if strings.Contains(got, s) {
			t.Errorf("call log error %q holds %s", got, s)
		}
	}
	if !strings.Contains(got, "process provider error") {
		t.Errorf("call log error %q lost the message", got)
	}
}
