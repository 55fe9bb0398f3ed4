package tui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/fencelab/fencelab/lang"
)

// keyMap is the contract of DESIGN §8; the same map feeds the help screen.
type keyMap struct {
	lang    lang.Lang // the language of the descriptions
	Next    key.Binding
	Step    key.Binding
	Select  key.Binding
	Pause   key.Binding
	Expire  key.Binding
	Second  key.Binding
	Mode    key.Binding
	Picker  key.Binding
	Reset   key.Binding
	Undo    key.Binding
	DSN     key.Binding
	Save    key.Binding
	Export  key.Binding
	Scroll  key.Binding
	Focus   key.Binding
	Travel  key.Binding
	Open    key.Binding
	Play    key.Binding
	Pace    key.Binding
	Guards  key.Binding
	Split   key.Binding
	Why     key.Binding
	Branch  key.Binding
	Help    key.Binding
	Log     key.Binding
	Quit    key.Binding
	Suspend key.Binding
}

func newKeyMap(l lang.Lang) keyMap {
	return keyMap{
		lang:   l,
		Next:   key.NewBinding(key.WithKeys("n", " ", ".", "pgdown"), key.WithHelp("n/space/.", l.T("next guided step (PgDn too)"))),
		Step:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", l.T("that actor's next call (one round trip)"))),
		Select: key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", l.T("select actor"))),
		Pause:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", l.T("pause/resume selected"))),
		Expire: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", l.T("clock to next expiry"))),
		Second: key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", l.T("clock +1s"))),
		Mode:   key.NewBinding(key.WithKeys("m"), key.WithHelp("m", l.T("SAFE/UNSAFE"))),
		Picker: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", l.T("scenarios"))),
		Reset:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", l.T("reset"))),
		Undo:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", l.T("undo"))),
		DSN:    key.NewBinding(key.WithKeys("d"), key.WithHelp("d", l.T("show/hide the DSN"))),
		Save:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", l.T("write the run as a trace"))),
		Export: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", l.T("export the run: Markdown, Mermaid, cast, tape, GIF, SVG"))),
		Scroll: key.NewBinding(key.WithKeys("up", "down", "pgup", "k", "j"), key.WithHelp("↑/↓", l.T("scroll the focused pane (timeline: by entries, PgUp 5)"))),
		Focus:  key.NewBinding(key.WithKeys("f", "esc"), key.WithHelp("f/esc", l.T("focus the next pane, whole / the timeline"))),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", l.T("open the timeline's last shown entry whole"))),
		Travel: key.NewBinding(key.WithKeys("left", "right", "h", "l"), key.WithHelp("←/→ h/l", l.T("back/forward through recorded steps"))),
		Play:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", l.T("autoplay the guided order on/off"))),
		Pace:   key.NewBinding(key.WithKeys("<", ">"), key.WithHelp("</>", l.T("autoplay slower/faster"))),
		Guards: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", l.T("SAFE's guards: take one out, and the run so far replays without it"))),
		Split:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", l.T("split screen: the other mode beside this one, the same actions"))),
		Why:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", l.T("check every schedule in the background: each action's share of futures that break an invariant, and the point of no return"))),
		Branch: key.NewBinding(key.WithKeys("b", "o"), key.WithHelp("b/o", l.T("what can happen next, each with its share of broken futures (after c; o in a talk, where b blanks the screen)"))),
		Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", l.T("help"))),
		Log:    key.NewBinding(key.WithKeys("L"), key.WithHelp("L", l.T("every message so far, whole"))),
		Quit:   key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", l.T("quit"))),
		// Suspend is handled before the key map (handleKey); listed for ?.
		Suspend: key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", l.T("suspend to the shell; fg comes back"))),
	}
}

func (k keyMap) ShortHelp() []key.Binding {
	// ? and q come early: a narrow terminal cuts the line from the end.
	return []key.Binding{k.Next, k.Help, k.Quit, k.Step, k.Pause, k.Expire, k.Mode, k.Picker, k.Undo}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Step, k.Select, k.Pause},
		{k.Expire, k.Second, k.Reset, k.Undo},
		{k.Mode, k.Guards, k.Split, k.Why, k.Branch, k.Picker, k.DSN, k.Focus, k.Scroll, k.Travel, k.Open},
		{k.Play, k.Pace, k.Save, k.Export, k.Help, k.Log, k.Suspend, k.Quit},
	}
}

// Keys are every key the explorer's keymap binds, as bubbles/key names
// them ("n", " ", "pgdown", "ctrl+z"), in the order ? lists them: what a
// list of the keys for people (the README's) is held to.
func Keys() []string {
	var out []string
	for _, group := range newKeyMap(lang.En).FullHelp() {
		for _, b := range group {
			out = append(out, b.Keys()...)
		}
	}
	return out
}
