package sweep

import (
	_ "embed"
	"encoding/base64"
	"html/template"
	"io"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
)

//go:embed assets/sweep.html.tmpl
var sweepTemplateText string

var sweepTemplate = template.Must(template.New("sweep").Parse(sweepTemplateText))

type sweepPage struct {
	Heading string // rlsim sweep, or rlsim run --seeds for sweeps of one point
	Title   string
	CSS     template.CSS
	Sweeps  []sweepSection
}

type sweepSection struct {
	Scenario, Describe  string
	Command             string // the command that runs the sweep again; "": not known
	Recommend, Findings []string
	Images              []sweepImage
	Head                []string
	Head0               bool // the table starts with the varied values
	Left                int  // the table's first columns (values, lane) align left
	Points              []sweepPointRows
}

type sweepImage struct {
	Src                   template.URL
	Title, Caption, Width string
}

type sweepPointRows struct{ Rows []sweepRow }

type sweepRow struct {
	Recommended bool
	Cells       []string
}

// sweepHTMLFigures are the figures the page's table shows per class.
var sweepHTMLFigures = []struct{ name, head string }{
	{"success_rate", "success"},
	{"refused_rate", "refused"},
	{"admitted_rate", "admitted"},
}

// WriteHTML writes one self-contained page of sweeps: what ran, the
// recommendations and findings, the plots (images inline) and a table with, at
// each point, each lane's outcome per client class.
func WriteHTML(w io.Writer, sweeps []Report, images [][]report.Image) error {
	css, err := report.StyleSheet()
	if err != nil {
		return err
	}
	page := sweepPage{CSS: css, Heading: "rlsim run --seeds"}
	for i, s := range sweeps {
		if i == 0 {
			page.Title = s.Result.Scenario
		}
		if len(s.Result.Varies) > 0 {
			page.Heading = "rlsim sweep"
		}
		page.Sweeps = append(page.Sweeps, s.section(images[i]))
	}
	return sweepTemplate.Execute(w, page)
}

func (s Report) section(images []report.Image) sweepSection {
	sec := sweepSection{Scenario: s.Result.Scenario, Describe: s.describe(), Command: s.Command, Findings: append(s.Findings(), s.spreadCheckLines()...)}
	if lines := s.recommendationLines(); len(lines) > 0 {
		sec.Recommend = lines[1:]
		sec.Describe += "; " + lines[0]
	}
	for _, img := range images {
		sec.Images = append(sec.Images, sweepImage{Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(img.PNG)),
			Title: img.Figure.Title, Caption: img.Figure.Caption, Width: "1100"})
	}
	for _, v := range s.Result.Varies {
		sec.Head = append(sec.Head, v.Path)
	}
	sec.Head0 = len(sec.Head) > 0
	sec.Head = append(sec.Head, "lane")
	sec.Left = len(sec.Head)
	var classes []string
	if len(s.Result.Points) > 0 && len(s.Result.Points[0].Runs) > 0 {
		for _, c := range s.Result.Points[0].Runs[0].Lanes[0].Classes {
			classes = append(classes, c.Name)
		}
	}
	for _, c := range classes {
		for _, f := range sweepHTMLFigures {
			sec.Head = append(sec.Head, c+" "+f.head)
		}
	}
	sec.Head = append(sec.Head, "vs limit")
	recommended := map[[2]int]bool{}
	for _, rec := range s.Recommend {
		if rec.Point >= 0 {
			recommended[[2]int{rec.Point, laneIndex(s.Result.Points[rec.Point], rec.Lane)}] = true
		}
	}
	peak := run.FigureIndex("peak_ratio")
	for pi, pt := range s.Result.Points {
		var rows sweepPointRows
		for li, l := range pt.Runs[0].Lanes {
			cells := append([]string(nil), pt.Values...)
			cells = append(cells, l.Title)
			for ci := range l.Classes {
				for _, f := range sweepHTMLFigures {
					cells = append(cells, formatSpread(f.name, s.spread(row{point: pi, li: li, ci: ci}, run.FigureIndex(f.name)), s.Result.Seeds))
				}
			}
			cells = append(cells, formatSpread("peak_ratio", s.spread(row{point: pi, li: li, ci: -1}, peak), s.Result.Seeds))
			rows.Rows = append(rows.Rows, sweepRow{Recommended: recommended[[2]int{pi, li}], Cells: cells})
		}
		sec.Points = append(sec.Points, rows)
	}
	return sec
}
