// Package purchase is `gpublock purchase`: buying one Capacity Block or Training Plan
// offering after a typed confirmation, through the one spend path.
package purchase
