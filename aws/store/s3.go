package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// S3 is a store under a prefix of a bucket. An object is an S3 object; its lock is the
// object NAME.lock, created with If-None-Match: * and holding its owner and expiry, renewed
// while held and broken (with If-Match on its ETag) only once expired; every write of the
// object under the lock is conditional on the ETag read under it. A log is one object per
// line under NAME/, named by the time it was written, created with If-None-Match: *.
type S3 struct {
	Client         *s3.Client
	Bucket, Prefix string
	// LockTTL is how long a lock outlives its holder's last renewal (0: DefaultLockTTL).
	LockTTL time.Duration
	// Poll is how long to wait before asking again for a held lock (0: a second).
	Poll time.Duration
}

// DefaultLockTTL bounds how long a machine that died holding a lock stops the others.
const DefaultLockTTL = 2 * time.Minute

func (s S3) Where() string { return "s3://" + s.Bucket + "/" + s.Prefix }

func (s S3) Sub(key ...string) Store {
	s.Prefix = path.Join(append([]string{s.Prefix}, key...)...)
	return s
}

func (s S3) key(name string) string { return path.Join(s.Prefix, name) }

// get reads an object and its ETag; nil, "" when there is none.
func (s S3) get(ctx context.Context, key string) ([]byte, string, error) {
	out, err := s.Client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.Bucket, Key: &key})
	if isCode(err, "NoSuchKey", "NotFound") {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("s3://%s/%s: %w", s.Bucket, key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(io.LimitReader(out.Body, maxObject+1))
	if err != nil {
		return nil, "", err
	}
	if len(b) > maxObject {
		return nil, "", fmt.Errorf("s3://%s/%s is larger than %d bytes: not a gpublock record", s.Bucket, key, maxObject)
	}
	return b, aws.ToString(out.ETag), nil
}

// maxObject bounds what is read of one object.
const maxObject = 64 << 20

// put writes an object: created only when match is "" (If-None-Match: *), replaced only
// when its ETag is still match (If-Match). ErrConflict when someone else wrote first.
func (s S3) put(ctx context.Context, key string, b []byte, match string) (string, error) {
	in := &s3.PutObjectInput{Bucket: &s.Bucket, Key: &key, Body: bytes.NewReader(b), ContentLength: aws.Int64(int64(len(b))),
		ContentType: aws.String("application/json")}
	if match == "" {
		in.IfNoneMatch = aws.String("*")
	} else {
		in.IfMatch = aws.String(match)
	}
	out, err := s.Client.PutObject(ctx, in)
	if isCode(err, "PreconditionFailed", "ConditionalRequestConflict", "NoSuchKey") {
		return "", ErrConflict
	}
	if err != nil {
		return "", fmt.Errorf("s3://%s/%s: %w", s.Bucket, key, err)
	}
	return aws.ToString(out.ETag), nil
}

func isCode(err error, codes ...string) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	for _, c := range codes {
		if ae.ErrorCode() == c {
			return true
		}
	}
	return false
}

func (s S3) Read(ctx context.Context, name string) ([]byte, error) {
	b, _, err := s.get(ctx, s.key(name))
	return b, err
}

type lockBody struct {
	Owner   string    `json:"owner"`
	Expires time.Time `json:"expires"`
}

func newOwner() string {
	host, _ := os.Hostname()
	var r [6]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(r[:]))
}

func (s S3) ttl() time.Duration {
	if s.LockTTL > 0 {
		return s.LockTTL
	}
	return DefaultLockTTL
}

func (s S3) lockBody(owner string) []byte {
	b, _ := json.Marshal(lockBody{Owner: owner, Expires: time.Now().Add(s.ttl()).UTC()})
	return b
}

// lock takes name's lock, waiting while another holds it and breaking it once expired.
// It returns the lock's ETag.
func (s S3) lock(ctx context.Context, lockKey, owner string) (string, error) {
	poll := s.Poll
	if poll <= 0 {
		poll = time.Second
	}
	for {
		etag, err := s.put(ctx, lockKey, s.lockBody(owner), "")
		if err == nil {
			return etag, nil
		}
		if !errors.Is(err, ErrConflict) {
			return "", err
		}
		b, cur, err := s.get(ctx, lockKey)
		if err != nil {
			return "", err
		}
		var held lockBody
		if b != nil && (json.Unmarshal(b, &held) != nil || time.Now().After(held.Expires)) {
			// Its holder died (or wrote nonsense): take it over, unless another did first.
			if etag, err := s.put(ctx, lockKey, s.lockBody(owner), cur); err == nil {
				return etag, nil
			} else if !errors.Is(err, ErrConflict) {
				return "", err
			}
			continue
		}
		if b == nil {
			continue // released in between
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for %s (held by %s): %w", lockKey, held.Owner, ctx.Err())
		case <-time.After(poll):
		}
	}
}

func (s S3) Locked(ctx context.Context, name string, f func(cur []byte, write func([]byte) error) error) error {
	lockKey := s.key(name + ".lock")
	owner := newOwner()
	lockTag, err := s.lock(ctx, lockKey, owner)
	if err != nil {
		return err
	}
	// Renewed while f runs, so that a long hold (a launch being confirmed) is not broken.
	renewCtx, stopRenew := context.WithCancel(context.WithoutCancel(ctx))
	renewed := make(chan struct{})
	tagCh := make(chan string, 1)
	tagCh <- lockTag
	go func() {
		defer close(renewed)
		t := time.NewTicker(s.ttl() / 4)
		defer t.Stop()
		for {
			select {
			case <-renewCtx.Done():
				return
			case <-t.C:
				tag := <-tagCh
				if nt, err := s.put(renewCtx, lockKey, s.lockBody(owner), tag); err == nil {
					tag = nt
				}
				tagCh <- tag
			}
		}
	}()
	defer func() {
		stopRenew()
		<-renewed
		tag := <-tagCh
		// Only our own lock is removed: one taken over after we were presumed dead is not.
		if b, cur, err := s.get(context.WithoutCancel(ctx), lockKey); err == nil && b != nil && cur == tag {
			_, _ = s.Client.DeleteObject(context.WithoutCancel(ctx), &s3.DeleteObjectInput{Bucket: &s.Bucket, Key: &lockKey})
		}
	}()
	key := s.key(name)
	cur, etag, err := s.get(ctx, key)
	if err != nil {
		return err
	}
	return f(cur, func(b []byte) error {
		nt, err := s.put(ctx, key, b, etag)
		if err != nil {
			return err
		}
		etag = nt
		return nil
	})
}

func (s S3) Append(ctx context.Context, name string, line []byte) error {
	var r [4]byte
	_, _ = rand.Read(r[:])
	// Named by the time, so that a listing (in key order) reads the lines in order.
	key := s.key(path.Join(name, fmt.Sprintf("%020d-%s.json", time.Now().UnixNano(), hex.EncodeToString(r[:]))))
	_, err := s.put(ctx, key, line, "")
	return err
}

func (s S3) Lines(ctx context.Context, name string) ([][]byte, int, error) {
	prefix := s.key(name) + "/"
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.Client, &s3.ListObjectsV2Input{Bucket: &s.Bucket, Prefix: &prefix})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", s.Where(), err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	sort.Strings(keys)
	var out [][]byte
	bad := 0
	for _, k := range keys {
		b, _, err := s.get(ctx, k)
		if err != nil {
			return out, bad, err
		}
		if t := bytes.TrimSpace(b); len(t) > 0 && !strings.Contains(string(t), "\n") {
			out = append(out, t)
		} else if len(t) > 0 {
			bad++
		}
	}
	return out, bad, nil
}
