package storetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The user RedisUser and ClusterUser make, and its password.
const (
	aclUser     = "fl"
	ACLPassword = "fl-test-password"
)

// RedisUser starts a redis-server of the test's own on a TCP port of
// 127.0.0.1 (fencelab asks a server reached over TCP whether it is a
// cluster's node; over a unix socket it does not), gives it a user whose
// ACL is rules ("~fencelab:*", "+@all", "-@dangerous", …), and returns
// the URL that logs in as that user: redis://fl:PASSWORD@127.0.0.1:PORT/0.
// The server stops when the test ends. Without the binary the test is
// skipped; CI installs it.
func RedisUser(t testing.TB, rules ...string) string {
	t.Helper()
	return RedisUserOn(t, nil, rules...)
}

// RedisUserOn is RedisUser on a server started with more arguments
// ("--rename-command", "HELLO", "").
func RedisUserOn(t testing.TB, serverArgs []string, rules ...string) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed; the real-server half of this test runs where it is (CI installs it)")
	}
	dir := t.TempDir()
	var port int
	for p := 32000 + os.Getpid()%2000*2; p < 40000; p++ {
		if free(p) {
			port = p
			break
		}
	}
	if port == 0 {
		t.Fatal("no free TCP port for a redis-server")
	}
	args := append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir}, serverArgs...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = nodeAttributes()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	if err := waitFor(10*time.Second, func() error { return setUser(addr, rules) }); err != nil {
		t.Fatalf("redis-server on %s: %v", addr, err)
	}
	return fmt.Sprintf("redis://%s:%s@%s/0", aclUser, ACLPassword, addr)
}

// ClusterUser gives every node of the package's Redis Cluster the user of
// RedisUser, with rules, and returns the cluster's URL that logs in as it.
func ClusterUser(t testing.TB, rules ...string) string {
	t.Helper()
	addrs := strings.Split(strings.TrimPrefix(RedisClusterURL(t), "redis://"), ",")
	for _, addr := range addrs {
		if err := setUser(addr, rules); err != nil {
			t.Fatalf("node %s: %v", addr, err)
		}
	}
	return fmt.Sprintf("redis://%s:%s@%s", aclUser, ACLPassword, strings.Join(addrs, ","))
}

// ClusterNodeUser is ClusterUser as one node's URL alone, which fencelab
// finds the cluster from.
func ClusterNodeUser(t testing.TB, rules ...string) string {
	t.Helper()
	url := ClusterUser(t, rules...)
	first, _, _ := strings.Cut(url, ",")
	return first + "/0"
}

// setUser makes (or remakes) the test user on one server, as its default
// user.
func setUser(addr string, rules []string) error {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	ctx := context.Background()
	args := []any{"ACL", "SETUSER", aclUser, "reset", "on", ">" + ACLPassword}
	for _, r := range rules {
		args = append(args, r)
	}
	if err := rdb.Do(ctx, args...).Err(); err != nil {
		return err
	}
	return rdb.Do(ctx, "ACL", "LOG", "RESET").Err()
}

// ACLDenials lists what the servers behind url (every node of a cluster's
// list) refused the test user since RedisUser or ClusterUser made it, as
// ACL LOG has it: "command cluster|slots ×3", "key other:x ×1".
func ACLDenials(t testing.TB, url string) []string {
	t.Helper()
	authority := strings.TrimPrefix(url, "redis://")
	authority = authority[strings.LastIndexByte(authority, '@')+1:]
	authority, _, _ = strings.Cut(authority, "/")
	var denials []string
	for _, addr := range strings.Split(authority, ",") {
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		entries, err := rdb.ACLLog(context.Background(), 0).Result()
		rdb.Close()
		if err != nil {
			t.Fatalf("ACL LOG of %s: %v", addr, err)
		}
		for _, e := range entries {
			if e.Username == aclUser {
				denials = append(denials, fmt.Sprintf("%s %s ×%d", e.Reason, e.Object, e.Count))
			}
		}
	}
	return denials
}
