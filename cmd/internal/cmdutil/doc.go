// Package cmdutil is what the commands share: the factory, the streams, the AWS flags
// that open a backend (AWS, an endpoint, the built-in simulator), the sources a query asks,
// the configuration file read with every rule of its values, and the exit codes.
package cmdutil
