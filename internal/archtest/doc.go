// Package archtest checks the pipeline's layering: every package of the
// module is placed in a stage, and each stage imports only the stages it may
// (an allow-list, so a package added later fails until it is placed); the
// runtime never imports the file readers; and the applications hold no
// choosing rule of their own (they ask bind).
package archtest
