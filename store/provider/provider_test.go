package provider

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProvider(t *testing.T) {
	ctx := context.Background()
	p := New()
	p.Reset(map[string]string{"timeout": AppliedButTimeout, "no": Declined})

	answer, err := p.Execute(ctx, "ok", "ok")
	require.NoError(t, err)
	require.Equal(t, Confirmed, answer.Status)
	again, err := p.Execute(ctx, "ok", "ok")
	require.NoError(t, err)
	require.Equal(t, answer, again, "idempotent by OperationId")

	answer, err = p.Execute(ctx, "timeout", "timeout")
	require.NoError(t, err)
	require.Equal(t, Unknown, answer.Status)
	answer, err = p.Query(ctx, "timeout")
	require.NoError(t, err)
	require.Equal(t, Confirmed, answer.Status, "it was applied")

	answer, err = p.Execute(ctx, "no", "no")
	require.NoError(t, err)
	require.Equal(t, Declined, answer.Status)

	answer, err = p.Query(ctx, "never")
	require.NoError(t, err)
	require.Equal(t, NotFound, answer.Status)

	require.Equal(t, []Application{{OperationID: "ok", Effect: "ok"}, {OperationID: "timeout", Effect: "timeout"}}, p.Applications())
	p.Reset(nil)
	require.Empty(t, p.Applications())
}
