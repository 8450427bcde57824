// Package store keeps what gpublock has done and promised (the journal, the launches
// attached to a block's start, the auto-extension decisions, the warnings sent), in one
// place per backend and account: local files by default, or a prefix of an S3 bucket that
// a team's machines share.
//
// A store holds named objects. An object changes only under its lock: on local files the
// advisory lock beside it, in S3 a lock object created with If-None-Match: * (the way
// Terraform's S3 backend locks its state), with every write of the object conditional on
// the ETag read under the lock (If-Match). So two processes, or two machines, never both
// act on one record: the second reads what the first did before it acts.
package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Store is one place that holds gpublock's records.
type Store interface {
	// Read returns the object's bytes, nil when there is none. It takes no lock: every
	// write replaces an object whole.
	Read(ctx context.Context, name string) ([]byte, error)
	// Locked runs f with name's lock held; cur is the object (nil when there is none) and
	// write replaces it, as often as f calls it.
	Locked(ctx context.Context, name string, f func(cur []byte, write func([]byte) error) error) error
	// Append adds one line to the log name (the journal).
	Append(ctx context.Context, name string, line []byte) error
	// Lines reads the log name, in the order it was written; a line that cannot be read
	// whole is counted in bad.
	Lines(ctx context.Context, name string) (lines [][]byte, bad int, err error)
	// Sub is the store under a further key.
	Sub(key ...string) Store
	// Where says where the store is, for messages: a directory or an s3:// URL.
	Where() string
}

// ErrConflict is a write another process or machine made first: read again and decide again.
var ErrConflict = errors.New("changed by another gpublock at the same time")

// Key is whose records a store holds: the cloud they were made against and the account
// AWS says it is. Region is a field of every record, so one account's store holds all its
// regions apart.
type Key struct {
	// Cloud is "aws", "demo", or "emulator-ID" for an emulator by the identity it
	// answers STS with ("endpoint-HOST-PORT" for one that answers none): what is done
	// against one cloud is never read as another's.
	Cloud string
	// Account is the account STS GetCallerIdentity returns.
	Account string
}

// Path is the key as the directory (or S3 prefix) under the store's root.
func (k Key) Path() []string { return []string{k.Cloud, k.Account} }

// Valid checks both parts: a record without its backend or account is nobody's.
func (k Key) Valid() error {
	if k.Cloud == "" || k.Account == "" {
		return fmt.Errorf("records need a backend and an account (got %q, %q)", k.Cloud, k.Account)
	}
	for _, p := range k.Path() {
		if !safeSegment.MatchString(p) {
			return fmt.Errorf("%q cannot name a place for records", p)
		}
	}
	return nil
}

var safeSegment = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// CloudOfEmulator names an emulator, by the identity it answers STS with, as a key
// segment.
func CloudOfEmulator(id string) string { return "emulator-" + id }

// CloudOfEndpoint names an endpoint as a key segment: its host and port, with localhost
// and 127.0.0.1 told as one (one emulator reached by either is one cloud).
func CloudOfEndpoint(endpoint string) string {
	host := endpoint
	if u, err := url.Parse(endpoint); err == nil && u.Host != "" {
		host = u.Host
		if u.Port() == "" {
			if u.Scheme == "https" {
				host += ":443"
			} else {
				host += ":80"
			}
		}
	}
	host = strings.ToLower(host)
	host = strings.Replace(host, "localhost:", "127.0.0.1:", 1)
	host = strings.Replace(host, "[::1]:", "127.0.0.1:", 1)
	var b strings.Builder
	b.WriteString("endpoint-")
	for _, r := range host {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Location is where the records are kept: a local directory, or s3://BUCKET/PREFIX.
type Location struct {
	Dir            string
	Bucket, Prefix string
}

// ParseLocation reads a `state` setting: an s3://BUCKET/PREFIX URL, or an absolute
// directory.
func ParseLocation(s string) (Location, error) {
	if rest, ok := strings.CutPrefix(s, "s3://"); ok {
		bucket, prefix, _ := strings.Cut(rest, "/")
		if !bucketName.MatchString(bucket) {
			return Location{}, fmt.Errorf("state %q: %q is not an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)", s, bucket)
		}
		prefix = strings.Trim(prefix, "/")
		if prefix != "" && path.Clean(prefix) != prefix {
			return Location{}, fmt.Errorf("state %q: the prefix %q has empty or relative parts", s, prefix)
		}
		return Location{Bucket: bucket, Prefix: prefix}, nil
	}
	if strings.Contains(s, "://") {
		return Location{}, fmt.Errorf("state %q: want s3://BUCKET/PREFIX or a directory", s)
	}
	if !strings.HasPrefix(s, "/") {
		return Location{}, fmt.Errorf("state %q: a directory must be absolute", s)
	}
	return Location{Dir: path.Clean(s)}, nil
}

var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// IsS3 reports whether the records are in a bucket.
func (l Location) IsS3() bool { return l.Bucket != "" }

func (l Location) String() string {
	if l.IsS3() {
		return "s3://" + l.Bucket + "/" + l.Prefix
	}
	return l.Dir
}

// Lazy is a store found on first use (a client's, which needs its account from STS): a
// watcher started while its backend is down finds it once it answers, and until then
// every use fails with why.
func Lazy(open func() (Store, error), where string) Store { return lazy{open, where} }

type lazy struct {
	open  func() (Store, error)
	where string
}

func (l lazy) Where() string { return l.where }

func (l lazy) Sub(key ...string) Store {
	return Lazy(func() (Store, error) {
		st, err := l.open()
		if err != nil {
			return nil, err
		}
		return st.Sub(key...), nil
	}, path.Join(append([]string{l.where}, key...)...))
}

func (l lazy) Read(ctx context.Context, name string) ([]byte, error) {
	st, err := l.open()
	if err != nil {
		return nil, err
	}
	return st.Read(ctx, name)
}

func (l lazy) Locked(ctx context.Context, name string, f func(cur []byte, write func([]byte) error) error) error {
	st, err := l.open()
	if err != nil {
		return err
	}
	return st.Locked(ctx, name, f)
}

func (l lazy) Append(ctx context.Context, name string, line []byte) error {
	st, err := l.open()
	if err != nil {
		return err
	}
	return st.Append(ctx, name, line)
}

func (l lazy) Lines(ctx context.Context, name string) ([][]byte, int, error) {
	st, err := l.open()
	if err != nil {
		return nil, 0, err
	}
	return st.Lines(ctx, name)
}
