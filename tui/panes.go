package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/untrusted"
)

// The panes render a snapshot into lines. Each gets its width and the most
// lines it may use, and never returns a line wider than that: a pane that
// has more to say than room shows what matters most and says what it left
// out.

// titled puts a pane title above the body, cutting the body to fit.
func titled(st styles, title string, width, height int, body []string) []string {
	if height <= 0 {
		return nil
	}
	head := st.pane.Render(title) + " " + st.dim.Render(strings.Repeat("─", max(0, width-ansi.StringWidth(title)-1)))
	lines := []string{head}
	room := height - 1
	if len(body) > room && room > 0 {
		body = append(body[:room-1:room-1], st.dim.Render(st.T("  … %d more", len(body)-room+1)))
	}
	if room > 0 {
		lines = append(lines, body...)
	}
	return fit(lines, width)
}

// fit cuts every line to width, escape codes and wide runes included.
func fit(lines []string, width int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Truncate(l, width, "…")
	}
	return out
}

func workersPane(st styles, s engine.Snapshot, selected, width, height int) []string {
	var body []string
	// Two lines an actor (the second, its belief, only where it has one)
	// when they all fit; else one.
	twoLines := 0
	for _, a := range s.Actors {
		twoLines++
		if !a.HoldsNothing || world.TruthOf(a).Token > 0 || len(a.Saved) > 0 {
			twoLines++
		}
	}
	perActor := 2
	if height-1 < twoLines {
		perActor = 1
	}
	// Every truth in few words when one in full would be cut, so two
	// actors' truths read alike.
	short := false
	for _, a := range s.Actors {
		short = short || ansi.StringWidth("     stale belief: "+a.Belief+" · truth: "+a.Truth) > width
	}
	// Names and labels padded to the widest, so the columns after them
	// line up (R1, P and OUT in one pane).
	// An actor whose label is its name (a file's) shows its name once.
	labelOf := func(a engine.ActorView) string {
		if a.Label == a.Name {
			return ""
		}
		return a.Label
	}
	nameWidth, labelWidth := 0, 0
	for i, a := range s.Actors {
		nameWidth = max(nameWidth, ansi.StringWidth(fmt.Sprintf("%d %s", i+1, a.Name)))
		labelWidth = max(labelWidth, ansi.StringWidth(labelOf(a)))
	}
	for i, a := range s.Actors {
		marker := "  "
		name := fmt.Sprintf("%d %s", i+1, a.Name)
		pad := strings.Repeat(" ", nameWidth-ansi.StringWidth(name))
		if i == selected {
			marker = "> "
			name = st.selected.Render(name)
		}
		name += pad
		label := st.dim.Render(labelOf(a)) + strings.Repeat(" ", labelWidth-ansi.StringWidth(labelOf(a)))
		status := st.T("ready")
		switch {
		case a.Paused:
			status = st.state("PAUSED") + " (" + a.Pause + ")"
		case a.Done:
			status = st.dim.Render(st.T("done"))
		case a.Deadlocked:
			status = st.broken.Render(st.T("DEADLOCK")) // the status line says with whom
		case a.Waiting != "":
			status = st.dim.Render(st.T("waits")) // why: the timeline's last entry of it
		}
		next := ""
		if a.NextStep != "" {
			next = st.dim.Render(" · "+st.T("next:")+" ") + st.T(a.NextStep)
		}
		if a.NextCall != "" {
			next += st.dim.Render(" " + st.T("(call %d of %d: %s)", a.CallAt, a.Of, st.T(a.NextCall)))
		}
		token := ""
		if world.TruthOf(a).Token > 0 {
			token = st.T(" · token %d", world.TruthOf(a).Token)
		}
		// A stale belief is said first, where no narrow pane cuts it.
		believes := st.T("believes:") + " "
		if a.Deceived {
			believes = st.rejected.Render(st.T("stale belief:")) + " "
		}
		belief := believes + a.Belief
		if a.HoldsNothing && world.TruthOf(a).Token == 0 {
			belief = ""
		}
		// What a file's actor saved is what it believes: the version it
		// read, the token it was given.
		saved := ""
		if len(a.Saved) > 0 {
			saved = st.dim.Render(st.T("saved:")+" ") + strings.Join(a.Saved, st.dim.Render(" · "))
		}
		if belief == "" {
			belief = saved
		} else if saved != "" {
			belief += st.dim.Render(" · ") + saved
		}
		if world.TruthOf(a).Token > 0 {
			truth := a.Truth
			if short {
				truth = shortTruth(st, a)
			}
			belief += st.dim.Render(" · "+st.T("truth:")+" ") + truth
		}
		if perActor == 1 {
			rest := ""
			if !a.HoldsNothing || world.TruthOf(a).Token > 0 {
				rest += " · " + believes + a.Belief
			}
			if world.TruthOf(a).Token > 0 {
				rest += " · " + st.T("truth:") + " " + shortTruth(st, a)
			}
			if saved != "" {
				rest += " · " + saved
			}
			line := fmt.Sprintf("%s%s %s", marker, name, status) + rest
			if ansi.StringWidth(line) > width && a.Paused {
				// The pause's reason goes before the truth does.
				line = fmt.Sprintf("%s%s %s", marker, name, st.state("PAUSED")) + rest
			}
			body = append(body, line)
			continue
		}
		if labelWidth > 0 {
			label += "  "
		}
		body = append(body, fmt.Sprintf("%s%s  %s%s%s%s", marker, name, label, status, token, next)) // the label is in the lab's language
		if belief != "" {
			body = append(body, "     "+belief)
		}
	}
	return titled(st, st.T("Workers"), width, height, body)
}

