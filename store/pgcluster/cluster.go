// Package pgcluster runs a private, throw-away PostgreSQL server from the
// binaries installed on the machine, so fencelab needs no set-up.
//
// A cluster lives in a slot directory:
//
//	slot-N/            fencelab's user's (root's when run as root), 0755
//	  slot.lock        flock: one fencelab process per slot
//	  server.log       the server's output
//	  database-created marker: database fencelab exists
//	  data/            the server account's: the data directory
//	  run/             the server account's: the unix socket
//
// The data directory is kept between runs so a second start skips initdb;
// initdb writes into data.new, which becomes data only once complete, so an
// interrupted first start leaves nothing half-made. Each slot is guarded by
// an advisory file lock: a second fencelab process takes the next free slot
// instead of touching a cluster in use. The server listens on a unix socket
// in the slot only (no TCP), trusts local connections, and runs with fsync
// off: it holds lab data, nothing worth a disk flush.
//
// When fencelab runs as root the server runs as an unprivileged account; fs.go
// says how root avoids following any path that account controls.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Database is the database fencelab creates in every cluster it starts.
const Database = "fencelab"

// superuser is the cluster's bootstrap role; the socket directory is private,
// so trust authentication admits only this machine's owner of the slot.
const superuser = "fencelab"

// slots bounds how many fencelab processes can hold their own cluster at once.
const slots = 8

// readyWithin bounds the wait for a starting server's first connection,
// initdbWithin the making of a new cluster (about a second when all is well).
const (
	readyWithin  = 30 * time.Second
	initdbWithin = time.Minute
)

// Options configure Start.
type Options struct {
	// Dir holds the slot directories. Empty means DefaultDir().
	Dir string
	// MaxConnections is the server's max_connections; below 50, 50 (a
	// stress run with many workers asks for more).
	MaxConnections int
}

// Cluster is a running ephemeral PostgreSQL server.
type Cluster struct {
	Binaries Binaries
	SlotDir  string
	Fresh    bool // true when this start ran initdb
	// Remade says why the kept cluster was made anew (it did not start);
	// empty when it was not.
	Remade string

	owner     *account
	socketDir string
	maxConns  int
	lock      *os.File
	cmd       *exec.Cmd
	exited    chan struct{}
	reaped    atomic.Bool // the postmaster was waited for: its pid may be reused
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
// has no complete cluster yet, starts the server and waits until it accepts
// connections. A kept cluster that no longer starts holds nothing but lab
// data, so it is made anew once. The caller must call Stop.
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
	if dir, err = prepareCacheDir(dir, owner); err != nil {
		return nil, err
	}

	c := &Cluster{Binaries: bins, owner: owner, maxConns: opts.MaxConnections}
	if err := c.takeSlot(dir); err != nil {
		return nil, err
	}
	err = c.start(ctx)
	var unusable *unusableError
	if errors.As(err, &unusable) && !c.Fresh && ctx.Err() == nil {
		c.stopServer()
		reason := unusable.reason
		if err = c.discardData(err); err == nil {
			c.Remade = reason
			err = c.start(ctx)
		}
	}
	if err != nil {
		c.Stop()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("pgcluster: start interrupted: %w", ctx.Err())
		}
		return nil, err
	}
	return c, nil
}

// prepareCacheDir creates dir and proves that nobody but root and this user
// can change it or what leads to it, and that the server account can reach
// a slot below it.
func prepareCacheDir(dir string, owner *account) (string, error) {
	real, err := trustedDir(dir)
	if err != nil {
		return "", err
	}
	if err := fitsSocketPath(real); err != nil {
		return "", err
	}
	if err := owner.canReach(real); err != nil {
		return "", err
	}
	return real, nil
}

// socketName is the name the server gives its socket for port 5432.
const socketName = ".s.PGSQL.5432"

// fitsSocketPath checks that the server's socket in any slot under dir has
// a path a socket address can hold; else the server would start and listen
// nowhere, and fencelab wait for it in vain.
func fitsSocketPath(dir string) error {
	socket := filepath.Join(dir, fmt.Sprintf("slot-%d", slots-1), "run", socketName)
	if len(socket) <= maxSocketPath {
		return nil
	}
	return fmt.Errorf("pgcluster: the server's socket in %s would have a path of %d bytes, more than the %d a unix socket allows; choose a shorter FENCELAB_CACHE_DIR (at most %d bytes): %w",
		dir, len(socket), maxSocketPath, maxSocketPath-(len(socket)-len(dir))-len("/pg00"), ErrSocketPathTooLong)
}

