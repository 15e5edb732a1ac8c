package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// SweepJSONVersion is the version of rlsim sweep's and rlsim run --seeds's
// JSON output; docs/output.md describes it.
const SweepJSONVersion = 1

type jsonSweeps struct {
	Version int         `json:"version"`
	Sweeps  []jsonSweep `json:"sweeps"`
}

type jsonSweep struct {
	Scenario  string            `json:"scenario"`
	Seed      uint64            `json:"seed"`
	Seeds     int               `json:"seeds"`
	Vary      []sweep.Vary      `json:"vary"`
	Points    []jsonPoint       `json:"points"`
	Objective *jsonObjective    `json:"objective,omitempty"`
	Findings  []string          `json:"findings,omitempty"`
	Checks    []jsonSpreadCheck `json:"checks,omitempty"`
}

type jsonObjective struct {
	Find        string          `json:"find"`
	Where       []string        `json:"where"`
	Recommended []jsonRecommend `json:"recommended"`
}

// jsonRecommend is a lane's recommended point; Point is null when none meets every where.
type jsonRecommend struct {
	Lane  string `json:"lane"`
	Point *int   `json:"point"`
	Value string `json:"value,omitempty"`
}

type jsonPoint struct {
	Set   []string        `json:"set"`
	Lanes []jsonSweepLane `json:"lanes"`
}

type jsonSweepLane struct {
	Lane    string                `json:"lane"`
	Title   string                `json:"title"`
	Figures map[string]jsonSpread `json:"figures"`
	Classes []jsonSweepClass      `json:"classes"`
}

type jsonSweepClass struct {
	Class   string                `json:"class"`
	Figures map[string]jsonSpread `json:"figures"`
}

// jsonSpread is a figure over the seeds: mean, the half-width of its 95%
// interval (present with two seeds or more), and how many seeds measured it.
type jsonSpread struct {
	Mean run.Num  `json:"mean"`
	CI95 *run.Num `json:"ci95,omitempty"`
	N    int      `json:"n"`
}

// WriteJSON writes sweeps as versioned JSON.
func WriteJSON(w io.Writer, sweeps []Report) error {
	out := jsonSweeps{Version: SweepJSONVersion, Sweeps: []jsonSweep{}}
	for _, s := range sweeps {
		out.Sweeps = append(out.Sweeps, s.json())
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // a --where reads <= as written
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func (s Report) json() jsonSweep {
	r := s.Result
	js := jsonSweep{Scenario: r.Scenario, Seed: r.Seed, Seeds: r.Seeds, Vary: r.Varies, Points: []jsonPoint{}, Findings: s.Findings()}
	js.Checks = s.jsonChecks()
	if js.Vary == nil {
		js.Vary = []sweep.Vary{}
	}
	var cur *jsonPoint
	for _, rw := range s.rows() {
		if cur == nil || len(js.Points) <= rw.point {
			js.Points = append(js.Points, jsonPoint{Set: s.pointSets(rw.point), Lanes: []jsonSweepLane{}})
			cur = &js.Points[len(js.Points)-1]
		}
		figs := s.jsonFigures(rw)
		if rw.ci < 0 {
			cur.Lanes = append(cur.Lanes, jsonSweepLane{Lane: rw.lane.Lane, Title: rw.lane.Title, Figures: figs, Classes: []jsonSweepClass{}})
			continue
		}
		l := &cur.Lanes[len(cur.Lanes)-1]
		l.Classes = append(l.Classes, jsonSweepClass{Class: rw.class, Figures: figs})
	}
	if s.Objective != nil {
		o := &jsonObjective{Find: s.Objective.Find.Text, Where: []string{}, Recommended: []jsonRecommend{}}
		for _, wh := range s.Objective.Where {
			o.Where = append(o.Where, wh.Flag[len("--where "):])
		}
		for _, rec := range s.Recommend {
			jr := jsonRecommend{Lane: rec.Lane}
			if rec.Point >= 0 {
				p := rec.Point
				jr.Point, jr.Value = &p, rec.Value
			}
			o.Recommended = append(o.Recommended, jr)
		}
		js.Objective = o
	}
	return js
}

func (s Report) pointSets(pi int) []string {
	sets := []string{}
	for i, v := range s.Result.Points[pi].Values {
		sets = append(sets, s.Result.Varies[i].Path+"="+v)
	}
	return sets
}

func (s Report) jsonFigures(rw row) map[string]jsonSpread {
	figs := map[string]jsonSpread{}
	for fi, f := range run.Figures {
		if !rw.applies(f) {
			continue
		}
		sp := s.spread(rw, fi)
		js := jsonSpread{Mean: run.Num(sp.Mean), N: sp.N}
		if sp.N >= 2 {
			h := run.Num(sp.Half)
			js.CI95 = &h
		}
		figs[f.Name] = js
	}
	return figs
}

// WriteCSV writes one row per sweep, point, lane and class (class empty
// for the lane's totals): the scenario, the varied values, then each figure's
// mean and the half-width of its 95% interval (empty with one seed, and both
// empty where the figure does not apply or measured nothing).
func WriteCSV(w io.Writer, sweeps []Report) error {
	cw := csv.NewWriter(w)
	head := []string{"scenario", "point", "set", "lane", "class"}
	for _, f := range run.Figures {
		head = append(head, f.Name+"_mean", f.Name+"_ci95")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range sweeps {
		for _, rw := range s.rows() {
			rec := []string{s.Result.Scenario, strconv.Itoa(rw.point), s.pointLabel(rw.point), rw.lane.Lane, rw.class}
			for fi, f := range run.Figures {
				if !rw.applies(f) {
					rec = append(rec, "", "")
					continue
				}
				sp := s.spread(rw, fi)
				if sp.N == 0 || math.IsNaN(sp.Mean) {
					rec = append(rec, "", "")
					continue
				}
				half := ""
				if sp.N >= 2 {
					half = csvFloat(sp.Half)
				}
				rec = append(rec, csvFloat(sp.Mean), half)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvFloat writes x as the run's CSV does: the shortest form that reads back exactly.
func csvFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
