package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// Records is a JSON list of T kept as one object of a store, changed only under its lock.
type Records[T any] struct {
	St   Store
	Name string
}

// RecordsOf is the records NAME.json of st.
func RecordsOf[T any](st Store, name string) Records[T] {
	return Records[T]{St: st, Name: name + ".json"}
}

// Where names the records for messages.
func (r Records[T]) Where() string { return r.St.Where() + "/" + r.Name }

// List reads the records, without a lock.
func (r Records[T]) List() ([]T, error) {
	b, err := r.St.Read(context.Background(), r.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Where(), err)
	}
	return r.decode(b)
}

func (r Records[T]) decode(b []byte) ([]T, error) {
	if b == nil {
		return nil, nil
	}
	var rs []T
	if err := json.Unmarshal(b, &rs); err != nil {
		// Never taken for "none": what the records hold (a launch's token, a decision
		// taken) would be done again.
		return nil, &DamagedError{Where: r.Where(), Err: err}
	}
	return rs, nil
}

// Update runs f on the records under their lock; save replaces them, as often as f calls
// it. The lock is held while f runs, so f may call AWS between saves: another gpublock,
// here or on another machine sharing the store, waits for it.
func (r Records[T]) Update(f func(rs []T, save func([]T) error) error) error {
	return r.St.Locked(context.Background(), r.Name, func(cur []byte, write func([]byte) error) error {
		rs, err := r.decode(cur)
		if err != nil {
			return err
		}
		return f(rs, func(rs []T) error {
			raw, err := json.MarshalIndent(rs, "", "  ")
			if err != nil {
				return err
			}
			return write(append(raw, '\n'))
		})
	})
}

// DamagedError is a record that cannot be read: said, never taken for none.
type DamagedError struct {
	Where string
	Err   error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s is damaged (%v): fix or remove it", e.Where, e.Err)
}