// fence is a fencing token as the explorer says it: none, or the number.
func fence(st styles, f int64) string {
	if f == 0 {
		return st.T("none")
	}
	return world.FenceIn(f, st.lang)
}

// shortTruth is an actor's truth in few words: "worker-B holds 42".
func shortTruth(st styles, a engine.ActorView) string {
	if !world.TruthOf(a).LeaseHeld {
		return st.T("lease free")
	}
	return st.T("%s holds %d", world.TruthOf(a).LeaseHolder, world.TruthOf(a).LeaseToken)
}

func redisPane(st styles, s engine.Snapshot, width, height int) []string {
	var body []string
	keys := jobHashesReadable(s)
	for i := range keys {
		// A file's keys and values are its data: drawn, not acted on.
		keys[i].Key, keys[i].Value = untrusted.Line(keys[i].Key), untrusted.Line(keys[i].Value)
	}
	keyWidth, valueWidth := 0, 0
	for _, k := range keys {
		keyWidth, valueWidth = max(keyWidth, len(k.Key)), max(valueWidth, ansi.StringWidth(k.Value))
	}
	title := "Redis  " + st.dim.Render(s.RedisName)
	// "  key  value  ttl 1h0m0s  region-b": when that would be cut, the
	// namespace every key starts with is said once, in the title.
	if ns := s.RedisPrefix; ns != "" && 2+keyWidth+2+valueWidth+2+10+10 > width {
		title += st.dim.Render(" · " + st.T("keys under %s", ns))
		keyWidth -= len(ns)
		for i := range keys {
			keys[i].Key = strings.TrimPrefix(keys[i].Key, ns)
		}
	}
	for _, k := range keys {
		ttl := st.dim.Render(st.T("no ttl"))
		if k.TTL > 0 {
			ttl = "ttl " + formatTTL(k.TTL)
		}
		pad := strings.Repeat(" ", valueWidth-ansi.StringWidth(k.Value))
		line := fmt.Sprintf("  %-*s  %s%s  %s", keyWidth, k.Key, k.Value, pad, ttl)
		if tag := keySpace(s, k); tag != "" {
			line += "  " + st.warn.Render(tag)
		}
		body = append(body, line)
	}
	if len(body) == 0 {
		body = append(body, st.dim.Render("  "+st.T("no lab keys")))
	}
	// A Lua script's guard shows with the keys it read, first, so it is
	// never the line a small pane cuts.
	var guard []string
	if g := s.LastGuard(engine.LayerCoordination); g != nil {
		guard = guardLines(st, g, width)
	}
	if len(guard)+len(body) > height-1 && height > 1 {
		body = nil // the guard first; then what room is left
		if room := height - 1 - len(guard); room > 0 {
			body = compactKeys(st, s, keys, width, room)
		}
	}
	return titled(st, title, width, height, append(guard, body...))
}

