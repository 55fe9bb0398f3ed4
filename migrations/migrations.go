// Package migrations holds fencelab's schema as numbered SQL files, embedded
// into the binary and applied in order by goose.
package migrations

import "embed"

// FS is the migration files, for goose.
//
//go:embed *.sql
var FS embed.FS
