package model

import "time"

// The decisions of a watch, between its rounds, that gpublock offerings --watch, gpublock
// blocks --watch and the terminal UI's watched search share; each front end prints its own.

// WatchedAt is a watched search as of now: a start that has passed moves to now (the same
// question, without its past), and the window is checked again at now. The error says the
// window can no longer hold a block: the watch is over.
func (q Query) WatchedAt(now time.Time) (Query, error) {
	if q.Start.Before(now) {
		q.Start = now
	}
	return q, q.Validate(now)
}

// SeenOfferings is what a watch of offerings has answered already, by id with the
// offering's start, so that only offerings never answered before are news: one that sells
// out and comes back under its id is not news twice.
type SeenOfferings map[string]time.Time

// Seen reports whether the offering with this id was answered before.
func (s SeenOfferings) Seen(id string) bool {
	_, ok := s[id]
	return ok
}

// Mark takes the offering as seen and reports whether it is news.
func (s SeenOfferings) Mark(o Offering) bool {
	if s.Seen(o.ID) {
		return false
	}
	s[o.ID] = o.Start
	return true
}

// Fresh marks each offering and returns those that are news, in their order.
func (s SeenOfferings) Fresh(offs []Offering) []Offering {
	var out []Offering
	for _, o := range offs {
		if s.Mark(o) {
			out = append(out, o)
		}
	}
	return out
}

// Forget drops the offerings that have started by now: one that has started cannot be
// offered again, so a watch of days stays small.
func (s SeenOfferings) Forget(now time.Time) {
	for id, start := range s {
		if start.Before(now) {
			delete(s, id)
		}
	}
}
