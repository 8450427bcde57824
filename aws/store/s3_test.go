package store_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/store"
)

// newS3 starts an emulator (state in a file, as gpublock sim keeps it) and returns an SDK
// client for it, path-style, with a bucket made.
func newS3(t *testing.T, stateFile string) *s3.Client {
	t.Helper()
	_, url := simtest.ServeWith(t, ec2sim.Options{StateFile: stateFile})
	return apitest.S3Bucket(t, url, "team")
}

func code(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// The emulator answers S3's conditional writes as AWS documents them, through the SDK.
func TestS3SimConditionalWrites(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "sim.json")
	c := newS3(t, state)
	put := func(body string, ifNone, ifMatch *string) (*s3.PutObjectOutput, error) {
		return c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team"), Key: aws.String("p/a.json"),
			Body: strings.NewReader(body), IfNoneMatch: ifNone, IfMatch: ifMatch})
	}
	first, err := put("one", aws.String("*"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := put("two", aws.String("*"), nil); code(err) != "PreconditionFailed" {
		t.Fatalf("a second create: %v, want PreconditionFailed", err)
	}
	if _, err := put("two", nil, aws.String(`"0000"`)); code(err) != "PreconditionFailed" {
		t.Fatalf("a stale If-Match: %v, want PreconditionFailed", err)
	}
	second, err := put("two", nil, first.ETag)
	if err != nil || aws.ToString(second.ETag) == aws.ToString(first.ETag) {
		t.Fatalf("If-Match on the ETag: %v, %v", second, err)
	}
	got, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("team"), Key: aws.String("p/a.json")})
	if err != nil || aws.ToString(got.ETag) != aws.ToString(second.ETag) {
		t.Fatalf("get: %v, %v", got, err)
	}
	if _, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("team"), Key: aws.String("p/none")}); err == nil {
		t.Fatal("HeadObject of no object succeeded")
	}
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team"), Key: aws.String("p/gone"),
		Body: strings.NewReader("x"), IfMatch: aws.String(`"abc"`)}); code(err) != "NoSuchKey" {
		t.Fatalf("If-Match on no object: %v, want NoSuchKey", err)
	}
	for i := range 5 {
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team"), Key: aws.String(fmt.Sprintf("p/l/%d", i)),
			Body: strings.NewReader("x")}); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	pages := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: aws.String("team"), Prefix: aws.String("p/l/"), MaxKeys: aws.Int32(2)})
	n := 0
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	if n != 3 || strings.Join(keys, ",") != "p/l/0,p/l/1,p/l/2,p/l/3,p/l/4" {
		t.Fatalf("%d pages: %v", n, keys)
	}
	if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String("team"), Key: aws.String("p/l/0")}); err != nil {
		t.Fatal(err)
	}
	// Kept with the emulator's state: a second emulator on the file sees the object.
	c2 := newS3(t, state)
	got2, err := c2.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("team"), Key: aws.String("p/a.json")})
	if err != nil || aws.ToString(got2.ETag) != aws.ToString(second.ETag) {
		t.Fatalf("after a restart: %v, %v", got2, err)
	}
	if _, err := c2.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("team"), Key: aws.String("p/l/0")}); code(err) != "NoSuchKey" {
		t.Fatalf("a deleted object after a restart: %v", err)
	}
}

// Two stores on one prefix (two machines) updating one record at once lose nothing: the
// lock object makes them take turns.
func TestS3StoreLockedUpdatesTakeTurns(t *testing.T) {
	c := newS3(t, "")
	a := store.S3{Client: c, Bucket: "team", Prefix: "gpublock", Poll: 5 * time.Millisecond}
	b := a
	recs := []store.Records[int]{store.RecordsOf[int](a.Sub("aws", "111111111111"), "n"), store.RecordsOf[int](b.Sub("aws", "111111111111"), "n")}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := recs[i%2].Update(func(rs []int, save func([]int) error) error {
				return save(append(rs, i))
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	rs, err := recs[0].List()
	if err != nil || len(rs) != 20 {
		t.Fatalf("%d records after 20 updates (%v): %v", len(rs), err, rs)
	}
	// Another account's store holds none of them.
	if other, err := store.RecordsOf[int](a.Sub("aws", "222222222222"), "n").List(); err != nil || len(other) != 0 {
		t.Fatalf("the other account sees %v, %v", other, err)
	}
}

// A lock whose holder died is broken once expired, not before.
func TestS3StoreBreaksAnExpiredLock(t *testing.T) {
	ctx := context.Background()
	c := newS3(t, "")
	st := store.S3{Client: c, Bucket: "team", Prefix: "x", Poll: 5 * time.Millisecond, LockTTL: time.Hour}
	dead := fmt.Sprintf(`{"owner":"dead","expires":%q}`, time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team"), Key: aws.String("x/r.lock"), Body: strings.NewReader(dead)}); err != nil {
		t.Fatal(err)
	}
	ran := false
	if err := st.Locked(ctx, "r", func(cur []byte, write func([]byte) error) error { ran = true; return write([]byte("v")) }); err != nil || !ran {
		t.Fatalf("an expired lock was not broken: %v", err)
	}
	live := fmt.Sprintf(`{"owner":"alive","expires":%q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team"), Key: aws.String("x/r.lock"), Body: strings.NewReader(live)}); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := st.Locked(short, "r", func([]byte, func([]byte) error) error { t.Error("ran under another's live lock"); return nil }); err == nil {
		t.Fatal("a live lock was taken")
	}
}

// The journal in S3 is one object per line, read back in the order written.
func TestS3StoreLog(t *testing.T) {
	ctx := context.Background()
	st := store.S3{Client: newS3(t, ""), Bucket: "team", Prefix: "j"}
	for i := range 3 {
		if err := st.Append(ctx, "journal", []byte(fmt.Sprintf(`{"n":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	lines, bad, err := st.Lines(ctx, "journal")
	if err != nil || bad != 0 || len(lines) != 3 || string(lines[2]) != `{"n":2}` {
		t.Fatalf("%q, %d, %v", lines, bad, err)
	}
}

// An object keeps the checksum its upload named (CRC32, which the SDK sends by default),
// and GetObject returns it when asked, as S3 does: the SDK validates it instead of warning
// on every read that there was none.
func TestS3SimKeepsTheUploadsChecksum(t *testing.T) {
	ctx := context.Background()
	c := newS3(t, filepath.Join(t.TempDir(), "sim.json"))
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("team"), Key: aws.String("p/c.json"),
		Body: strings.NewReader("checked"), ChecksumAlgorithm: types.ChecksumAlgorithmCrc32}); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String("team"), Key: aws.String("p/c.json"), ChecksumMode: types.ChecksumModeEnabled},
		func(o *s3.Options) { o.Logger = logging.NewStandardLogger(&logged) })
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(out.Body)
	out.Body.Close()
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32.ChecksumIEEE([]byte("checked")))
	if err != nil || string(body) != "checked" || aws.ToString(out.ChecksumCRC32) != base64.StdEncoding.EncodeToString(b[:]) {
		t.Fatalf("GetObject: %q, CRC32 %q (%v)", body, aws.ToString(out.ChecksumCRC32), err)
	}
	if strings.Contains(logged.String(), "checksum") {
		t.Errorf("the SDK said: %s", logged.String())
	}
}
