// Package configcmd is `gpublock config`: where the configuration file is, what it says
// (secrets redacted), and writing a first one (config init).
package configcmd
