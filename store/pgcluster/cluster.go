// Package pgcluster runs a private, throw-away PostgreSQL server from the
// binaries installed on the machine, so fencelab needs no set-up.
//
// A cluster lives in a slot directory (data, socket, log). The data directory
// is kept between runs so a second start skips initdb. Each slot is guarded by
// an advisory file lock: a second fencelab process takes the next free slot
// instead of touching a cluster in use. The server listens on a unix socket in
// the slot only (no TCP), trusts local connections, and runs with fsync off:
// it holds lab data, nothing worth a disk flush.
package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Database is the database fencelab creates in every cluster it starts.
const Database = "fencelab"

// superuser is the cluster's bootstrap role; the socket directory is private,
// so trust authentication admits only this machine's owner of the slot.
const superuser = "fencelab"

// slots bounds how many fencelab processes can hold their own cluster at once.
const slots = 8

// Options configure Start.
type Options struct {
	// Dir holds the slot directories. Empty means DefaultDir().
	Dir string
}

// Cluster is a running ephemeral PostgreSQL server.
type Cluster struct {
	Binaries Binaries
	SlotDir  string
	Fresh    bool // true when this start ran initdb

	socketDir string
	lock      *os.File
	cmd       *exec.Cmd
	exited    chan struct{}
	stopped   bool
}

// DefaultDir is where clusters are kept between runs: $FENCELAB_CACHE_DIR if
// set, else the user cache dir, or, for root (whose home the unprivileged
// server user cannot enter), /var/cache/fencelab.
func DefaultDir(major int) (string, error) {
	if dir := os.Getenv("FENCELAB_CACHE_DIR"); dir != "" {
		return filepath.Join(dir, fmt.Sprintf("pg%d", major)), nil
	}
	if os.Geteuid() == 0 {
		return filepath.Join("/var/cache/fencelab", fmt.Sprintf("pg%d", major)), nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("pgcluster: no cache directory: %w", err)
	}
	return filepath.Join(base, "fencelab", fmt.Sprintf("pg%d", major)), nil
}

// Start finds the server binaries, takes a free slot, runs initdb if the slot
// has no cluster yet, starts the server and waits until it accepts
// connections. The caller must call Stop.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	bins, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	dir := opts.Dir
	if dir == "" {
		if dir, err = DefaultDir(bins.Major); err != nil {
			return nil, err
		}
	}
	owner, err := serverAccount()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pgcluster: create %s: %w", dir, err)
	}

	c := &Cluster{Binaries: bins}
	if err := c.takeSlot(dir); err != nil {
		return nil, err
	}
	if err := c.prepare(ctx, owner); err != nil {
		c.releaseSlot()
		return nil, err
	}
	if err := c.launch(ctx, owner); err != nil {
		c.releaseSlot()
		return nil, err
	}
	if c.Fresh || !fileExists(filepath.Join(c.SlotDir, "database-created")) {
		if err := c.createDatabase(ctx); err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

// takeSlot locks the first free slot under dir.
func (c *Cluster) takeSlot(dir string) error {
	for i := 0; i < slots; i++ {
		slot := filepath.Join(dir, fmt.Sprintf("slot-%d", i))
		if err := os.MkdirAll(slot, 0o755); err != nil {
			return fmt.Errorf("pgcluster: create %s: %w", slot, err)
		}
		f, err := os.OpenFile(filepath.Join(slot, "slot.lock"), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return fmt.Errorf("pgcluster: open lock in %s: %w", slot, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			continue
		}
		c.SlotDir, c.lock = slot, f
		c.socketDir = filepath.Join(slot, "run")
		return nil
	}
	return fmt.Errorf("pgcluster: all %d cluster slots in %s are in use by other fencelab processes", slots, dir)
}

func (c *Cluster) releaseSlot() {
	if c.lock != nil {
		syscall.Flock(int(c.lock.Fd()), syscall.LOCK_UN)
		c.lock.Close()
		c.lock = nil
	}
}

func (c *Cluster) dataDir() string { return filepath.Join(c.SlotDir, "data") }
func (c *Cluster) logPath() string { return filepath.Join(c.SlotDir, "server.log") }

// prepare makes the slot's directories belong to the server account, stops a
// server orphaned by a fencelab that was killed, and runs initdb when needed.
func (c *Cluster) prepare(ctx context.Context, owner *account) error {
	if err := os.MkdirAll(c.socketDir, 0o700); err != nil {
		return fmt.Errorf("pgcluster: create %s: %w", c.socketDir, err)
	}
	if err := owner.chown(c.socketDir); err != nil {
		return err
	}
	if err := owner.chown(c.SlotDir); err != nil {
		return err
	}
	stopOrphan(c.dataDir())

	if fileExists(filepath.Join(c.dataDir(), "PG_VERSION")) {
		return nil
	}
	// A data directory without PG_VERSION is an initdb that did not finish.
	os.RemoveAll(c.dataDir())
	os.Remove(filepath.Join(c.SlotDir, "database-created"))
	cmd := exec.CommandContext(ctx, c.Binaries.path("initdb"),
		"-D", c.dataDir(), "-U", superuser, "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync", "--no-instructions")
	cmd.SysProcAttr = owner.sysProcAttr()
	cmd.Dir = c.SlotDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgcluster: initdb failed: %w: %s", err, lastLine(out))
	}
	c.Fresh = true
	return nil
}

// launch starts the postmaster and waits for its first successful connection.
func (c *Cluster) launch(ctx context.Context, owner *account) error {
	logFile, err := os.OpenFile(c.logPath(), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("pgcluster: open server log: %w", err)
	}
	defer logFile.Close()

	c.cmd = exec.Command(c.Binaries.path("postgres"),
		"-D", c.dataDir(),
		"-k", c.socketDir,
		"-c", "listen_addresses=",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=50",
		"-c", "shared_buffers=32MB",
		"-c", "logging_collector=off",
		"-c", "log_min_messages=warning",
	)
	c.cmd.Stdout, c.cmd.Stderr = logFile, logFile
	c.cmd.Dir = c.SlotDir
	c.cmd.SysProcAttr = owner.sysProcAttr()
	if err := c.cmd.Start(); err != nil {
		return fmt.Errorf("pgcluster: start postgres: %w", err)
	}
	c.exited = make(chan struct{})
	go func() { c.cmd.Wait(); close(c.exited) }()

	if err := c.waitReady(ctx); err != nil {
		c.Stop()
		return err
	}
	return nil
}

func (c *Cluster) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		connCtx, cancel := context.WithTimeout(ctx, time.Second)
		conn, err := pgconn.Connect(connCtx, c.DSN("postgres"))
		cancel()
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		select {
		case <-c.exited:
			return fmt.Errorf("pgcluster: postgres exited during start: %s", c.logTail())
		case <-ctx.Done():
			return fmt.Errorf("pgcluster: waiting for postgres: %w", ctx.Err())
		case <-time.After(3 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgcluster: postgres did not accept connections within 30s: %s", c.logTail())
		}
	}
}

