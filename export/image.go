package export

import (
	_ "embed"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Screens as pictures: a frame of the explorer (text with ANSI styles, as
// the cast records it) is laid out on a grid of cells by cellbuf — the
// terminal's own reading of it — and each cell drawn in a monospace font
// that has Hangul, so a GIF or an SVG needs nothing but fencelab.

// The fonts: Nanum Gothic Coding (SIL Open Font License 1.1,
// font/NanumGothicCoding-OFL.txt), a coding font whose Latin is half a
// Hangul syllable wide, as a terminal lays them out; a glyph it lacks (✓,
// ✗, −) comes from DejaVu Sans Mono (font/DejaVu-LICENSE.txt). Both are
// Debian's (fonts-nanum, fonts-dejavu-core).
var (
	//go:embed font/NanumGothicCoding.ttf
	nanumCoding []byte
	//go:embed font/DejaVuSansMono.ttf
	dejaVuMono []byte
)

// Cell geometry at the size the pictures are drawn.
const (
	fontSize   = 15 // px
	cellWidth  = 8  // px: half of a Hangul syllable
	cellHeight = 19 // px
	baseline   = 14 // px from a cell's top
)

// The terminal's default colours, where a cell sets none: a dark screen.
var (
	defaultFg = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}
	defaultBg = color.RGBA{0x16, 0x16, 0x1c, 0xff}
)

// typeface is a font and its face at fontSize.
type typeface struct {
	font *sfnt.Font
	face font.Face
}

// has reports whether the font has a glyph of its own for r (a face
// draws a missing one as a box).
func (t typeface) has(r rune) bool {
	i, err := t.font.GlyphIndex(&sfnt.Buffer{}, r)
	return err == nil && i != 0
}

var faces = sync.OnceValues(func() ([]typeface, error) {
	var out []typeface
	for _, data := range [][]byte{nanumCoding, dejaVuMono} {
		f, err := opentype.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("export: font: %w", err)
		}
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: fontSize, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, fmt.Errorf("export: font: %w", err)
		}
		out = append(out, typeface{f, face})
	}
	return out, nil
})

// faceFor is the first face with a glyph for r that fits the width it has
// on the screen, in pixels: Nanum Gothic Coding, then DejaVu Sans Mono. A
// symbol East Asian fonts draw wide (→, ·, ×) takes one cell in a
// terminal, where Nanum's glyph would be cut to a dash; DejaVu's fits.
// Past those, the first face with a glyph at all, then DejaVu's box.
func faceFor(fs []typeface, r rune, width int) font.Face {
	for _, t := range fs {
		if t.has(r) && fits(t, r, width) {
			return t.face
		}
	}
	for _, t := range fs {
		if t.has(r) {
			return t.face
		}
	}
	return fs[len(fs)-1].face
}

// fits reports whether t's glyph for r is no wider than width pixels (and
// a pixel of slack: the fonts' advances are not the grid's).
func fits(t typeface, r rune, width int) bool {
	advance, ok := t.face.GlyphAdvance(r)
	return ok && advance <= fixed.I(width+1)
}

// screenCells lays a frame out on a width×height grid of cells.
func screenCells(frame string, width, height int) *cellbuf.Buffer {
	buf := cellbuf.NewBuffer(width, height)
	cellbuf.SetContent(buf, frame)
	return buf
}

// cellColors are a cell's foreground and background, reverse video and
// faint text applied.
func cellColors(c *cellbuf.Cell) (fg, bg color.RGBA) {
	fg, bg = defaultFg, defaultBg
	if c.Style.Fg != nil {
		fg = rgba(c.Style.Fg)
	}
	if c.Style.Bg != nil {
		bg = rgba(c.Style.Bg)
	}
	if c.Style.Attrs.Contains(cellbuf.ReverseAttr) {
		fg, bg = bg, fg
	}
	if c.Style.Attrs.Contains(cellbuf.FaintAttr) {
		fg = blend(bg, fg, 0.6)
	}
	return fg, bg
}

// rgba is a cell's colour on the screen: the sixteen basic ones as xterm
// shows them (bright blue a readable blue on the dark screen), the others
// as they are.
func rgba(c color.Color) color.RGBA {
	index := -1
	switch c := c.(type) {
	case ansi.BasicColor:
		index = int(c)
	case ansi.ExtendedColor:
		index = int(c)
	}
	if index >= 0 && index < len(xterm) {
		return xterm[index]
	}
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// xterm is xterm's default palette of the sixteen basic colours.
var xterm = [16]color.RGBA{
	{0x00, 0x00, 0x00, 0xff}, {0xcd, 0x00, 0x00, 0xff}, {0x00, 0xcd, 0x00, 0xff}, {0xcd, 0xcd, 0x00, 0xff},
	{0x00, 0x00, 0xee, 0xff}, {0xcd, 0x00, 0xcd, 0xff}, {0x00, 0xcd, 0xcd, 0xff}, {0xe5, 0xe5, 0xe5, 0xff},
	{0x7f, 0x7f, 0x7f, 0xff}, {0xff, 0x00, 0x00, 0xff}, {0x00, 0xff, 0x00, 0xff}, {0xff, 0xff, 0x00, 0xff},
	{0x5c, 0x5c, 0xff, 0xff}, {0xff, 0x00, 0xff, 0xff}, {0x00, 0xff, 0xff, 0xff}, {0xff, 0xff, 0xff, 0xff},
}

// blend is the colour a share t of the way from a to b.
func blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// drawScreen draws a grid of cells at cellWidth×cellHeight a cell: the
// backgrounds, then each glyph in the first face that has it (a wide
// cell, a Hangul syllable, spans two). Bold text is drawn twice, a pixel
// apart.
func drawScreen(buf *cellbuf.Buffer) (*image.RGBA, error) {
	fs, err := faces()
	if err != nil {
		return nil, err
	}
	width, height := buf.Width(), buf.Height()
	img := image.NewRGBA(image.Rect(0, 0, width*cellWidth, height*cellHeight))
	draw.Draw(img, img.Bounds(), image.NewUniform(defaultBg), image.Point{}, draw.Src)
	for y := range height {
		for x := range width {
			c := buf.Cell(x, y)
			if c == nil || c.Width == 0 {
				continue // the right half of a wide cell
			}
			fg, bg := cellColors(c)
			cell := image.Rect(x*cellWidth, y*cellHeight, (x+c.Width)*cellWidth, (y+1)*cellHeight)
			draw.Draw(img, cell, image.NewUniform(bg), image.Point{}, draw.Src)
			if c.Rune == 0 || c.Rune == ' ' {
				continue
			}
			face := faceFor(fs, c.Rune, cell.Dx())
			d := font.Drawer{Dst: img, Src: image.NewUniform(fg), Face: face}
			// Centred in its cell or cells: the fonts' advances differ a
			// little from the grid's.
			advance, _ := face.GlyphAdvance(c.Rune)
			left := fixed.I(cell.Min.X) + (fixed.I(cell.Dx())-advance)/2
			d.Dot = fixed.Point26_6{X: left, Y: fixed.I(cell.Min.Y + baseline)}
			d.DrawString(string(c.Rune))
			if c.Style.Attrs.Contains(cellbuf.BoldAttr) {
				d.Dot = fixed.Point26_6{X: left + fixed.I(1), Y: fixed.I(cell.Min.Y + baseline)}
				d.DrawString(string(c.Rune))
			}
		}
	}
	return img, nil
}
