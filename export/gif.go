package export

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/gif"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/cellbuf"
)

// GIF writes the explorer's frames (as Cast draws them: the seeded state,
// then a frame per action) as an animated GIF, each frame held as long as
// the cast holds it, the last one looping back to the first. The GIF
// carries the export signature in a comment, so a later export may
// replace it.
func GIF(w io.Writer, s Session, width, height int, frame Frames) error {
	anim := &gif.GIF{}
	for k, step := range s.Steps {
		screen, err := frame(k)
		if err != nil {
			return err
		}
		img, err := drawScreen(screenCells(screen, width, height))
		if err != nil {
			return err
		}
		anim.Image = append(anim.Image, paletted(img))
		anim.Delay = append(anim.Delay, int(readingTime(step)/(10*time.Millisecond)))
	}
	var out bytes.Buffer
	if err := gif.EncodeAll(&out, anim); err != nil {
		return fmt.Errorf("export: gif: %w", err)
	}
	_, err := w.Write(withComment(out.Bytes(), fmt.Sprintf("%s · %s · %s", Signature, s.Scenario.ID, s.ModeLabel())))
	return err
}

// paletted is a screen in at most 256 colours: each colour the screen
// uses as it is, and the shades antialiasing put between them rounded to
// the nearest. A terminal screen has few colours, so nothing dithers.
func paletted(img *image.RGBA) *image.Paletted {
	count := map[color.RGBA]int{}
	for i := 0; i < len(img.Pix); i += 4 {
		count[color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 0xff}]++
	}
	// The most used colours first: the cells' own, then the shades.
	type used struct {
		c color.RGBA
		n int
	}
	var all []used
	for c, n := range count {
		all = append(all, used{c, n})
	}
	key := func(c color.RGBA) int { return int(c.R)<<16 | int(c.G)<<8 | int(c.B) }
	slices.SortFunc(all, func(a, b used) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return key(a.c) - key(b.c) // the same palette every run
	})
	var p color.Palette
	for _, u := range all[:min(len(all), 256)] {
		p = append(p, u.c)
	}
	out := image.NewPaletted(img.Bounds(), p)
	index := map[color.RGBA]uint8{}
	for i := 0; i < len(img.Pix); i += 4 {
		c := color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 0xff}
		at, ok := index[c]
		if !ok {
			at = uint8(p.Index(c))
			index[c] = at
		}
		out.Pix[i/4] = at
	}
	return out
}

// withComment puts a GIF comment extension before the trailer of an
// encoded GIF (Go's encoder writes none).
func withComment(data []byte, comment string) []byte {
	if len(data) == 0 || data[len(data)-1] != 0x3b {
		return data
	}
	var ext bytes.Buffer
	ext.Write([]byte{0x21, 0xfe})
	for text := []byte(comment); len(text) > 0; {
		n := min(len(text), 255)
		ext.WriteByte(byte(n))
		ext.Write(text[:n])
		text = text[n:]
	}
	ext.WriteByte(0)
	out := append([]byte(nil), data[:len(data)-1]...)
	out = append(out, ext.Bytes()...)
	return append(out, 0x3b)
}

// SVG writes the frames as one animated SVG: each frame a group of cell
// backgrounds and text runs, shown in turn for as long as the cast holds
// it, looping. It shows as it is in a browser, a README or a slide; the
// text is the viewer's monospace font (the one named first if it has it),
// each character at its cell so the columns stay in line.
func SVG(w io.Writer, s Session, width, height int, frame Frames) error {
	p := &printer{w: w}
	var total time.Duration
	for _, step := range s.Steps {
		total += readingTime(step)
	}
	pw, ph := width*cellWidth, height*cellHeight
	p.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" xml:space=\"preserve\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", pw, ph, pw, ph)
	p.printf("<!-- %s · %s · %s -->\n", Signature, html.EscapeString(s.Scenario.ID), html.EscapeString(s.ModeLabel()))
	// 13px: a monospace font's advance (0.5 to 0.6 of its size) stays
	// within a cell.
	p.printf("<style>text{font-family:'NanumGothicCoding','D2Coding','DejaVu Sans Mono',monospace;font-size:13px}.b{font-weight:bold}</style>\n")
	p.printf("<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n", hex(defaultBg))
	var at time.Duration
	for k, step := range s.Steps {
		hold := readingTime(step)
		visible := "hidden"
		if k == 0 {
			visible = "visible" // what a viewer without animation shows
		}
		p.printf("<g visibility=\"%s\">\n", visible)
		// Hidden, shown from its start to its end, hidden again.
		p.printf("<animate attributeName=\"visibility\" calcMode=\"discrete\" values=\"hidden;visible;hidden\" keyTimes=\"0;%.4f;%.4f\" dur=\"%.2fs\" repeatCount=\"indefinite\"/>\n",
			at.Seconds()/total.Seconds(), (at+hold).Seconds()/total.Seconds(), total.Seconds())
		screen, err := frame(k)
		if err != nil {
			return err
		}
		svgScreen(p, screenCells(screen, width, height))
		p.printf("</g>\n")
		at += hold
	}
	p.printf("</svg>\n")
	return p.err
}

// svgScreen writes a grid's backgrounds (runs of one colour) and its text
// (runs of one style), each character placed at its own cell: a renderer
// draws the viewer's font, whose advance need not be a cell's.
func svgScreen(p *printer, buf *cellbuf.Buffer) {
	type run struct {
		x, cells int
		fg, bg   color.RGBA
		bold     bool
		runes    []rune
		at       []int // the cell of each rune
	}
	for y := range buf.Height() {
		var runs []*run
		for x := 0; x < buf.Width(); {
			c := buf.Cell(x, y)
			if c == nil || c.Width == 0 {
				x++
				continue
			}
			fg, bg := cellColors(c)
			bold := c.Style.Attrs.Contains(cellbuf.BoldAttr)
			var last *run
			if len(runs) > 0 {
				last = runs[len(runs)-1]
			}
			if last == nil || last.fg != fg || last.bg != bg || last.bold != bold {
				last = &run{x: x, fg: fg, bg: bg, bold: bold}
				runs = append(runs, last)
			}
			if c.Rune != 0 {
				last.runes = append(last.runes, c.Rune)
				last.at = append(last.at, x)
			}
			last.cells += c.Width
			x += c.Width
		}
		for _, r := range runs {
			if r.bg != defaultBg {
				p.printf("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
					r.x*cellWidth, y*cellHeight, r.cells*cellWidth, cellHeight, hex(r.bg))
			}
		}
		for _, r := range runs {
			// Spaces at either end are left out: nothing to draw.
			for len(r.runes) > 0 && r.runes[0] == ' ' {
				r.runes, r.at = r.runes[1:], r.at[1:]
			}
			for n := len(r.runes); n > 0 && r.runes[n-1] == ' '; n-- {
				r.runes, r.at = r.runes[:n-1], r.at[:n-1]
			}
			if len(r.runes) == 0 {
				continue
			}
			class := ""
			if r.bold {
				class = ` class="b"`
			}
			xs := make([]string, len(r.at))
			for i, cell := range r.at {
				xs[i] = strconv.Itoa(cell * cellWidth)
			}
			p.printf("<text x=\"%s\" y=\"%d\" fill=\"%s\"%s>%s</text>\n",
				strings.Join(xs, " "), y*cellHeight+baseline, hex(r.fg), class, html.EscapeString(string(r.runes)))
		}
	}
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
