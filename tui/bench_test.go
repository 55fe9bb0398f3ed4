package tui

import (
	"context"
	"errors"
	"sort"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
)

// benchBackends are the embedded defaults: miniredis and a database of the
// package's ephemeral cluster.
func benchBackends(b *testing.B) engine.Backends {
	return engine.Backends{Coordination: storetest.Embedded(b), Database: storetest.Database(b), HoldTTL: 30 * time.Second}
}

// reportLatencies reports p50 and p99 of the per-operation times.
func reportLatencies(b *testing.B, times []time.Duration) {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkKeyToFrame is the explorer's step latency: a key press of n to
// the redrawn frame — Update, the command (the step and the snapshot read
// from Redis and PostgreSQL), Update with its result, View.
func BenchmarkKeyToFrame(b *testing.B) {
	ctx := context.Background()
	backends := benchBackends(b)
	m := New(ctx, Options{Catalog: scenarios.All(), Scenario: "lease-overrun",
		Start: func(context.Context) (engine.Backends, error) { return backends, nil }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.Update(backendsMsg{backends})
	m.Update(m.openLab(m.scenario, engine.Safe)())
	defer m.Close()
	n := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'n'}}

	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.snap.GuidedNext == "" {
			b.StopTimer()
			snap, _, err := m.owner.do(func(ctx context.Context, lab *engine.Lab) error { return lab.Reset(ctx) })
			if err != nil {
				b.Fatal(err)
			}
			m.snap = &snap
			b.StartTimer()
		}
		start := time.Now()
		_, cmd := m.Update(n)
		m.Update(cmd())
		_ = m.View()
		times = append(times, time.Since(start))
	}
	reportLatencies(b, times)
}

// BenchmarkRawStep is the same guided steps on the same backends without
// the explorer: the backend calls of a step and of the snapshot read.
func BenchmarkRawStep(b *testing.B) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	lab, err := engine.NewLab(ctx, benchBackends(b), s, engine.Safe)
	if err != nil {
		b.Fatal(err)
	}
	defer lab.Close(ctx)

	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		err := lab.Next(ctx)
		if errors.Is(err, engine.ErrGuidedDone) {
			b.StopTimer()
			if err := lab.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			start = time.Now()
			err = lab.Next(ctx)
		}
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lab.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	reportLatencies(b, times)
}
