package awsapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/store"
)

// proxyTo forwards every request to target, headers both ways; strip names response
// headers it drops.
func proxyTo(t *testing.T, target string, strip ...string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(r *http.Response) error {
		for _, h := range strip {
			r.Header.Del(h)
		}
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

func stateKey(t *testing.T, endpoint string, tweak func(*Config)) store.Key {
	t.Helper()
	k, err := newTestClient(t, endpoint, tweak).StateKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// An emulator is one backend whatever URL reaches it: a proxy in front of it reads and
// writes the same records as a client that reaches it directly.
func TestEmulatorReachedThroughAProxyIsTheSameBackend(t *testing.T) {
	sim, direct := simtest.Serve(t, 1, ec2sim.Faults{})
	viaProxy := proxyTo(t, direct)
	a, b := stateKey(t, direct, nil), stateKey(t, viaProxy, nil)
	want := store.Key{Cloud: store.CloudOfEmulator(sim.ID()), Account: sim.Account()}
	if a != want || b != want {
		t.Fatalf("direct %+v, through a proxy %+v; want both %+v", a, b, want)
	}
}

// Two emulators are two backends, even for one account: what one has done is never read
// as the other's.
func TestTwoEmulatorsOfOneAccountAreTwoBackends(t *testing.T) {
	_, one := simtest.Serve(t, 1, ec2sim.Faults{})
	_, two := simtest.Serve(t, 1, ec2sim.Faults{})
	a, b := stateKey(t, one, nil), stateKey(t, two, nil)
	if a.Account != b.Account || a.Cloud == b.Cloud {
		t.Fatalf("two emulators keyed %+v and %+v; want one account, two backends", a, b)
	}
}

// An endpoint whose STS answers without an emulator's identity is AWS (a VPC endpoint, a
// proxy to AWS): keyed by its account under "aws", as AWS's own endpoint is.
func TestEndpointWithoutAnIdentityIsAWS(t *testing.T) {
	_, direct := simtest.Serve(t, 1, ec2sim.Faults{})
	asAWS := proxyTo(t, direct, simcore.IDHeader)
	if k := stateKey(t, asAWS, nil); k.Cloud != CloudAWS || k.Account != ec2sim.DemoAccount {
		t.Fatalf("keyed %+v; want aws and the account", k)
	}
	// Known for an emulator (its clock answered) but without an identity: its endpoint.
	k := stateKey(t, asAWS, func(c *Config) { c.Cloud = CloudEmulator })
	if k.Cloud != store.CloudOfEndpoint(asAWS) {
		t.Fatalf("an emulator without an identity keyed %+v; want its endpoint", k)
	}
}

// A backend that cannot be reached has no key: its records are neither read nor written,
// and the error says why (AccountUnknownError).
func TestUnreachableBackendHasNoRecords(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	down := srv.URL
	srv.Close()
	c := newTestClient(t, down, nil)
	_, err := c.StateStore(context.Background())
	var unknown *AccountUnknownError
	if !errors.As(err, &unknown) || unknown.Where != down {
		t.Fatalf("StateStore against a backend that is down: %v; want AccountUnknownError naming %s", err, down)
	}
	if _, _, err := c.Journal(); err == nil {
		t.Fatal("the journal of a backend that is down was read")
	}
}

// A client made while its emulator was down was taken for AWS; once the emulator
// answers, its records are the emulator's: under the emulators' directory, never AWS's,
// and its journal lines read by a client that knew it for an emulator from the start.
func TestEmulatorDownWhenTheClientWasMadeKeepsItsRecordsApartFromAWS(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	sim, direct := simtest.Serve(t, 1, ec2sim.Faults{})
	var up atomic.Bool
	u, _ := url.Parse(direct)
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	early := newTestClient(t, srv.URL, func(c *Config) { c.JournalDir = "" })
	if err := early.WriteJournal(source.JournalEntry{Phase: "intent", RequestID: "gpb-down"}); err == nil {
		t.Fatal("a journal line was written while the backend could not say whose it is")
	}
	up.Store(true)
	if err := early.WriteJournal(source.JournalEntry{Phase: "intent", RequestID: "gpb-up", Action: "PurchaseCapacityBlock", Region: "us-east-1"}); err != nil {
		t.Fatal(err)
	}
	p, err := early.JournalPath()
	want := filepath.Join(dir, "gpublock", "simulated", store.CloudOfEmulator(sim.ID()), sim.Account(), "journal.jsonl")
	if err != nil || p != want {
		t.Fatalf("journal %q (%v); want %q", p, err, want)
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "gpublock")); err != nil || len(ents) != 1 || ents[0].Name() != "simulated" {
		t.Fatalf("the local store's root holds %v (%v); want the emulators' directory alone", ents, err)
	}
	known := newTestClient(t, srv.URL, func(c *Config) {
		c.JournalDir, c.Cloud = filepath.Join(dir, "gpublock", "simulated"), CloudEmulator
	})
	entries, _, err := known.Journal()
	if err != nil || len(entries) != 1 || entries[0].RequestID != "gpb-up" || entries[0].Cloud != CloudEmulator {
		t.Fatalf("journal read by a client that knew the emulator: %+v, %v; want the one line, the emulator's", entries, err)
	}
}
