package awsapi

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials/ssocreds"
)

// The client's own explanation names its profile in the hint.
func TestExplainErrorNamesTheClientsProfile(t *testing.T) {
	c := &Client{profile: "ml-prod"}
	if ex := c.ExplainError(&ssocreds.InvalidTokenError{Err: errors.New("expired")}); ex.Hint != "Run: aws sso login --profile ml-prod" {
		t.Errorf("client hint %q", ex.Hint)
	}
}
