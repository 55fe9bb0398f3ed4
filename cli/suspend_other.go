//go:build !unix

package cli

import tea "github.com/charmbracelet/bubbletea"

// suspendOnSignal: without job control there is nothing to stop for.
func suspendOnSignal(*tea.Program) (suspend func(), stop func()) { return nil, func() {} }