// guardLines is a guard as its store evaluated it, and what it decided,
// wrapped to the width: a guard cut short says nothing.
func guardLines(st styles, g *engine.Event, width int) []string {
	var out []string
	label := st.T("guard") // two spaces after it, as after "guard  not evaluated yet"
	indent := 4 + ansi.StringWidth(label)
	for i, line := range wrap(g.Actor+": "+g.GuardSaid()+" → "+g.State, max(20, width-indent)) {
		prefix := strings.Repeat(" ", indent)
		if i == 0 {
			prefix = "  " + label + "  "
		}
		out = append(out, prefix+st.guard.Render(line))
	}
	return out
}

// jobHashesReadable shows job hashes with their fields in lab terms
// (createdAt on the lab clock) instead of the raw field dump.
func jobHashesReadable(s engine.Snapshot) []engine.RedisKey {
	jobs := map[string]world.Job{}
	for _, j := range world.SnapshotReading(s).Jobs.Jobs {
		jobs[j.Key] = j
	}
	keys := make([]engine.RedisKey, len(s.Keys))
	for i, k := range s.Keys {
		keys[i] = k
		if j, ok := jobs[k.Key]; ok {
			keys[i].Value = fmt.Sprintf("%s %d/%d createdAt %s", j.Status, j.Processed, j.Total,
				engine.FormatClock(j.CreatedAt.Sub(world.SeedOf(s.Scenario).Now)))
		}
	}
	return keys
}

// keySpace names the key space of a key that is not the seed's conflict
// key: a partitioned region's own tokens ("region-b"). The seed's own keys
// need no name.
func keySpace(s engine.Snapshot, k engine.RedisKey) string {
	seed := world.SeedOf(s.Scenario).ConflictKey
	if k.Conflict == "" || k.Conflict == seed {
		return ""
	}
	return strings.TrimPrefix(k.Conflict, seed+"@")
}

// compactKeys packs the keys into few lines, each named by its last
// segment (lease, counter, leader:JOB), when the pane is short. Leases
// come first: they are what each actor's truth is read from.
func compactKeys(st styles, s engine.Snapshot, keys []engine.RedisKey, width, lines int) []string {
	keys = slices.Clone(keys)
	slices.SortStableFunc(keys, func(a, b engine.RedisKey) int { return leaseFirst(a) - leaseFirst(b) })
	items := make([]string, len(keys))
	for i, k := range keys {
		name := k.Key
		// The tail names the key; a real Redis puts the run's namespace
		// (fencelab:RUN:) before it.
		if j := strings.LastIndex(name, "}:"); j >= 0 {
			name = name[j+2:]
		} else if j := strings.Index(name, "leader:"); j >= 0 {
			name = name[j:]
		} else {
			name = strings.TrimPrefix(name, "fencelab:")
		}
		if tag := keySpace(s, k); tag != "" {
			if name == "epoch" {
				name = "ns-epoch" // beside a region's own keys: the namespace epoch, not the region's
			}
			name = tag + ":" + name
		}
		items[i] = " " + name + "=" + k.Value
		if k.TTL > 0 {
			items[i] += " (" + formatTTL(k.TTL) + ")"
		}
	}
	var out []string
	line := " "
	for i, item := range items {
		last := len(out) == lines-1
		if last && ansi.StringWidth(line+strings.Join(items[i:], "")) <= width {
			return append(out, line+strings.Join(items[i:], "")) // the rest fits
		}
		room := width
		if last && i < len(items)-1 {
			// The last line keeps room to say what did not fit.
			room -= ansi.StringWidth(st.T("  +%d more", len(items)-i))
		}
		if ansi.StringWidth(line)+ansi.StringWidth(item) > room && line != " " {
			if last {
				return append(out, line+st.dim.Render(st.T("  +%d more", len(items)-i)))
			}
			out = append(out, line)
			line = " "
		}
		line += item
	}
	return append(out, line)
}