// takeSlot locks the first free slot under dir.
func (c *Cluster) takeSlot(dir string) error {
	for i := 0; i < slots; i++ {
		slot := filepath.Join(dir, fmt.Sprintf("slot-%d", i))
		// A slot of an older fencelab belongs to the server account: take it back.
		if err := ownDir(slot, 0o755, c.owner.uid); err != nil {
			return err
		}
		lock, err := lockSlot(filepath.Join(slot, "slot.lock"))
		if err != nil {
			return err
		}
		if lock == nil {
			continue // another fencelab holds it
		}
		c.SlotDir, c.lock = slot, lock
		c.socketDir = filepath.Join(slot, "run")
		return nil
	}
	return fmt.Errorf("pgcluster: all %d cluster slots in %s are in use by other fencelab processes", slots, dir)
}

// lockSlot takes a slot's lock file, or returns nil when another process
// holds it. A lock file that is not this user's plain file (a planted one
// in a slot of an older fencelab) is locked first, if it is a file at all,
// and replaced only while held, so a process holding it is never cut out.
func lockSlot(path string) (*os.File, error) {
	flock := func(f *os.File) bool { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil }
	if f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0); err == nil {
		st, err := statOf(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFREG {
			if !flock(f) {
				f.Close()
				return nil, nil
			}
			if st.Uid == uint32(os.Geteuid()) && st.Nlink == 1 {
				return f, nil
			}
			defer f.Close() // held until ours replaces it
		} else {
			f.Close()
		}
	}
	f, err := ownFile(path, false)
	if err != nil {
		return nil, err
	}
	if !flock(f) {
		f.Close()
		return nil, nil
	}
	return f, nil
}

func (c *Cluster) releaseSlot() {
	if c.lock != nil {
		syscall.Flock(int(c.lock.Fd()), syscall.LOCK_UN)
		c.lock.Close()
		c.lock = nil
	}
}

func (c *Cluster) dataDir() string    { return filepath.Join(c.SlotDir, "data") }
func (c *Cluster) newDataDir() string { return filepath.Join(c.SlotDir, "data.new") }
func (c *Cluster) logPath() string    { return filepath.Join(c.SlotDir, "server.log") }
func (c *Cluster) markerPath() string { return filepath.Join(c.SlotDir, "database-created") }

// start brings the slot's server up: directories, initdb when needed, the
// postmaster, and database fencelab.
func (c *Cluster) start(ctx context.Context) error {
	if err := c.prepare(ctx); err != nil {
		return err
	}
	if err := c.launch(ctx); err != nil {
		return err
	}
	if !c.Fresh && fileExists(c.markerPath()) {
		return nil
	}
	if err := c.CreateDatabase(ctx, Database, ""); err != nil {
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42P04" { // duplicate_database
			return err
		}
	}
	marker, err := ownFile(c.markerPath(), false)
	if err != nil {
		return err
	}
	return marker.Close()
}

// prepare stops a server orphaned by a fencelab that was killed, empties
// the socket directory, and runs initdb when the slot has no complete
// cluster.
func (c *Cluster) prepare(ctx context.Context) error {
	if err := stopOrphan(c.dataDir(), c.owner); err != nil {
		return err
	}
	// The slot is held and no server of it runs: a socket or lock file left
	// in run/ names nothing now (and its stale pid would stop the start).
	if err := os.RemoveAll(c.socketDir); err != nil {
		return fmt.Errorf("pgcluster: empty %s: %w", c.socketDir, err)
	}
	if err := serverDir(c.socketDir, c.owner); err != nil {
		return err
	}
	// What an interrupted initdb left.
	if err := os.RemoveAll(c.newDataDir()); err != nil {
		return fmt.Errorf("pgcluster: remove %s: %w", c.newDataDir(), err)
	}
	if c.hasCluster() {
		return nil
	}
	return c.initdb(ctx)
}

// hasCluster reports whether the slot holds a data directory initdb
// completed: a real directory of the server account with PG_VERSION.
func (c *Cluster) hasCluster() bool {
	if !c.owner.ownsDir(c.dataDir()) {
		return false
	}
	_, err := readServerFile(filepath.Join(c.dataDir(), "PG_VERSION"), c.owner, 16)
	return err == nil
}

