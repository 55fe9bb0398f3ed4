// Package storetest gives tests real backends: one ephemeral PostgreSQL
// cluster per test package (started in TestMain), a fresh database per test
// cloned from a migrated template, the embedded Redis, and a real
// redis-server wherever the binary exists.
package storetest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/redisstore"
)

const template = "fencelab_template"

var (
	cluster   *pgcluster.Cluster
	databases atomic.Int64
)

// Main starts the package's cluster, migrates the template database, runs
// the tests, stops the cluster and checks the postmaster is gone.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run is Main returning the exit code, for a TestMain with more to clean up.
func Run(m *testing.M) int {
	// A 0755 directory: the server account (when tests run as root) must be
	// able to reach its slot below it.
	dir, err := os.MkdirTemp("", "fencelab-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cluster, err = pgcluster.Start(ctx, pgcluster.Options{Dir: dir, MaxConnections: 200}) // a package's tests run in parallel, each with its labs
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest: start PostgreSQL:", err)
		return 1
	}
	pid := cluster.PID()
	defer stopRedisCluster()
	code := func() int {
		defer cluster.Stop()
		if err := cluster.CreateDatabase(ctx, template, ""); err != nil {
			fmt.Fprintln(os.Stderr, "storetest:", err)
			return 1
		}
		config, err := pgledger.ParseConfig(cluster.DSN(template))
		if err != nil {
			fmt.Fprintln(os.Stderr, "storetest:", err)
			return 1
		}
		if err := pgledger.Migrate(ctx, config); err != nil {
			fmt.Fprintln(os.Stderr, "storetest: migrate template:", err)
			return 1
		}
		return m.Run()
	}()
	if code == 0 && processAlive(pid) {
		fmt.Fprintf(os.Stderr, "storetest: postmaster %d still runs after Stop\n", pid)
		return 1
	}
	return code
}

func processAlive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

// NewDatabaseDSN creates an empty database of the test's own (no schema).
func NewDatabaseDSN(t testing.TB, fromTemplate bool) string {
	t.Helper()
	name := fmt.Sprintf("t%d", databases.Add(1))
	from := ""
	if fromTemplate {
		from = template
	}
	if err := cluster.CreateDatabase(context.Background(), name, from); err != nil {
		t.Fatal(err)
	}
	return cluster.DSN(name)
}

// Database is a migrated database of the test's own.
func Database(t testing.TB) *pgledger.Database {
	t.Helper()
	db, err := pgledger.Open(context.Background(), NewDatabaseDSN(t, true), pgledger.Options{Describe: "postgres (test)", Dial: cluster.Dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Ledger is a connection to a migrated database of the test's own.
func Ledger(t testing.TB) engine.Ledger {
	t.Helper()
	l, err := Database(t).Connect(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(context.Background()) })
	return l
}

// Embedded is a fresh miniredis, closed when the test ends.
func Embedded(t testing.TB) *redisstore.Coordination {
	t.Helper()
	c, err := redisstore.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// RealRedis starts a redis-server of the test's own on a unix socket,
// without persistence, and stops it when the test ends. Without the binary
// the test is skipped; CI installs it, so there it runs.
func RealRedis(t testing.TB) *redisstore.Coordination {
	t.Helper()
	c, _ := startRedisServer(t)
	return c
}

// RealRedisURL is RealRedis as a unix:// URL, for --redis.
func RealRedisURL(t testing.TB) string {
	t.Helper()
	probe, socket := startRedisServer(t)
	probe.Close() // the server is empty for the test
	return "unix://" + socket
}

// RedisServerToStop is RealRedisURL with a function that stops the server
// at once, for a test of a server that goes away mid-run.
func RedisServerToStop(t testing.TB) (url string, stop func()) {
	t.Helper()
	probe, socket := startRedisServer(t)
	probe.Close()
	server, _ := redisServers.Load(socket)
	return "unix://" + socket, func() { server.(*exec.Cmd).Process.Kill() }
}

// redisServers are the tests' redis-servers by socket.
var redisServers sync.Map

func startRedisServer(t testing.TB) (*redisstore.Coordination, string) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed; the real-server half of this test runs where it is (CI installs it)")
	}
	dir, err := os.MkdirTemp("", "fencelab-redis-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700",
		"--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	redisServers.Store(socket, cmd)
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := redisstore.ConnectOptions(context.Background(),
			&redis.Options{Network: "unix", Addr: socket}, "redis-server (test)")
		if err == nil {
			t.Cleanup(func() { c.Close() })
			return c, socket
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not answer: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Redises runs fn against the embedded Redis and, where the binary exists,
// a real redis-server, as subtests.
func Redises(t *testing.T, fn func(t *testing.T, c *redisstore.Coordination)) {
	t.Run("miniredis", func(t *testing.T) { fn(t, Embedded(t)) })
	t.Run("redis-server", func(t *testing.T) { fn(t, RealRedis(t)) })
}

// ServerKeys lists every key matching pattern on the server behind url,
// whoever made it: what a command left behind.
func ServerKeys(t testing.TB, url, pattern string) []string {
	t.Helper()
	options, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(options)
	defer rdb.Close()
	keys, err := rdb.Keys(context.Background(), pattern).Result()
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// Dial connects to the package's PostgreSQL cluster, as pgledger.Options.Dial.
func Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	return cluster.Dial(ctx, network, addr)
}

// onServer is a client of c's server of its own, as redis-cli is: what it
// does, the Coordination does not see coming.
func onServer(t testing.TB, c *redisstore.Coordination) *redis.Client {
	t.Helper()
	options, err := redis.ParseURL(c.Endpoint().URL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(options)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// ServerTTL is a key's TTL as the server has it (PTTL).
func ServerTTL(t testing.TB, c *redisstore.Coordination, key string) time.Duration {
	t.Helper()
	ttl, err := onServer(t, c).PTTL(context.Background(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	return ttl
}

// DeleteOnServer deletes a key behind c's back.
func DeleteOnServer(t testing.TB, c *redisstore.Coordination, key string) {
	t.Helper()
	if err := onServer(t, c).Del(context.Background(), key).Err(); err != nil {
		t.Fatal(err)
	}
}

// NewDatabaseOwnedBy creates a database of the test's own, owned by a new
// role with attributes (say "CREATEROLE"), and returns the DSN that logs
// in as that role: a user's --pg whose user is not a superuser.
func NewDatabaseOwnedBy(t testing.TB, attributes string) (dsn, user string) {
	t.Helper()
	n := databases.Add(1)
	name, user := fmt.Sprintf("t%d", n), fmt.Sprintf("owner%d", n)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, cluster.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, stmt := range []string{
		"CREATE ROLE " + user + " LOGIN " + attributes,
		"CREATE DATABASE " + name + " OWNER " + user,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	return cluster.DSN(name) + " user=" + user, user // the last user= is the one taken
}

// SuperuserDSN is the DSN of a database as the cluster's superuser, for a
// test that looks at what a run left where fencelab's user may not look.
func SuperuserDSN(database string) string { return cluster.DSN(database) }
