package awsapi

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"time"
)

// Now is the time as the backend sees it. Against AWS that is the local clock. Against an
// endpoint override that serves the emulator's GET /_sim/clock, it is the emulator's
// clock, which demos and tests move; dates such as "+2w" and the 8-week limit must be
// read against it, or a simulated market would look empty.
func (c *Client) Now(ctx context.Context) time.Time {
	if t, ok := c.SimClock(ctx); ok {
		return t
	}
	return time.Now().UTC()
}

// IsEmulator reports whether the endpoint is gpublock's emulator (it answers
// GET /_sim/clock), so a caller can say SIMULATED rather than LIVE.
func (c *Client) IsEmulator(ctx context.Context) bool {
	_, ok := c.SimClock(ctx)
	return ok
}

// SimClock is the emulator's clock (GET /_sim/clock); ok is false against AWS.
func (c *Client) SimClock(ctx context.Context) (time.Time, bool) {
	if c.cfg.EndpointURL == "" {
		return time.Time{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(c.cfg.EndpointURL, "/")+"/_sim/clock", nil)
	if err != nil {
		return time.Time{}, false
	}
	hc := http.DefaultClient
	if c.cfg.HTTPClient != nil {
		hc = c.cfg.HTTPClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return time.Time{}, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return time.Time{}, false
	}
	line, _ := bufio.NewReader(resp.Body).ReadString('\n')
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(line))
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// StartSimPriceDrop asks the emulator at the endpoint to start the price drop that waits to
// be asked (POST /_sim/price-drop: the demo's market); false against AWS or an emulator
// without one. Nothing is sent without an endpoint override.
func (c *Client) StartSimPriceDrop(ctx context.Context) bool {
	if c.cfg.EndpointURL == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(c.cfg.EndpointURL, "/")+"/_sim/price-drop", nil)
	if err != nil {
		return false
	}
	hc := http.DefaultClient
	if c.cfg.HTTPClient != nil {
		hc = c.cfg.HTTPClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
