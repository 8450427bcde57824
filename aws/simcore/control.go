package simcore

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// serveControl is the emulator's own API beside EC2's: GET /_sim/clock gives the time,
// POST /_sim/clock with set=RFC3339 or advance=DURATION moves it; GET /_sim/limits gives the
// request buckets; POST /_sim/price-drop starts a price drop that waits to be asked. Faults
// never apply here.
func (c *Core) serveControl(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Path == "/_sim/limits" {
		c.serveLimits(w, r)
		return
	}
	if r.URL.Path == "/_sim/price-drop" {
		c.servePriceDrop(w, r)
		return
	}
	if r.URL.Path != "/_sim/clock" {
		http.Error(w, "unknown control endpoint "+r.URL.Path+"; use GET /_sim/clock, POST /_sim/clock with set=RFC3339 or advance=DURATION, GET /_sim/limits, or POST /_sim/price-drop", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodGet:
		// To the nanosecond: what the emulator dated earlier in this second (a reservation's
		// createDate, to the millisecond) is before it.
		io.WriteString(w, c.Now().Format(time.RFC3339Nano)+"\n")
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form: "+err.Error(), http.StatusBadRequest)
			return
		}
		set, adv := r.PostForm.Get("set"), r.PostForm.Get("advance")
		switch {
		case set != "" && adv != "":
			http.Error(w, "give either set=RFC3339 or advance=DURATION, not both", http.StatusBadRequest)
			return
		case set != "":
			t, err := time.Parse(time.RFC3339, set)
			if err != nil {
				http.Error(w, fmt.Sprintf("set=%q: want an RFC 3339 time such as 2026-12-03T11:30:00Z", set), http.StatusBadRequest)
				return
			}
			c.SetTime(t)
		case adv != "":
			d, err := time.ParseDuration(adv)
			if err != nil {
				http.Error(w, fmt.Sprintf("advance=%q: want a Go duration such as 26h or 90m", adv), http.StatusBadRequest)
				return
			}
			c.Advance(d)
		default:
			http.Error(w, "POST /_sim/clock needs set=RFC3339 or advance=DURATION", http.StatusBadRequest)
			return
		}
		io.WriteString(w, c.Now().Format(time.RFC3339)+"\n")
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "use GET or POST", http.StatusMethodNotAllowed)
	}
}
