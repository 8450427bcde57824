package source

import (
	"os"
	"regexp"
	"strings"
)

// redacted replaces a credential value in what gpublock prints, logs or journals.
const redacted = "[REDACTED]"

// secretField matches a credential's name followed by its value, in the shapes an SDK
// error can carry: JSON from a credential_process helper ("SecretAccessKey": "…", also cut
// off before its closing quote), env assignments (AWS_SECRET_ACCESS_KEY=…) and the shared
// files' keys (aws_session_token = …). The value ends at a quote, a comma, a brace or
// white space, so that a truncated helper output is covered to its end.
var secretField = regexp.MustCompile(`(?i)("?(?:secret[-_]?access[-_]?key|secret[-_]?key|session[-_]?token|security[-_]?token|access[-_]?key[-_]?id|token)"?\s*[:=]\s*"?)([^"\s,}&]+)`)

// accessKeyID matches an AWS access key id (long-term AKIA…, temporary ASIA…).
var accessKeyID = regexp.MustCompile(`\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b`)

// Redact removes credential values from s: the values of the credential environment
// variables, and anything shaped like a named secret or an access key id. It is the one redaction step every error text that
// gpublock prints, logs or journals passes through.
func Redact(s string) string {
	if s == "" {
		return s
	}
	for _, k := range []string{"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ACCESS_KEY_ID"} {
		if v := os.Getenv(k); len(v) >= 8 {
			s = strings.ReplaceAll(s, v, redacted)
		}
	}
	s = secretField.ReplaceAllStringFunc(s, func(m string) string {
		sub := secretField.FindStringSubmatch(m)
		if sub[2] == redacted || strings.HasPrefix(sub[2], "[REDACTED") {
			return m
		}
		return sub[1] + redacted
	})
	return accessKeyID.ReplaceAllString(s, redacted)
}

// RedactError is err's text through Redact, "" for nil.
func RedactError(err error) string {
	if err == nil {
		return ""
	}
	return Redact(err.Error())
}
