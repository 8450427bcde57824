package ec2sim

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/aws/simcore"
)

// page cuts n results according to MaxResults and NextToken. A token carries the offset
// and a digest of the other parameters, so a token from another query is rejected.
// Without MaxResults everything comes in one page.
func (s *Server) page(c *call, n, minMax int) (from, to int, next string, e *apiError) {
	size, set, e := c.form.optInt("MaxResults", minMax, 1000)
	if e != nil {
		return 0, 0, "", e
	}
	sig := c.signature()
	if tok := c.form.str("NextToken"); tok != "" {
		from, e = parseToken(tok, sig)
		if e != nil {
			return 0, 0, "", e
		}
	}
	if from > n {
		from = n
	}
	to = n
	if set && from+size < n {
		to = from + size
		next = base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d.%s", to, sig)))
	}
	return from, to, next, nil
}

func parseToken(tok, sig string) (int, *apiError) {
	bad := errf(http.StatusBadRequest, "InvalidPaginationToken", "The pagination token %q is invalid or belongs to another query.", tok)
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return 0, bad
	}
	off, got, ok := strings.Cut(string(b), ".")
	n, err := strconv.Atoi(off)
	if !ok || err != nil || n < 0 || got != sig {
		return 0, bad
	}
	return n, nil
}

// signature digests the request's parameters other than paging and DryRun.
func (c *call) signature() string {
	keys := make([]string, 0, len(c.form.v))
	for k := range c.form.v {
		switch k {
		case "NextToken", "MaxResults", "DryRun":
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]any, 0, 2*len(keys)+1)
	parts = append(parts, c.region)
	for _, k := range keys {
		parts = append(parts, k, c.form.v.Get(k))
	}
	return fmt.Sprintf("%08x", uint32(simcore.Hasher{}.Sum(parts...)))
}

// pageOf cuts the page of items asked for, and the token for the next. DryRun is answered
// only after the paging parameters passed, as EC2 does.
func pageOf[T any](s *Server, c *call, items []T, minMax int) ([]T, string, *apiError) {
	lo, hi, next, e := s.page(c, len(items), minMax)
	if e != nil {
		return nil, "", e
	}
	if c.dryRun {
		return nil, "", errDryRun
	}
	return items[lo:hi], next, nil
}

// pageSet answers a Describe action with one page of items inside the element set.
func pageSet[T any](s *Server, c *call, items []T, minMax int, set string, write func(*xmlBody, T)) (*xmlBody, *apiError) {
	page, next, e := pageOf(s, c, items, minMax)
	if e != nil {
		return nil, e
	}
	var x xmlBody
	x.open(set)
	for _, it := range page {
		write(&x, it)
	}
	x.close(set)
	x.opt("nextToken", next)
	return &x, nil
}
