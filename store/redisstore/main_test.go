package redisstore_test

import (
	"testing"

	"github.com/fencelab/fencelab/store/storetest"
)

func TestMain(m *testing.M) { storetest.MainRedis(m) }