// initdb makes a new cluster in data.new and renames it to data when
// initdb has finished.
func (c *Cluster) initdb(ctx context.Context) error {
	fresh := c.newDataDir()
	if err := serverDir(fresh, c.owner); err != nil {
		return err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, initdbWithin)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Binaries.path("initdb"),
		"-D", fresh, "-U", superuser, "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync", "--no-instructions")
	cmd.SysProcAttr = c.owner.sysProcAttr()
	cmd.Dir = c.SlotDir
	// Killing initdb ends its bootstrap backend too (its input closes), once
	// that can run: continue it, should it be frozen. Signals go through
	// the process handle, which refuses once initdb was reaped.
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
			return err
		}
		continueChildren(cmd.Process.Pid)
		return cmd.Process.Kill()
	}
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	if parent.Err() != nil {
		return parent.Err()
	}
	if ctx.Err() != nil {
		return fmt.Errorf("pgcluster: initdb did not finish within %s: %s", initdbWithin, ReasonLine(out))
	}
	if err != nil {
		return fmt.Errorf("pgcluster: initdb failed: %s", ReasonLine(out))
	}
	if err := os.RemoveAll(c.dataDir()); err != nil {
		return fmt.Errorf("pgcluster: remove %s: %w", c.dataDir(), err)
	}
	if err := os.Remove(c.markerPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if err := os.Rename(fresh, c.dataDir()); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	c.Fresh = true
	return nil
}

// discardData removes a kept cluster that does not start, unless a server
// still runs on it.
func (c *Cluster) discardData(why error) error {
	if pid, ok := postmasterPID(c.dataDir(), c.owner); ok && alive(pid) {
		return fmt.Errorf("%w; a server (pid %d) still runs on %s: stop it and start again", why, pid, c.dataDir())
	}
	if err := os.RemoveAll(c.dataDir()); err != nil {
		return fmt.Errorf("%w; removing it failed: %w", why, err)
	}
	return nil
}

// unusableError is a kept cluster that fails to start: the server exited
// or refused every connection.
type unusableError struct{ reason string }

func (e *unusableError) Error() string { return "pgcluster: " + e.reason }

// launch starts the postmaster and waits for its first successful connection.
func (c *Cluster) launch(ctx context.Context) error {
	logFile, err := ownFile(c.logPath(), true)
	if err != nil {
		return err
	}
	defer logFile.Close()

	c.cmd = exec.Command(c.Binaries.path("postgres"),
		"-D", c.dataDir(),
		"-k", c.socketDir,
		"-c", "listen_addresses=",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", fmt.Sprintf("max_connections=%d", max(50, c.maxConns)),
		"-c", "shared_buffers=32MB",
		"-c", "logging_collector=off",
		// What goes to server.log is what says why the server did not
		// start or stopped: not a statement's error, which a file's code
		// may fill with megabytes run after run.
		"-c", "log_min_messages=fatal",
		"-c", "log_min_error_statement=panic",
	)
	c.cmd.Stdout, c.cmd.Stderr = logFile, logFile
	c.cmd.Dir = c.SlotDir
	c.cmd.SysProcAttr = c.owner.sysProcAttr()
	if err := c.cmd.Start(); err != nil {
		c.cmd = nil
		return fmt.Errorf("pgcluster: start postgres: %w", err)
	}
	c.reaped.Store(false)
	c.exited = make(chan struct{})
	go func() {
		if awaitExit(c.cmd) {
			c.reaped.Store(true)
		}
		close(c.exited)
	}()
	return c.waitReady(ctx)
}

func (c *Cluster) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(readyWithin)
	for {
		connCtx, cancel := context.WithTimeout(ctx, time.Second)
		conn, err := c.connect(connCtx, "postgres")
		cancel()
		if err == nil {
			conn.Close(ctx)
			return nil
		}
		// The server answered and refused: waiting does not help, unless it
		// says it is still starting up.
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code != "57P03" {
			return &unusableError{"postgres refuses connections: " + pgErr.Severity + ": " + pgErr.Message}
		}
		select {
		case <-c.exited:
			return &unusableError{"postgres exited during start: " + c.logReason()}
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(3 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return &unusableError{fmt.Sprintf("postgres did not accept connections within %s: %s", readyWithin, c.logReason())}
		}
	}
}

