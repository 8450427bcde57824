// Package offerings is `gpublock offerings`: the Capacity Block (or Training Plan)
// offerings a query finds, set against on-demand, as a table, JSON or CSV, once or watched.
package offerings
