// Package config reads and writes the configuration file (config.yaml, or the older
// config.json): strictly, with each error naming the file, the key and its line. It imports
// only model; rules of values that belong to other packages come from the caller
// (ValueCheck).
package config
