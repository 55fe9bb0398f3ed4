package provider

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
)

func TestProvider(t *testing.T) {
	ctx := context.Background()
	p := New()
	p.Reset(map[string]string{"timeout": engine.ProviderAppliedButTimeout, "no": engine.ProviderDeclined})

	answer, err := p.Execute(ctx, "ok", "ok")
	require.NoError(t, err)
	require.Equal(t, engine.ProviderConfirmed, answer.Status)
	again, err := p.Execute(ctx, "ok", "ok")
	require.NoError(t, err)
	require.Equal(t, answer, again, "idempotent by OperationId")

	answer, err = p.Execute(ctx, "timeout", "timeout")
	require.NoError(t, err)
	require.Equal(t, engine.ProviderUnknown, answer.Status)
	answer, err = p.Query(ctx, "timeout")
	require.NoError(t, err)
	require.Equal(t, engine.ProviderConfirmed, answer.Status, "it was applied")

	answer, err = p.Execute(ctx, "no", "no")
	require.NoError(t, err)
	require.Equal(t, engine.ProviderDeclined, answer.Status)

	answer, err = p.Query(ctx, "never")
	require.NoError(t, err)
	require.Equal(t, engine.ProviderNotFound, answer.Status)

	require.Equal(t, []engine.Application{{OperationID: "ok", Effect: "ok"}, {OperationID: "timeout", Effect: "timeout"}}, p.Applications())
	p.Reset(nil)
	require.Empty(t, p.Applications())
}