// leaseFirst orders keys for a short pane: resource leases, then job
// leader leases, then the rest.
func leaseFirst(k engine.RedisKey) int {
	switch {
	case strings.HasSuffix(k.Key, ":lease"):
		return 0
	case strings.Contains(k.Key, "leader:"):
		return 1
	}
	return 2
}

func formatTTL(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

func postgresPane(st styles, s engine.Snapshot, width, height int) []string {
	if s.Scenario.OwnCodeOnly {
		return codeTablesPane(st, s, width, height)
	}
	// In order of importance: the resource row, the configuration if the
	// operator changed it, the guard, then the newest executions, then the
	// checkpoint and an unchanged configuration. Shown in reading order.
	var head, config, checkpoints, executions []string
	key := world.SeedOf(s.Scenario).ConflictKey
	if r, ok := world.RowsOf(s.Ledger).Resource(key); ok {
		row := func(fence string) string {
			return "  " + st.T("%s: summary %s · %s %s · namespace epoch %d", key, st.title.Render(fmt.Sprint(r.SummaryValue)),
				fence, st.title.Render(world.FenceIn(r.LastAcceptedFence, st.lang)), r.NamespaceEpoch)
		}
		line := row(st.T("last accepted fence"))
		if ansi.StringWidth(line) > width {
			line = row(st.T("fence")) // as the result strip says it when tight
		}
		head = append(head, line)
	}
	seed := world.SeedOf(s.Scenario)
	for _, t := range world.RowsOf(s.Ledger).Tenants {
		if t.TenantID == seed.NeighbourTenant {
			continue // another tenant's, beside the scenario's: no step is for it
		}
		active := st.T("active")
		if !t.Active {
			active = st.rejected.Render(st.T("removed"))
		}
		r := world.RowsOf(s.Ledger).Rollout
		line := "  " + st.T("%s revision %d · %s epoch %d · %s", t.TenantID, t.MembershipRevision, t.RegionID, t.RegionEpoch, active) +
			"  │ " + st.T("rollout: namespace epoch %d · min writer %d · checkpoint schema %d",
			r.NamespaceEpoch, r.MinimumWriterVersion, r.CheckpointSchemaVersion)
		changed := !t.Active || t.MembershipRevision != seed.MembershipRevision || r.NamespaceEpoch != seed.NamespaceEpoch ||
			r.MinimumWriterVersion != seed.MinimumWriterVersion || r.CheckpointSchemaVersion != seed.CheckpointSchemaVersion
		lines := []string{line}
		if ansi.StringWidth(line) > width {
			// Two lines rather than a rollout cut short.
			tenant, rollout, _ := strings.Cut(line, "  │ ")
			lines = []string{tenant, "  " + rollout}
		}
		if changed {
			head = append(head, lines...)
		} else {
			config = append(config, lines...)
		}
	}
	// The guard goes right after the resource row: when the pane is short,
	// the configuration is what it cuts, not the check that decided.
	// A guard evaluated elsewhere (Redis's, in its pane; a worker's own,
	// such as the deadline, in the timeline) is not contradicted here: this
	// pane says that none was evaluated only while none has been.
	var guard []string
	if g := s.LastGuard(engine.LayerDatabase); g != nil {
		guard = guardLines(st, g, width)
	} else if !anyGuard(s) {
		guard = []string{st.dim.Render("  " + st.T("guard  not evaluated yet"))}
	}
	if len(head) > 0 {
		head = append(append(head[:1:1], guard...), head[1:]...)
	} else {
		head = guard
	}
	for _, c := range world.RowsOf(s.Ledger).Checkpoints {
		checkpoints = append(checkpoints, "  "+st.T("checkpoint token %s · schema %d · summary %d", world.FenceIn(c.FencingToken, st.lang), c.SchemaVersion, c.SummaryValue))
	}
	for _, e := range world.RowsOf(s.Ledger).Executions {
		line := "  " + st.T("execution %-16s %-9s token %-4s %s", e.JobName, e.Owner, world.FenceIn(e.FencingToken, st.lang), st.state(e.State))
		if e.Rejection != "" {
			line += " " + st.rejected.Render(e.Rejection)
		}
		executions = append(executions, line)
	}
	for _, r := range world.RowsOf(s.Ledger).JobResults {
		executions = append(executions, "  "+st.T("job_results %s of %s: %q %s", r.JobID, r.Target, r.Results, st.state("APPLIED")))
	}
	if len(executions) == 0 {
		executions = append(executions, st.dim.Render("  "+st.T("no executions yet")))
	}
	total := len(head) + len(config) + len(checkpoints) + len(executions)
	room := height - 1 - len(head)
	if room < len(executions) {
		executions = executions[len(executions)-max(0, room):]
	}
	room -= len(executions)
	if room < len(config) {
		config = config[:max(0, room)]
	}
	room -= len(config)
	if room < len(checkpoints) {
		checkpoints = checkpoints[:max(0, room)]
	}
	body := append(append(slices.Clone(head), config...), checkpoints...)
	body = append(body, executions...)
	if height == 2 {
		// One line: what the schema holds, counted.
		r, _ := world.RowsOf(s.Ledger).Resource(key)
		body = []string{st.dim.Render("  " + st.T("summary %d · fence %s · %d executions · %d job results",
			r.SummaryValue, fence(st, r.LastAcceptedFence), len(world.RowsOf(s.Ledger).Executions), len(world.RowsOf(s.Ledger).JobResults)))}
	}
	title := "PostgreSQL  "
	if left := total - len(body); left > 0 && height > 2 {
		// Said in the title, which costs the rows no line.
		title += st.warn.Render(counted(st, left, "+%d line (f)", "+%d lines (f)")) + "  "
	}
	return titled(st, title+st.dim.Render(st.T("%s · schema fencelab", s.DatabaseName)), width, height, body)
}

// outboxPane shows the outbox rows and, last, the provider's ledger: what
// it applied, per OperationId.
func outboxPane(st styles, s engine.Snapshot, width, height int) []string {
	receipts := map[string]string{}
	for _, r := range world.RowsOf(s.Ledger).Receipts {
		receipts[r.OperationID] = r.Receipt
	}
	var rows []string
	for _, o := range world.RowsOf(s.Ledger).Outbox {
		line := "  " + st.T("%-28s %-15s %s · attempts %d", o.OperationID, o.EffectType, st.state(o.Status), o.AttemptCount)
		if r, ok := receipts[o.OperationID]; ok {
			line += " · " + st.T("receipt %s", r)
		}
		rows = append(rows, line)
	}
	if len(rows) == 0 {
		rows = append(rows, st.dim.Render("  "+st.T("no outbox rows")))
	}
	ledger := "  " + st.T("%s: nothing applied", world.SnapshotReading(s).Provider)
	ledgerLines := []string{ledger}
	if n := len(world.SnapshotReading(s).Applications); n > 0 {
		counts := map[string]int{}
		var order []string
		for _, a := range world.SnapshotReading(s).Applications {
			if counts[a.OperationID] == 0 {
				order = append(order, a.OperationID)
			}
			counts[a.OperationID]++
		}
		parts := make([]string, len(order))
		for i, id := range order {
			parts[i] = fmt.Sprintf("%s ×%d", id, counts[id])
		}
		ledger = "  " + st.T("%s applied %d: %s", world.SnapshotReading(s).Provider, n, strings.Join(parts, ", "))
		ledgerLines = wrapParts("  "+st.T("%s applied %d: ", world.SnapshotReading(s).Provider, n), parts, width)
		if ansi.StringWidth(ledger) > width {
			// For one line: the OperationIds without the part they share
			// (the job and epoch, most often).
			if shared := sharedPath(order); shared != "" {
				for i, id := range order {
					parts[i] = fmt.Sprintf("%s ×%d", strings.TrimPrefix(id, shared), counts[id])
				}
				ledger = "  " + st.T("%s applied %d, of %s: %s", world.SnapshotReading(s).Provider, n, shared, strings.Join(parts, ", "))
			}
		}
	}
	title := st.T("Outbox & provider")
	room := height - 1 - len(ledgerLines) // title and ledger
	if room < 1 && len(ledgerLines) > 1 {
		// No room to wrap the ledger: one line of it, cut.
		ledgerLines = []string{ledger}
		room = height - 2
	}
	switch {
	case room >= 1 && len(rows) > room:
		title += st.warn.Render("  " + counted(st, len(rows)-room, "+%d earlier row (f)", "+%d earlier rows (f)"))
		rows = rows[len(rows)-room:] // the newest rows
	case room < 1 && len(world.RowsOf(s.Ledger).Outbox) > 0:
		// One line for all of it: the newest row and the ledger's count.
		o := world.RowsOf(s.Ledger).Outbox[len(world.RowsOf(s.Ledger).Outbox)-1]
		return titled(st, st.T("Outbox & provider"), width, height, []string{"  " + st.T("%s, newest %s %s · %s applied %d",
			counted(st, len(world.RowsOf(s.Ledger).Outbox), "%d row", "%d rows"), o.OperationID, st.state(o.Status), world.SnapshotReading(s).Provider, len(world.SnapshotReading(s).Applications))})
	case room < 1:
		return titled(st, st.T("Outbox & provider"), width, height, []string{ledger})
	}
	return titled(st, title, width, height, append(rows, ledgerLines...))
}

// sharedPath is the longest prefix of every id that ends in a slash
// (the slash kept); "" when there is none or a single id.
func sharedPath(ids []string) string {
	if len(ids) < 2 {
		return ""
	}
	prefix := ids[0]
	for _, id := range ids[1:] {
		for !strings.HasPrefix(id, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		return prefix[:i+1]
	}
	return ""
}

// wrapParts writes parts after head, separated by commas, over as many
// lines of width as they take: a part goes whole onto a line of its own
// (indented under the head's text) when the line it would end cannot
// hold it.
func wrapParts(head string, parts []string, width int) []string {
	var lines []string
	line := head
	for i, p := range parts {
		if i < len(parts)-1 {
			p += ","
		}
		if i > 0 && ansi.StringWidth(line)+1+ansi.StringWidth(p) > width {
			lines = append(lines, line)
			line = "    " + p
			continue
		}
		if i > 0 {
			line += " "
		}
		line += p
	}
	return append(lines, line)
}

// narrationLines is one plain sentence for the last step, wrapped to at
// most height lines.
func narrationLines(st styles, s engine.Snapshot, width, height int) []string {
	text := st.T("Press n to follow the seed's timeline, or step the actors yourself with 1–9.")
	if s.Scenario != nil && s.Scenario.From != "" && s.Mode == s.Scenario.FromMode {
		text = st.T("Press n to follow the schedule of the trace %s, or step the actors yourself with 1–9.", s.Scenario.From)
	}
	if n := len(s.Events); n > 0 {
		last := s.Events[n-1]
		text = last.Narration
		if text == "" {
			text = last.Said()
		}
	}
	wrapped := wrap(text, width-2)
	if len(wrapped) > height {
		wrapped = wrapped[:height]
	}
	for i := range wrapped {
		wrapped[i] = "  " + st.narration.Render(wrapped[i])
	}
	return fit(wrapped, width)
}

func resultLines(st styles, s engine.Snapshot, width, height int) []string {
	r := s.Result
	verdict := st.title.Render(r.Verdict)
	switch {
	case len(r.Breaks) > 0:
		verdict = st.broken.Render(r.Verdict)
	case !s.Settled:
		verdict = st.dim.Render(st.T("pending"))
	}
	fenceLabel := st.T("last accepted fence")
	if width < 100 {
		fenceLabel = st.T("fence")
	}
	what := ""
	if r.MeasureLabel != "" {
		what = st.T(r.MeasureLabel) + ": "
	}
	fenceText := fmt.Sprintf(" · %s %s", fenceLabel, fence(st, r.Mark))
	if r.MeasureLabel != "" && r.Mark == 0 {
		fenceText = "" // a scenario that counts something else and fenced nothing
	}
	line := "  " + st.T("result  %sexpected %d · final %d%s · verdict %s", what, r.Expected, r.Final, fenceText, verdict)
	switch {
	case r.NoValue:
		line = "  " + st.T("result  verdict %s", verdict) // no value named: the verdict alone
	case len(r.Values) > 0:
		line = "  " + st.T("result  %s · verdict %s", r.ValuesSaid(st.lang), verdict)
		if ansi.StringWidth(line) > width {
			line = "  " + st.T("verdict %s · %s", verdict, r.ValuesSaid(st.lang))
		}
	}
	if ansi.StringWidth(line) > width && !r.NoValue && len(r.Values) == 0 {
		// The verdict is what the strip is for: first, where nothing cuts it.
		line = "  " + st.T("verdict %s · %sexpected %d · final %d%s", verdict, what, r.Expected, r.Final, fenceText)
	}
	lines := []string{line}
	for _, b := range r.Breaks {
		// Wrapped where there is room for it; else one line, cut.
		head := st.T("BROKEN invariant %d", b.Invariant)
		text := wrap(st.T("%s at #%d: %s", head, b.Sequence, b.Said()), width-2)
		if len(lines)+len(text) > height {
			text = []string{strings.Join(text, " ")}
		}
		for i, t := range text {
			if i == 0 {
				t = st.broken.Render(head) + strings.TrimPrefix(t, head)
			}
			lines = append(lines, "  "+t)
		}
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	return fit(lines, width)
}

// anyGuard reports whether any step so far evaluated a guard.
func anyGuard(s engine.Snapshot) bool {
	for _, e := range s.Events {
		if e.Guard != "" {
			return true
		}
	}
	return false
}

// codeTablesPane shows a file's own tables, row by row, as PostgreSQL
// holds them: the file's code runs on them, not on schema fencelab.
func codeTablesPane(st styles, s engine.Snapshot, width, height int) []string {
	var body []string
	if g := s.LastGuard(engine.LayerDatabase); g != nil {
		body = append(body, guardLines(st, g, width)...)
	}
	for _, t := range s.Ledger.Code.Tables {
		if len(t.Rows) == 0 {
			body = append(body, "  "+st.title.Render(untrusted.Line(t.Name))+st.dim.Render("  "+st.T("no rows")))
			continue
		}
		// A file's rows are its data: drawn, never acted on by the
		// terminal.
		body = append(body, "  "+st.title.Render(untrusted.Line(t.Name))+st.dim.Render("  "+untrusted.Line(strings.Join(t.Columns, " · "))))
		for _, r := range t.Rows {
			body = append(body, "    "+untrusted.Line(strings.Join(r, " · ")))
		}
	}
	// A session's locks are the connection's, whichever actor took them:
	// "pool-1 holds advisory lock 42 ×2" is two takes of one lock.
	for _, ss := range s.Sessions {
		if len(ss.Locks) > 0 {
			body = append(body, "  "+st.T("%s holds advisory lock %s", st.title.Render(ss.Connection), ss.Says()))
		}
	}
	if len(body) == 0 {
		body = append(body, st.dim.Render("  "+st.T("the file has no tables")))
	}
	title := "PostgreSQL  "
	if left := len(body) - (height - 1); left > 0 && height > 2 {
		title += st.warn.Render(counted(st, left, "+%d line (f)", "+%d lines (f)")) + "  "
		body = body[:max(0, height-1)]
	}
	schema := ""
	if s.Scenario.Code != nil {
		schema = s.Scenario.Code.Schema
	}
	return titled(st, title+st.dim.Render(st.T("%s · schema %s", s.DatabaseName, schema)), width, height, body)
}
