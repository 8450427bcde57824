package source

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	t.Setenv("AWS_SECRET_ACCESS_KEY", "envSecretValue0123456789")
	for _, in := range []string{
		`invalid character in {"Version": 1, "AccessKeyId": "ASIAHELPERKEY0000001", "SecretAccessKey": "helperSecret/abc+def", "SessionToken": "tokenTOKENtoken`,
		`AWS_SECRET_ACCESS_KEY=helperSecret/abc+def AWS_SESSION_TOKEN=tokenTOKENtoken`,
		`aws_secret_access_key = helperSecret/abc+def`,
		`key AKIAHELPERKEY0000001 secret envSecretValue0123456789`,
		`"secretAccessKey":"helperSecret/abc+def","sessionToken":"tokenTOKENtoken"}`,
		`X-Amz-Security-Token: tokenTOKENtoken`,
		`aws_access_key_id=AKIAHELPERKEY0000001 aws-secret-access-key: helperSecret/abc+def`,
	} {
		out := Redact(in)
		for _, secret := range []string{"helperSecret", "tokenTOKENtoken", "HELPERKEY", "envSecretValue"} {
			if strings.Contains(out, secret) {
				t.Errorf("Redact(%q) = %q: %s is left", in, out, secret)
			}
		}
		if !strings.Contains(out, redacted) {
			t.Errorf("Redact(%q) = %q", in, out)
		}
	}
	if s := "offering cb-0123 in us-east-1: no capacity"; Redact(s) != s {
		t.Errorf("Redact changed an ordinary message: %q", Redact(s))
	}
}
