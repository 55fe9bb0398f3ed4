// Package pgledger is the database side of fencelab on PostgreSQL (pgx):
// the schema's migrations, the fenced mutation and its UNSAFE twin, and the
// reads behind a snapshot. Everything it touches is in schema fencelab.
package pgledger

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
)

var (
	_ engine.Database = (*Database)(nil)
	_ engine.Ledger   = (*Ledger)(nil)
)

// ConnectTimeout bounds each connection attempt, so a server that is down
// gets a clear answer within seconds.
const ConnectTimeout = 3 * time.Second

// Database opens per-actor connections to one PostgreSQL database.
type Database struct {
	config   *pgx.ConnConfig
	describe string
	dsn      string
}

// ParseConfig parses a DSN (URL or keyword/value) with fencelab's timeout.
func ParseConfig(dsn string) (*pgx.ConnConfig, error) {
	config, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	if config.ConnectTimeout == 0 || config.ConnectTimeout > ConnectTimeout {
		config.ConnectTimeout = ConnectTimeout
	}
	return config, nil
}

// Open migrates the database behind dsn and returns it. describe is the
// header's name for it ("postgres 15 (ephemeral)").
func Open(ctx context.Context, dsn, describe string) (*Database, error) {
	config, err := ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgledger: %w", err)
	}
	if err := Migrate(ctx, config); err != nil {
		return nil, err
	}
	if describe == "" {
		describe = "postgres " + config.Host
	}
	return &Database{config: config, describe: describe, dsn: dsn}, nil
}

// Connect opens a connection of the actor's own, named after it in
// pg_stat_activity.
func (d *Database) Connect(ctx context.Context, actor string) (engine.Ledger, error) {
	config := d.config.Copy()
	config.RuntimeParams["application_name"] = "fencelab-" + actor
	conn, err := pgx.ConnectConfig(ctx, config)
	if err != nil {
		return nil, fmt.Errorf("pgledger: connect %s: %w", actor, err)
	}
	return &Ledger{conn: conn}, nil
}

func (d *Database) Describe() string { return d.describe }
func (d *Database) DSN() string      { return d.dsn }
