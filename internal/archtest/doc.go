// Package archtest checks the pipeline's layering: each stage imports only
// the stages before it, and the runtime never imports the file readers.
package archtest