func (c *Cluster) createDatabase(ctx context.Context) error {
	if err := c.CreateDatabase(ctx, Database, ""); err != nil && !strings.Contains(err.Error(), "already exists") {
		return err
	}
	return os.WriteFile(filepath.Join(c.SlotDir, "database-created"), nil, 0o644)
}

// CreateDatabase creates a database, copied from template when it is not empty.
func (c *Cluster) CreateDatabase(ctx context.Context, name, template string) error {
	conn, err := pgconn.Connect(ctx, c.DSN("postgres"))
	if err != nil {
		return fmt.Errorf("pgcluster: connect: %w", err)
	}
	defer conn.Close(ctx)
	sql := "CREATE DATABASE " + quoteIdent(name)
	if template != "" {
		sql += " TEMPLATE " + quoteIdent(template)
	}
	if _, err := conn.Exec(ctx, sql).ReadAll(); err != nil {
		return fmt.Errorf("pgcluster: create database %s: %w", name, err)
	}
	return nil
}

// DSN is the keyword/value connection string of a database in this cluster;
// psql accepts it as it is.
func (c *Cluster) DSN(database string) string {
	return fmt.Sprintf("host=%s port=5432 user=%s dbname=%s sslmode=disable", c.socketDir, superuser, database)
}

// PID is the postmaster's process id.
func (c *Cluster) PID() int { return c.cmd.Process.Pid }

// Stop shuts the server down (fast shutdown: SIGINT to the postmaster, no
// pg_ctl polling) and frees the slot. It is safe to call more than once.
func (c *Cluster) Stop() error {
	if c.stopped {
		return nil
	}
	c.stopped = true
	defer c.releaseSlot()
	if c.cmd == nil || c.cmd.Process == nil {
		return nil
	}
	c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exited:
		return nil
	case <-time.After(10 * time.Second):
	}
	c.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-c.exited:
		return nil
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		return errors.New("pgcluster: postgres did not stop; killed")
	}
}

func (c *Cluster) logTail() string {
	data, err := os.ReadFile(c.logPath())
	if err != nil {
		return "(no server log)"
	}
	return lastLine(data)
}

func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// stopOrphan stops a postmaster that still runs on dataDir although no
// fencelab holds its slot (its fencelab was killed with SIGKILL).
func stopOrphan(dataDir string) {
	data, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	if err != nil || pid <= 0 || !isPostgres(pid) {
		return
	}
	syscall.Kill(pid, syscall.SIGINT)
	for i := 0; i < 500 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

func isPostgres(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		// No /proc (macOS): trust the pid file, postgres checks it too.
		return true
	}
	return bytes.HasPrefix(comm, []byte("postgres"))
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// account is the user the server runs as: the current one, or, when fencelab
// runs as root (PostgreSQL refuses root), an unprivileged account.
type account struct {
	uid, gid uint32
	switched bool
}

func serverAccount() (*account, error) {
	if os.Geteuid() != 0 {
		return &account{uid: uint32(os.Geteuid()), gid: uint32(os.Getegid())}, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &account{uid: uint32(uid), gid: uint32(gid), switched: true}, nil
	}
	return nil, errors.New("pgcluster: running as root and found neither a postgres nor a nobody account to run the server as")
}

func (a *account) chown(path string) error {
	if !a.switched {
		return nil
	}
	if err := os.Chown(path, int(a.uid), int(a.gid)); err != nil {
		return fmt.Errorf("pgcluster: hand %s to the server account: %w", path, err)
	}
	return nil
}
