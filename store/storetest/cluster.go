package storetest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// A local Redis Cluster of three masters (no replicas), started once per
// test package by the first test that asks for it and stopped when the
// package's tests end (Run).
var redisCluster struct {
	once  sync.Once
	url   string
	err   error
	nodes []*exec.Cmd
	dir   string
}

// RedisClusterURL is the URL of the package's local three-master Redis
// Cluster: redis://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3. Without
// redis-server and redis-cli the test is skipped; CI installs them.
func RedisClusterURL(t testing.TB) string {
	t.Helper()
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s not installed; the Redis Cluster tests run where it is (CI installs it)", bin)
		}
	}
	redisCluster.once.Do(func() { redisCluster.url, redisCluster.err = startRedisCluster() })
	if redisCluster.err != nil {
		t.Fatalf("start a Redis Cluster: %v", redisCluster.err)
	}
	return redisCluster.url
}

// ClusterNodeURL is the URL of one node of the package's cluster alone,
// as a user might give it.
func ClusterNodeURL(t testing.TB) string {
	t.Helper()
	url := RedisClusterURL(t)
	first, _, _ := strings.Cut(strings.TrimPrefix(url, "redis://"), ",")
	return "redis://" + first + "/0"
}

func startRedisCluster() (string, error) {
	dir, err := os.MkdirTemp("", "fencelab-redis-cluster-")
	if err != nil {
		return "", err
	}
	redisCluster.dir = dir
	ports, err := clusterPorts(3)
	if err != nil {
		return "", err
	}
	var addrs []string
	for _, port := range ports {
		nodeDir := filepath.Join(dir, fmt.Sprint(port))
		if err := os.Mkdir(nodeDir, 0o700); err != nil {
			return "", err
		}
		cmd := exec.Command("redis-server", "--port", fmt.Sprint(port), "--bind", "127.0.0.1",
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000",
			"--save", "", "--appendonly", "no", "--dir", nodeDir)
		cmd.SysProcAttr = nodeAttributes()
		if err := cmd.Start(); err != nil {
			return "", err
		}
		redisCluster.nodes = append(redisCluster.nodes, cmd)
		addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", port))
	}
	for _, addr := range addrs {
		if err := waitFor(10*time.Second, func() error {
			rdb := redis.NewClient(&redis.Options{Addr: addr})
			defer rdb.Close()
			return rdb.Ping(context.Background()).Err()
		}); err != nil {
			return "", fmt.Errorf("node %s: %w", addr, err)
		}
	}
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command("redis-cli", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("redis-cli --cluster create: %v: %s", err, out)
	}
	for _, addr := range addrs {
		if err := waitFor(20*time.Second, func() error {
			rdb := redis.NewClient(&redis.Options{Addr: addr})
			defer rdb.Close()
			info, err := rdb.ClusterInfo(context.Background()).Result()
			if err != nil {
				return err
			}
			if !strings.Contains(info, "cluster_state:ok") {
				return fmt.Errorf("not ready: %s", strings.SplitN(info, "\n", 2)[0])
			}
			return nil
		}); err != nil {
			return "", fmt.Errorf("node %s: %w", addr, err)
		}
	}
	return "redis://" + strings.Join(addrs, ","), nil
}

// MainRedis is Main for a package that needs no PostgreSQL: it runs the
// tests and stops the Redis Cluster one of them may have started.
func MainRedis(m *testing.M) {
	code := m.Run()
	stopRedisCluster()
	os.Exit(code)
}

// stopRedisCluster stops the package's cluster, if one was started.
func stopRedisCluster() {
	for _, cmd := range redisCluster.nodes {
		cmd.Process.Kill()
		cmd.Wait()
	}
	if redisCluster.dir != "" {
		os.RemoveAll(redisCluster.dir)
	}
}

// clusterPorts finds n TCP ports that are free with their cluster bus
// ports (port + 10000).
func clusterPorts(n int) ([]int, error) {
	var ports []int
	for port := 21000 + os.Getpid()%2000*2; len(ports) < n && port < 31000; port++ {
		if free(port) && free(port+10000) {
			ports = append(ports, port)
		}
	}
	if len(ports) < n {
		return nil, fmt.Errorf("no %d free port pairs", n)
	}
	return ports, nil
}

func free(port int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

func waitFor(d time.Duration, try func() error) error {
	deadline := time.Now().Add(d)
	for {
		err := try()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ClusterKeys lists the keys matching pattern on every master of the
// package's cluster, whoever made them.
func ClusterKeys(t testing.TB, pattern string) []string {
	t.Helper()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(strings.TrimPrefix(RedisClusterURL(t), "redis://"), ",")})
	defer rdb.Close()
	var keys []string
	var mu sync.Mutex
	err := rdb.ForEachMaster(context.Background(), func(ctx context.Context, node *redis.Client) error {
		found, err := node.Keys(ctx, pattern).Result()
		mu.Lock()
		keys = append(keys, found...)
		mu.Unlock()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
