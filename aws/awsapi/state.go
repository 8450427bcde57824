package awsapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/aws/store"
)

// identityWait bounds the question "whose records are these?" when a command has no
// context of its own to bound it.
const identityWait = 30 * time.Second

// StateKey is whose records this client reads and writes: its cloud (AWS, the demo, or
// an emulator by the identity it answers STS with) and the account STS GetCallerIdentity
// says it is. A cloud that cannot be reached has no key: its records are never guessed
// at, and never another cloud's.
func (c *Client) StateKey(ctx context.Context) (store.Key, error) {
	id, err := c.Identity(ctx)
	if err != nil {
		where := "AWS"
		if c.cfg.EndpointURL != "" {
			where = c.cfg.EndpointURL
		}
		return store.Key{}, &AccountUnknownError{Where: where, Err: err}
	}
	k := store.Key{Cloud: c.stateCloud(), Account: id.Account}
	return k, k.Valid()
}

// AccountUnknownError is a store that could not be opened because STS could not say
// whose records they are (the backend is down, the credentials fail): nothing was read or
// changed, and no other backend's or account's records stand in for them.
type AccountUnknownError struct {
	Where string // "AWS", or the endpoint
	Err   error  // STS's error
}

func (e *AccountUnknownError) Error() string {
	return fmt.Sprintf("cannot learn which account %s is (STS GetCallerIdentity: %v), so its records were neither read nor changed", e.Where, e.Err)
}

func (e *AccountUnknownError) Unwrap() error { return e.Err }

// stateCloud names the cloud in the store's key, once Identity has answered. An
// emulator is one cloud by the identity it answers STS with, whatever URL reaches it (a
// proxy in front of it is the same emulator; another emulator later on the same port is
// not). An endpoint that answers with no identity is AWS (a VPC endpoint, a proxy to it):
// its account tells its records apart, and one AWS account must see one set of records,
// or a purchase interrupted through one URL would not be found through another. The
// demo's endpoint changes every run, its account not. An emulator too old to answer with
// its identity is still told by its endpoint.
func (c *Client) stateCloud() string {
	c.mu.Lock()
	simID := c.simID
	c.mu.Unlock()
	switch {
	case c.journal.cloud == CloudDemo:
		return CloudDemo
	case simID != "":
		return store.CloudOfEmulator(simID)
	case c.journal.cloud == CloudEmulator && c.cfg.EndpointURL != "":
		return store.CloudOfEndpoint(c.cfg.EndpointURL)
	default:
		return CloudAWS
	}
}

// StateStore is the store of this client's records (the journal, the launches attached
// to a block's start, the auto-extension decisions, the warnings sent): Config.State's
// location, else the local journal directory, under StateKey. It is made once.
func (c *Client) StateStore(ctx context.Context) (store.Store, error) {
	c.stateMu.Lock()
	defer c.stateMu.Unlock()
	if c.state != nil {
		return c.state, nil
	}
	k, err := c.StateKey(ctx)
	if err != nil {
		return nil, err
	}
	root, err := c.stateRoot()
	if err != nil {
		return nil, err
	}
	st := root.Sub(k.Path()...)
	if l, ok := root.(store.Local); ok {
		if err := adoptLegacy(l, st.(store.Local), k, c.journal.cloud); err != nil {
			return nil, err
		}
	}
	c.state = st
	return st, nil
}

// stateRoot is where every cloud's and account's records are kept.
func (c *Client) stateRoot() (store.Store, error) {
	if loc := c.cfg.State; loc.IsS3() {
		cl := s3.NewFromConfig(c.awscfg, func(o *s3.Options) {
			// An emulator serves S3 on its one port, path-style; AWS's S3 is reached by
			// its own endpoint (or AWS_ENDPOINT_URL_S3).
			if c.cfg.EndpointURL != "" {
				o.BaseEndpoint = aws.String(c.cfg.EndpointURL)
				o.UsePathStyle = true
			}
		})
		st := store.S3{Client: cl, Bucket: loc.Bucket, Prefix: loc.Prefix}
		// How long the lock of a machine that died holds the others off (a Go duration):
		// tests and impatient teams shorten it; a lock is renewed while held, whatever it is.
		if d, err := time.ParseDuration(os.Getenv("GPUBLOCK_STATE_LOCK_TTL")); err == nil && d > 0 {
			st.LockTTL, st.Poll = d, min(time.Second, d/4)
		}
		return st, nil
	}
	dir := c.cfg.State.Dir
	if dir == "" {
		dir = c.cfg.JournalDir
	}
	if dir == "" {
		d, err := DefaultJournalDir()
		if err != nil {
			return nil, err
		}
		dir = d
		c.mu.Lock()
		emulator := c.simID != ""
		c.mu.Unlock()
		if emulator {
			// An emulator that was down when the command started was taken for AWS then;
			// its answer says what it is, and its records go where the emulators' are.
			dir = filepath.Join(d, "simulated")
		}
	}
	return store.NewLocal(dir), nil
}

// legacyFiles are what a journal directory held before records were kept per cloud and
// account.
var legacyFiles = []string{"journal.jsonl", "launches-at-start.json", "auto-extend.json", "notified.json"}

// adoptLegacy moves the records kept at the root of a local store before they were keyed
// into the first account of the root's own cloud to open it: AWS for the live
// directory, the demo for the simulated one (whose emulator records, if any, stay where
// they are, unread). Each file is copied, then renamed to NAME.moved so that it is
// neither read again nor lost.
func adoptLegacy(root, st store.Local, k store.Key, cloud string) error {
	if cloud != CloudAWS && cloud != CloudDemo {
		return nil
	}
	if k.Cloud != cloud {
		return nil // an endpoint that is not the emulator: not the live directory's AWS
	}
	var found []string
	for _, n := range legacyFiles {
		if fi, err := os.Lstat(root.Path(n)); err == nil && fi.Mode().IsRegular() {
			found = append(found, n)
		}
	}
	if len(found) == 0 {
		return nil
	}
	if err := os.MkdirAll(st.Dir, 0o700); err != nil {
		return err
	}
	lf, err := os.OpenFile(root.Path("adopt.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return err
	}
	defer filelock.Unlock(lf)
	for _, n := range found {
		b, err := os.ReadFile(root.Path(n))
		if errors.Is(err, fs.ErrNotExist) {
			continue // another process adopted it first
		}
		if err != nil {
			return err
		}
		if _, err := os.Stat(st.Path(n)); err == nil {
			continue // the account already has its own: the old one stays for a person
		}
		if err := filelock.WriteAtomic(st.Path(n), b); err != nil {
			return err
		}
		if err := os.Rename(root.Path(n), root.Path(n+".moved")); err != nil {
			return err
		}
	}
	return nil
}

func (j *journal) storeOf(c *Client) func() (store.Store, error) {
	return func() (store.Store, error) {
		ctx, cancel := context.WithTimeout(context.Background(), identityWait)
		defer cancel()
		return c.StateStore(ctx)
	}
}