// CreateDatabase creates a database, copied from template when it is not
// empty. A copy of a lab database takes well under a second; a server that
// takes ten is not answering.
func (c *Cluster) CreateDatabase(ctx context.Context, name, template string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := c.connect(ctx, "postgres")
	if err != nil {
		return fmt.Errorf("pgcluster: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	sql := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		sql += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	if _, err := conn.Exec(ctx, sql).ReadAll(); err != nil {
		return fmt.Errorf("pgcluster: create database %s: %w", name, err)
	}
	return nil
}

// connect opens a bare protocol connection to a database of the cluster.
func (c *Cluster) connect(ctx context.Context, database string) (*pgconn.PgConn, error) {
	config, err := pgconn.ParseConfig(c.DSN(database))
	if err != nil {
		return nil, err
	}
	config.DialFunc = c.Dial
	return pgconn.ConnectConfig(ctx, config)
}

// Dial connects to the cluster's socket (a pgconn.DialFunc) and proves that
// the process at the other end runs as the server account. The socket is in
// a directory that account owns; whatever it put there — a symlink to
// another socket, say — does not carry this process's connections
// elsewhere.
func (c *Cluster) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	return DialServedBy(c.owner.uid)(ctx, network, addr)
}

// ServerUID is the account the server runs as, for DialServedBy in another
// process of the same run (a stress worker).
func (c *Cluster) ServerUID() uint32 { return c.owner.uid }

// DialServedBy is Dial for a process that did not start the cluster: it
// connects and proves the server at the other end runs as uid.
func DialServedBy(serverUID uint32) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		uid, known, err := peerUID(conn)
		if err == nil && known && uid != serverUID {
			err = fmt.Errorf("pgcluster: the socket %s is served by uid %d, not by the server account: %w", addr, uid, ErrUnsafePath)
		}
		if err != nil {
			conn.Close()
			return nil, err
		}
		return conn, nil
	}
}

// DSN is the keyword/value connection string of a database in this cluster;
// psql accepts it as it is. Its values are quoted, so a cache directory
// with a space or a quote in its path names the socket whole.
func (c *Cluster) DSN(database string) string {
	return fmt.Sprintf("host=%s port=5432 user=%s dbname=%s sslmode=disable",
		quoteValue(c.socketDir), quoteValue(superuser), quoteValue(database))
}

