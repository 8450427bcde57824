// Package s3sim is the emulator's S3: the object calls gpublock's team store makes
// (CreateBucket, PutObject with If-None-Match: * and If-Match, GetObject, HeadObject,
// ListObjectsV2, DeleteObject), path-style (http://host/BUCKET/KEY), SigV4-signed for s3,
// answered in S3's REST-XML shapes and errors, and kept in the emulator's state file with
// the rest of its state. It shares the emulator's port and lock (aws/simcore).
//
// Conditional writes follow AWS's documented rules: If-None-Match accepts only "*" and
// fails with 412 PreconditionFailed when the key exists; If-Match fails with 412 when the
// ETag differs and with 404 NoSuchKey when the object is gone. Writes on one key are
// serialized by the emulator's lock, so 409 ConditionalRequestConflict, which AWS may
// answer while a conflicting write is in flight, is never produced here.
package s3sim

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

// maxObject bounds one object's body: the store's records are small.
const maxObject = 16 << 20

// Protocol is the registration that makes the emulator answer S3: requests signed for s3,
// and the unsigned ones of S3's methods (PUT, DELETE, HEAD), to be refused in S3's words.
func Protocol() simcore.Protocol {
	return simcore.Protocol{
		Name: "s3",
		Match: func(r *http.Request) bool {
			if simcore.SigningService(r) == "s3" {
				return true
			}
			return r.Method == http.MethodPut || r.Method == http.MethodDelete || r.Method == http.MethodHead
		},
		Mount: func(c *simcore.Core) simcore.Handler { return &handler{core: c, buckets: map[string]*bucket{}} },
	}
}

type object struct {
	Body     []byte    `json:"body"`
	ETag     string    `json:"etag"`
	Modified time.Time `json:"modified"`
	// Checksum is the object's full-object checksum, as S3 keeps the one its upload named
	// (x-amz-checksum-ALGORITHM: value), and returns it to a GetObject that asks for it.
	Checksum *checksum `json:"checksum,omitempty"`
}

type checksum struct {
	Algorithm string `json:"algorithm"` // crc32, crc32c
	Value     string `json:"value"`     // base64 of the big-endian sum
}

// checksumOf is the checksum an upload names (in a header, or a trailer of its
// aws-chunked body, which the SDK sends by default), computed from the body as S3 does;
// nil for one this emulator does not compute.
func checksumOf(r *http.Request, body []byte) *checksum {
	alg := strings.ToLower(r.Header.Get("X-Amz-Sdk-Checksum-Algorithm"))
	for _, h := range []string{r.Header.Get("X-Amz-Trailer"), strings.Join(headerNames(r.Header, "X-Amz-Checksum-"), ",")} {
		for _, name := range strings.Split(h, ",") {
			if a, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(name)), "x-amz-checksum-"); ok && a != "type" && a != "mode" {
				alg = a
			}
		}
	}
	var sum uint32
	switch alg {
	case "crc32":
		sum = crc32.ChecksumIEEE(body)
	case "crc32c":
		sum = crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli))
	default:
		return nil
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], sum)
	return &checksum{Algorithm: alg, Value: base64.StdEncoding.EncodeToString(b[:])}
}

func headerNames(h http.Header, prefix string) []string {
	var out []string
	for k := range h {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), prefix) {
			out = append(out, k)
		}
	}
	return out
}

type bucket struct {
	Objects map[string]*object `json:"objects"`
}

type handler struct {
	core    *simcore.Core
	buckets map[string]*bucket // guarded by the core's lock
}

func (h *handler) SaveState() (json.RawMessage, error) { return json.Marshal(h.buckets) }

func (h *handler) LoadState(b json.RawMessage) error {
	h.buckets = map[string]*bucket{}
	if len(b) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, &h.buckets); err != nil {
		return fmt.Errorf("s3 state: %w", err)
	}
	for _, bk := range h.buckets {
		if bk.Objects == nil {
			bk.Objects = map[string]*object{}
		}
	}
	return nil
}

type s3Error struct {
	status           int
	code, message    string
	condition, key   string
	bucketName, hint string
}

