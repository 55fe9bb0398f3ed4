package redisstore

import "context"

// SetRaw and GetRaw reach around the scripts, for tests that need a key no
// script would write.
func SetRaw(ctx context.Context, c *Coordination, key, value string) error {
	return c.admin.Set(ctx, key, value, 0).Err()
}

func GetRaw(ctx context.Context, c *Coordination, key string) (string, error) {
	return c.admin.Get(ctx, key).Result()
}

// ScanRaw lists every key matching a pattern, whoever made it.
func ScanRaw(ctx context.Context, c *Coordination, pattern string) ([]string, error) {
	return scanKeys(ctx, c.admin, pattern)
}