// quoteValue quotes a keyword/value connection string's value as libpq
// reads it: in single quotes, with a backslash before each backslash and
// quote. A value that needs none is left bare, as psql users write it.
func quoteValue(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\f\v'\\") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// PID is the postmaster's process id (0 once stopped).
func (c *Cluster) PID() int {
	if c.cmd == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// Stop shuts the server down and frees the slot. It is safe to call more
// than once.
func (c *Cluster) Stop() error {
	if c.stopped {
		return nil
	}
	c.stopped = true
	defer c.releaseSlot()
	return c.stopServer()
}

// stopServer shuts the postmaster down (fast shutdown: SIGINT, no pg_ctl
// polling; see shutdownSteps). A frozen server is continued so it can act
// on the signal; one that does not stop is killed.
func (c *Cluster) stopServer() error {
	if c.cmd == nil || c.cmd.Process == nil {
		return nil
	}
	cmd := c.cmd
	defer func() {
		cmd.Wait() // reap only now: until then its pid is surely ours
		c.cmd = nil
	}()
	select {
	case <-c.exited:
		return nil
	default:
	}
	stopped := shutdown(
		func(sig syscall.Signal) { cmd.Process.Signal(sig) },
		c.continueServer,
		func(d time.Duration) bool {
			select {
			case <-c.exited:
				return true
			case <-time.After(d):
				return false
			}
		})
	if !stopped {
		return errors.New("pgcluster: postgres did not stop, even killed")
	}
	return nil
}

// continueServer sends SIGCONT to the postmaster and its backends (each of
// which runs in a session of its own), so a frozen server can act on a
// shutdown signal. The postmaster is this process's child and not yet
// reaped, so its pid is surely ours; a backend is signalled only while
// proven to be its child (continueChildren).
func (c *Cluster) continueServer() {
	if c.cmd == nil || c.reaped.Load() {
		return
	}
	c.cmd.Process.Signal(syscall.SIGCONT)
	continueChildren(c.cmd.Process.Pid) // its backends, each in a session of its own
}

// logReason is the line of the server log that says why it stopped.
func (c *Cluster) logReason() string {
	f, err := ownFile(c.logPath(), false)
	if err != nil {
		return "(no server log)"
	}
	defer f.Close()
	data := make([]byte, 64<<10)
	n, _ := f.ReadAt(data, 0)
	return ReasonLine(data[:n]) + " (server log: " + c.logPath() + ")"
}

// causeLine matches the lines of initdb's and the server's output that say
// why something failed, as opposed to what was done about it afterwards
// ("removing data directory", "database system is shut down").
var causeLine = regexp.MustCompile(`(?i)\b(fatal|panic|error)\b|no space left|could not|permission denied|out of memory`)

// ReasonLine picks the line of a program's output that says why it failed:
// the first line naming a cause, else the last line.
func ReasonLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, line := range lines {
		if causeLine.MatchString(line) {
			return strings.TrimSpace(line)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// postmasterPID reads the pid in dataDir's postmaster.pid, if dataDir is a
// real directory of the server account (not a symlink to someone else's)
// and the file a plain file of that account.
func postmasterPID(dataDir string, owner *account) (int, bool) {
	if !owner.ownsDir(dataDir) {
		return 0, false
	}
	data, err := readServerFile(filepath.Join(dataDir, "postmaster.pid"), owner, 64)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	return pid, err == nil && pid > 0
}

// removeStalePIDFile removes a postmaster.pid that names no server of this
// slot. The data directory is a real one of the server account in a slot
// this process owns, and unlink does not follow a symlink.
func removeStalePIDFile(dataDir string) error {
	if err := os.Remove(filepath.Join(dataDir, "postmaster.pid")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pgcluster: remove stale postmaster.pid: %w", err)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// account is the user the server runs as: the current one, or, when fencelab
// runs as root (PostgreSQL refuses root), an unprivileged account.
type account struct {
	name     string
	uid, gid uint32
	switched bool
}

func serverAccount() (*account, error) {
	if os.Geteuid() != 0 {
		return &account{name: "you", uid: uint32(os.Geteuid()), gid: uint32(os.Getegid())}, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &account{name: name, uid: uint32(uid), gid: uint32(gid), switched: true}, nil
	}
	return nil, errors.New("pgcluster: running as root and found neither a postgres nor a nobody account to run the server as")
}

// command is a program run as the account, in its own process group.
func (a *account) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = a.sysProcAttr()
	cmd.Dir = "/" // the caller's working directory may be closed to the account
	return cmd
}

// chown hands an open file or directory to the account.
func (a *account) chown(f *os.File) error {
	if !a.switched {
		return nil
	}
	return f.Chown(int(a.uid), int(a.gid))
}

// ownsDir reports whether path is a real directory (no symlink) of the
// account.
func (a *account) ownsDir(path string) bool {
	info, err := os.Lstat(path)
	if err != nil || !info.IsDir() {
		return false
	}
	return info.Sys().(*syscall.Stat_t).Uid == a.uid
}

// cannotEnter is ErrCannotEnter with the directory and what to do.
type cannotEnter struct {
	account, dir string
	perm         os.FileMode
}

func (e *cannotEnter) Error() string {
	return fmt.Sprintf("pgcluster: the server runs as %s, which cannot enter %s (mode %04o); run chmod o+x on it or choose another FENCELAB_CACHE_DIR",
		e.account, e.dir, e.perm)
}

func (e *cannotEnter) Is(target error) bool { return target == ErrCannotEnter }

// canReach checks that the account may enter dir and every directory above
// it, so the server can reach its slot.
func (a *account) canReach(dir string) error {
	if !a.switched {
		return nil
	}
	for p := dir; ; p = filepath.Dir(p) {
		info, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
		st := info.Sys().(*syscall.Stat_t)
		perm := info.Mode().Perm()
		if !(perm&0o001 != 0 || (st.Gid == a.gid && perm&0o010 != 0) || (st.Uid == a.uid && perm&0o100 != 0)) {
			return &cannotEnter{account: a.name, dir: p, perm: perm}
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// BareStart times the server's own start on this cluster's data
// directory, for bench's floor: the server is stopped, started again to
// the first connection it accepts and one of the caller's (ready), and
// stopped (total); then it is started once more for the caller, who
// stops it as usual. What Start does around the server — finding the
// binaries, the slot, initdb — is left out.
func (c *Cluster) BareStart(ctx context.Context) (ready, total time.Duration, err error) {
	if err := c.stopServer(); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := c.launch(ctx); err != nil {
		return 0, 0, err
	}
	conn, err := c.connect(ctx, Database)
	if err != nil {
		return 0, 0, err
	}
	ready = time.Since(start)
	conn.Close(ctx)
	if err := c.stopServer(); err != nil {
		return 0, 0, err
	}
	total = time.Since(start)
	return ready, total, c.launch(ctx)
}