func errf(status int, code, format string, args ...any) *s3Error {
	return &s3Error{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

func (h *handler) fail(w http.ResponseWriter, r *http.Request, e *s3Error) {
	reqID := simcore.NewRequestID()
	w.Header().Set("x-amz-request-id", reqID)
	if r.Method == http.MethodHead {
		w.WriteHeader(e.status) // HEAD answers carry no body; the SDK reads the status
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(e.status)
	type errXML struct {
		XMLName    xml.Name `xml:"Error"`
		Code       string
		Message    string
		Condition  string `xml:",omitempty"`
		Key        string `xml:",omitempty"`
		BucketName string `xml:",omitempty"`
		RequestId  string
		HostId     string
	}
	io.WriteString(w, xml.Header)
	_ = xml.NewEncoder(w).Encode(errXML{Code: e.code, Message: e.message, Condition: e.condition, Key: e.key,
		BucketName: e.bucketName, RequestId: reqID, HostId: base64.StdEncoding.EncodeToString([]byte(reqID))})
}

var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Signed, and for s3: the shape of the Authorization header is checked as EC2's is;
	// the signature itself is not verified (the emulator holds no secrets).
	if r.Header.Get("Authorization") == "" {
		h.fail(w, r, errf(http.StatusForbidden, "AccessDenied", "Anonymous access is not allowed: sign the request with SigV4."))
		return
	}
	if _, service, e := h.core.SignedRegion(r); e != nil && e != simcore.ErrUnservedRegion {
		h.fail(w, r, errf(http.StatusForbidden, "AuthorizationHeaderMalformed", "%s", e.Message()))
		return
	} else if service != "s3" {
		h.fail(w, r, errf(http.StatusForbidden, "SignatureDoesNotMatch", "Credential should be scoped to correct service: 's3' (it was %q).", service))
		return
	}
	path := strings.TrimPrefix(r.URL.Path, "/")
	bname, key, _ := strings.Cut(path, "/")
	if !bucketName.MatchString(bname) {
		h.fail(w, r, errf(http.StatusBadRequest, "InvalidBucketName", "The specified bucket is not valid: %q (path-style requests only: http://host/BUCKET/KEY).", bname))
		return
	}
	var e *s3Error
	switch {
	case key == "" && r.Method == http.MethodPut:
		e = h.createBucket(w, bname)
	case key == "" && r.Method == http.MethodGet && r.URL.Query().Get("list-type") == "2":
		e = h.list(w, r, bname)
	case key == "" && r.Method == http.MethodGet:
		e = errf(http.StatusNotImplemented, "NotImplemented", "Only ListObjectsV2 (list-type=2) lists a bucket here.")
	case key == "":
		e = errf(http.StatusMethodNotAllowed, "MethodNotAllowed", "The specified method is not allowed against this resource.")
	case r.Method == http.MethodPut:
		e = h.put(w, r, bname, key)
	case r.Method == http.MethodGet, r.Method == http.MethodHead:
		e = h.get(w, r, bname, key)
	case r.Method == http.MethodDelete:
		e = h.delete(w, bname, key)
	default:
		e = errf(http.StatusMethodNotAllowed, "MethodNotAllowed", "The specified method is not allowed against this resource.")
	}
	if e != nil {
		if e.bucketName == "" && e.code == "NoSuchBucket" {
			e.bucketName = bname
		}
		h.fail(w, r, e)
	}
}

func (h *handler) createBucket(w http.ResponseWriter, name string) *s3Error {
	var e *s3Error
	err := h.core.Update(func(time.Time) bool {
		if _, ok := h.buckets[name]; ok {
			e = errf(http.StatusConflict, "BucketAlreadyOwnedByYou", "Your previous request to create the named bucket succeeded and you already own it.")
			return false
		}
		h.buckets[name] = &bucket{Objects: map[string]*object{}}
		return true
	})
	if err != nil {
		return errf(http.StatusInternalServerError, "InternalError", "%v", err)
	}
	if e != nil {
		return e
	}
	w.Header().Set("Location", "/"+name)
	w.WriteHeader(http.StatusOK)
	return nil
}

func quoted(etag string) string { return `"` + strings.Trim(etag, `"`) + `"` }

func (h *handler) put(w http.ResponseWriter, r *http.Request, bname, key string) *s3Error {
	if len(key) > 1024 {
		return errf(http.StatusBadRequest, "KeyTooLongError", "Your key is too long.")
	}
	body, e := readBody(r)
	if e != nil {
		return e
	}
	ifNone, ifMatch := r.Header.Get("If-None-Match"), r.Header.Get("If-Match")
	if ifNone != "" && ifNone != "*" {
		return errf(http.StatusNotImplemented, "NotImplemented", "A header you provided implies functionality that is not implemented: If-None-Match accepts only *.")
	}
	sum := md5.Sum(body)
	etag := quoted(hex.EncodeToString(sum[:]))
	err := h.core.Update(func(now time.Time) bool {
		bk, ok := h.buckets[bname]
		if !ok {
			e = errf(http.StatusNotFound, "NoSuchBucket", "The specified bucket does not exist")
			return false
		}
		cur := bk.Objects[key]
		switch {
		case ifNone == "*" && cur != nil:
			e = errf(http.StatusPreconditionFailed, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
			e.condition = "If-None-Match"
			return false
		case ifMatch != "" && cur == nil:
			e = errf(http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
			e.key = key
			return false
		case ifMatch != "" && quoted(ifMatch) != cur.ETag:
			e = errf(http.StatusPreconditionFailed, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
			e.condition = "If-Match"
			return false
		}
		bk.Objects[key] = &object{Body: body, ETag: etag, Modified: time.Now().UTC(), Checksum: checksumOf(r, body)}
		return true
	})
	if err != nil {
		return errf(http.StatusInternalServerError, "InternalError", "%v", err)
	}
	if e != nil {
		return e
	}
	w.Header().Set("ETag", etag)
	if c := checksumOf(r, body); c != nil {
		w.Header().Set("X-Amz-Checksum-"+strings.ToUpper(c.Algorithm), c.Value)
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// readBody reads a PutObject's body, decoding the aws-chunked encoding the SDK uses when
// it sends its checksum in a trailer.
func readBody(r *http.Request) ([]byte, *s3Error) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxObject*2+1))
	if err != nil {
		return nil, errf(http.StatusBadRequest, "IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.")
	}
	if strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") ||
		strings.HasPrefix(r.Header.Get("X-Amz-Content-Sha256"), "STREAMING-") {
		raw, err = unchunk(raw)
		if err != nil {
			return nil, errf(http.StatusBadRequest, "IncompleteBody", "The aws-chunked body cannot be read: %v", err)
		}
	}
	if len(raw) > maxObject {
		return nil, errf(http.StatusBadRequest, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size of this emulator (%d bytes).", maxObject)
	}
	return raw, nil
}

// unchunk decodes "SIZE[;ext]\r\nDATA\r\n … 0[;ext]\r\n[trailers]\r\n".
func unchunk(b []byte) ([]byte, error) {
	var out []byte
	for {
		line, rest, ok := bytes.Cut(b, []byte("\r\n"))
		if !ok {
			return nil, fmt.Errorf("a chunk without its size line")
		}
		sizeHex, _, _ := bytes.Cut(line, []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(sizeHex)), 16, 64)
		if err != nil || n < 0 || n > int64(len(rest)) {
			return nil, fmt.Errorf("chunk size %q", sizeHex)
		}
		if n == 0 {
			return out, nil
		}
		out = append(out, rest[:n]...)
		b = bytes.TrimPrefix(rest[n:], []byte("\r\n"))
	}
}

func (h *handler) get(w http.ResponseWriter, r *http.Request, bname, key string) *s3Error {
	_, unlock, ae := h.core.Lock()
	if ae != nil {
		return errf(http.StatusInternalServerError, "InternalError", "%s", ae.Message())
	}
	bk, ok := h.buckets[bname]
	var o object
	if ok && bk.Objects[key] != nil {
		o = *bk.Objects[key]
	}
	unlock()
	if !ok {
		return errf(http.StatusNotFound, "NoSuchBucket", "The specified bucket does not exist")
	}
	if o.ETag == "" {
		e := errf(http.StatusNotFound, "NoSuchKey", "The specified key does not exist.")
		e.key = key
		return e
	}
	w.Header().Set("ETag", o.ETag)
	w.Header().Set("Last-Modified", o.Modified.Format(http.TimeFormat))
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(o.Body)))
	if o.Checksum != nil && strings.EqualFold(r.Header.Get("X-Amz-Checksum-Mode"), "ENABLED") {
		w.Header().Set("X-Amz-Checksum-"+strings.ToUpper(o.Checksum.Algorithm), o.Checksum.Value)
		w.Header().Set("X-Amz-Checksum-Type", "FULL_OBJECT")
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(o.Body)
	}
	return nil
}

func (h *handler) delete(w http.ResponseWriter, bname, key string) *s3Error {
	var e *s3Error
	err := h.core.Update(func(time.Time) bool {
		bk, ok := h.buckets[bname]
		if !ok {
			e = errf(http.StatusNotFound, "NoSuchBucket", "The specified bucket does not exist")
			return false
		}
		if _, ok := bk.Objects[key]; !ok {
			return false // deleting what is not there succeeds, as on S3
		}
		delete(bk.Objects, key)
		return true
	})
	if err != nil {
		return errf(http.StatusInternalServerError, "InternalError", "%v", err)
	}
	if e != nil {
		return e
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type listContents struct {
	Key          string
	LastModified string
	ETag         string
	Size         int
	StorageClass string
}

type listResult struct {
	XMLName               xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ ListBucketResult"`
	Name                  string
	Prefix                string
	KeyCount              int
	MaxKeys               int
	IsTruncated           bool
	Contents              []listContents
	ContinuationToken     string `xml:",omitempty"`
	NextContinuationToken string `xml:",omitempty"`
	StartAfter            string `xml:",omitempty"`
}

func (h *handler) list(w http.ResponseWriter, r *http.Request, bname string) *s3Error {
	q := r.URL.Query()
	prefix, token, startAfter := q.Get("prefix"), q.Get("continuation-token"), q.Get("start-after")
	maxKeys := 1000
	if v := q.Get("max-keys"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return errf(http.StatusBadRequest, "InvalidArgument", "max-keys %q is not a non-negative integer.", v)
		}
		maxKeys = min(n, 1000)
	}
	after := startAfter
	if token != "" {
		b, err := base64.RawURLEncoding.DecodeString(token)
		if err != nil {
			return errf(http.StatusBadRequest, "InvalidArgument", "The continuation token provided is incorrect.")
		}
		after = string(b)
	}
	_, unlock, ae := h.core.Lock()
	if ae != nil {
		return errf(http.StatusInternalServerError, "InternalError", "%s", ae.Message())
	}
	bk, ok := h.buckets[bname]
	var keys []string
	objs := map[string]object{}
	if ok {
		for k, o := range bk.Objects {
			if strings.HasPrefix(k, prefix) && k > after {
				keys = append(keys, k)
				objs[k] = *o
			}
		}
	}
	unlock()
	if !ok {
		return errf(http.StatusNotFound, "NoSuchBucket", "The specified bucket does not exist")
	}
	sort.Strings(keys)
	res := listResult{Name: bname, Prefix: prefix, MaxKeys: maxKeys, ContinuationToken: token, StartAfter: startAfter}
	if len(keys) > maxKeys {
		keys = keys[:maxKeys]
		res.IsTruncated = true
		res.NextContinuationToken = base64.RawURLEncoding.EncodeToString([]byte(keys[len(keys)-1]))
	}
	for _, k := range keys {
		o := objs[k]
		res.Contents = append(res.Contents, listContents{Key: k, LastModified: o.Modified.Format("2006-01-02T15:04:05.000Z"),
			ETag: o.ETag, Size: len(o.Body), StorageClass: "STANDARD"})
	}
	res.KeyCount = len(res.Contents)
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, xml.Header)
	_ = xml.NewEncoder(w).Encode(res)
	return nil
}
