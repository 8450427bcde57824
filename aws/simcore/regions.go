package simcore

// Regions is a protocol's per-region state, made on first use: state is kept per region
// because AWS keeps it so, and a request acts in the region its signature names. Use it
// inside Core.Lock or Core.Update.
type Regions[T any] struct {
	m    map[string]*T
	fill func(*T)
}

// NewRegions makes an empty state. fill makes a region's state safe to use: a new one
// (from its zero value) and one loaded from the state file (a hand-edited file may hold
// nulls).
func NewRegions[T any](fill func(*T)) *Regions[T] {
	return &Regions[T]{m: map[string]*T{}, fill: fill}
}

// Get is the region's state, made on first use.
func (r *Regions[T]) Get(name string) *T {
	rs, ok := r.m[name]
	if !ok {
		rs = new(T)
		r.fill(rs)
		r.m[name] = rs
	}
	return rs
}

// Peek is the region's state when it has one.
func (r *Regions[T]) Peek(name string) (*T, bool) {
	rs, ok := r.m[name]
	return rs, ok
}

// Saved is the state to save, by region.
func (r *Regions[T]) Saved() map[string]*T { return r.m }

// Replace puts a saved state in place of this one (nil: a fresh one): regions that are
// not served, or hold null, are dropped, and the others filled. It returns the state
// replaced.
func (r *Regions[T]) Replace(saved map[string]*T) (old map[string]*T) {
	m := map[string]*T{}
	for name, rs := range saved {
		if rs == nil || !Served(name) {
			continue
		}
		r.fill(rs)
		m[name] = rs
	}
	old, r.m = r.m, m
	return old
}

// Find is the first of a state's records that match, nil when none does.
func Find[T any](records []*T, match func(*T) bool) *T {
	for _, r := range records {
		if match(r) {
			return r
		}
	}
	return nil
}
