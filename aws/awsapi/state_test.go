package awsapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/simcore"
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
	sim, direct := newSim(t, 1, ec2sim.Faults{})
	viaProxy := proxyTo(t, direct)
	a, b := stateKey(t, direct, nil), stateKey(t, viaProxy, nil)
	want := store.Key{Backend: store.BackendOfEmulator(sim.BackendID()), Account: sim.Account()}
	if a != want || b != want {
		t.Fatalf("direct %+v, through a proxy %+v; want both %+v", a, b, want)
	}
}

// Two emulators are two backends, even for one account: what one has done is never read
// as the other's.
func TestTwoEmulatorsOfOneAccountAreTwoBackends(t *testing.T) {
	_, one := newSim(t, 1, ec2sim.Faults{})
	_, two := newSim(t, 1, ec2sim.Faults{})
	a, b := stateKey(t, one, nil), stateKey(t, two, nil)
	if a.Account != b.Account || a.Backend == b.Backend {
		t.Fatalf("two emulators keyed %+v and %+v; want one account, two backends", a, b)
	}
}

// An endpoint whose STS answers without an emulator's identity is AWS (a VPC endpoint, a
// proxy to AWS): keyed by its account under "aws", as AWS's own endpoint is.
func TestEndpointWithoutAnIdentityIsAWS(t *testing.T) {
	_, direct := newSim(t, 1, ec2sim.Faults{})
	asAWS := proxyTo(t, direct, simcore.IDHeader)
	if k := stateKey(t, asAWS, nil); k.Backend != BackendAWS || k.Account != ec2sim.DemoAccount {
		t.Fatalf("keyed %+v; want aws and the account", k)
	}
	// Known for an emulator (its clock answered) but without an identity: its endpoint.
	k := stateKey(t, asAWS, func(c *Config) { c.Backend = BackendEmulator })
	if k.Backend != store.BackendOfEndpoint(asAWS) {
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
