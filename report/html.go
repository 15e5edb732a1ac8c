package report

import (
	"cmp"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

//go:embed assets/report.html.tmpl assets/report.css assets/report.js
var assets embed.FS

var page = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
	"css": StyleSheet,
	"js":  func() (template.JS, error) { b, err := assets.ReadFile("assets/report.js"); return template.JS(b), err },
}).ParseFS(assets, "assets/report.html.tmpl"))

// StyleSheet is the report page's CSS, which the sweep's page shares.
func StyleSheet() (template.CSS, error) {
	b, err := assets.ReadFile("assets/report.css")
	return template.CSS(b), err
}

// Page is one scenario of a report: the run, its figures rendered as PNGs, and
// the command that reproduces it.
type Page struct {
	Run     Run
	Command string // e.g. "rlsim run boundary-burst --seed 1"
	Images  []Image
}

// Image is a rendered figure.
type Image struct {
	Figure *chart.Figure
	PNG    []byte
}

// NewPage renders the run's figures.
func NewPage(run Run, command string) (Page, error) {
	p := Page{Run: run, Command: command}
	for _, f := range Figures(run) {
		b, err := f.PNG()
		if err != nil {
			return p, fmt.Errorf("%s: %s plot: %w", run.Scenario.Name, f.Name, err)
		}
		p.Images = append(p.Images, Image{Figure: f, PNG: b})
	}
	return p, nil
}

// WriteHTML writes one self-contained HTML page for the pages: styles, script
// and images inline, nothing fetched, so that it works offline and can be
// attached to a review. Several pages get an index at the top.
func WriteHTML(w io.Writer, pages []Page) error {
	doc := htmlDoc{Title: "rlsim report"}
	for i, p := range pages {
		hp := htmlPage(i, p)
		doc.Pages = append(doc.Pages, hp)
	}
	if len(pages) == 1 {
		doc.Title = "rlsim: " + scenarios.Escape(pages[0].Run.Scenario.Name)
	}
	return page.Execute(w, doc)
}

type htmlDoc struct {
	Title string
	Pages []htmlPageData
}

type htmlPageData struct {
	ID          string
	Name        string
	Description string
	Summary     string
	Command     string
	File        string
	YAML        string
	Sets        []string // the --set flags that changed YAML before it ran
	ChecksSum   string   // "2 of 3 passed"; "" without checks
	CheckHead   []string
	CheckRows   [][]string
	Verdicts    []verdict
	Findings    []string
	Head        []string
	Rows        [][]cell
	ClassHead   []string // who was served, by class: as the terminal's table
	ClassRows   [][]string
	Tables      []htmlTable // more tables under the class table: a topology's
	Images      []htmlImage
	Data        pageJSON // handed to the script through the template's JSON escaping
}

// htmlTable is a titled table of text.
type htmlTable struct {
	Title string
	Notes []string
	Head  []string
	Rows  [][]string
	Text3 bool // the third column is text, left-aligned as the first two
}

type cell struct {
	Text string
	Sort string // the value the column sorts by
}

type htmlImage struct {
	Name, Title, Caption string
	Src                  template.URL
}

// pageJSON is what the script gets: the run as results.json has it, and the
// lanes timeline.
type pageJSON struct {
	Run      jsonRun       `json:"run"`
	Timeline *timelineJSON `json:"timeline,omitempty"`
}

func htmlPage(i int, p Page) htmlPageData {
	run := p.Run
	s := run.Scenario
	hp := htmlPageData{ID: fmt.Sprintf("s%d-%s", i+1, s.Name), Name: scenarios.Escape(s.Name), Description: scenarios.Escape(s.Description),
		Command: p.Command, File: scenarios.Escape(s.File), YAML: escapeLines(string(s.Source)), Data: pageJSON{Run: toJSON(run)}}
	for _, img := range p.Images {
		hp.Images = append(hp.Images, htmlImage{Name: img.Figure.Name, Title: img.Figure.Title, Caption: img.Figure.Caption,
			Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(img.PNG))})
	}
	hp.Sets = s.Sets
	if len(run.Checks) > 0 {
		hp.ChecksSum = checksPassed(run.Checks)
		hp.CheckHead, hp.CheckRows = checkRows(run.Checks)
	}
	run.kind().fillPage(&hp)
	return hp
}

func (run comparison) fillPage(hp *htmlPageData) {
	r := *run.Result
	hp.Summary = fmt.Sprintf("%s; %s of traffic, seed %d", describeLimits(r.Limits), FormatDuration(r.Duration), r.Seed)
	hp.Findings = run.Findings()
	for _, l := range r.Lanes {
		hp.Verdicts = append(hp.Verdicts, laneVerdict(r, l))
	}
	hp.Head, hp.Rows = statsTable(r)
	if len(classNames(r)) > 1 {
		ct := classTable(r)
		hp.ClassHead, hp.ClassRows = ct.Head, ct.Rows()
	}
	if t := caughtHTML(r); t != nil {
		hp.Tables = append(hp.Tables, *t)
	}
	if t := partitionsHTML(r); t != nil {
		hp.Tables = append(hp.Tables, *t)
	}
	for _, t := range topologyTables(r, run.topology()) {
		hp.Tables = append(hp.Tables, htmlTable{strings.ToUpper(t.Title[:1]) + t.Title[1:], t.Notes, t.Head, t.Rows(), t.Left == 3})
	}
	if run.Timeline != nil {
		hp.Data.Timeline = newTimelineJSON(r, run.Timeline)
		hp.Data.Timeline.markTopology(run.topology())
		hp.Data.Timeline.markHealth(r)
		hp.Data.Timeline.markFailing(r)
		hp.Data.Timeline.markFleet(r, run.topology())
	}
}

// statsTable is the comparison table of the terminal with more columns; each
// cell carries the raw value it sorts by.
func statsTable(r sim.Result) ([]string, [][]cell) {
	var cols []laneColumn
	var head []string
	for _, c := range laneColumns {
		if c.html != nil && c.html(r) {
			cols = append(cols, c)
			head = append(head, c.head)
		}
	}
	var rows [][]cell
	for i := range r.Lanes {
		row := make([]cell, len(cols))
		for j, c := range cols {
			row[j] = cell{c.text(&r.Lanes[i]), c.sort(i, &r.Lanes[i])}
		}
		rows = append(rows, row)
	}
	return head, rows
}

// verdict is one lane read in plain words.
type verdict struct {
	Lane  string
	Badge string
	Tone  string // "good", "bad" or "note"
	Text  string
}

// laneVerdict says, in a sentence or three, what the lane did: whether it held
// the limit, what it refused, delayed, shed or dropped, what retries cost and
// whom it hurt.
func laneVerdict(r sim.Result, l sim.LaneResult) verdict {
	v := verdict{Lane: l.Title()}
	p := l.Peak
	window := FormatDuration(peakWindow(r))
	var parts []string
	r0 := sim.RatioText(p.Count, p.Limit, false)
	j := judge(l)
	v.Badge, v.Tone = j.badge(r0)
	switch {
	case j.NoLimit:
	case j.NotLimiting:
		parts = append(parts, fmt.Sprintf("Limited nothing in this scenario: it admitted every attempt at once, up to %d in one %s window.",
			p.Count, window))
	case j.Concurrency:
		parts = append(parts, fmt.Sprintf("Limits requests in flight, not a rate: up to %d admitted in one %s window, %s× the limit of %d.",
			p.Count, window, r0, p.Limit))
	case j.Over:
		parts = append(parts, fmt.Sprintf("Let %d through in the %s window from t=%s%s: %s× the limit of %d.",
			p.Count, window, FormatDuration(p.Start), keyPhrase(p.Key), r0, p.Limit))
	default:
		parts = append(parts, fmt.Sprintf("Never more than %d in one %s window (limit %d).", p.Count, window, p.Limit))
	}
	if j.Starved {
		parts = append(parts, "C"+strings.TrimPrefix(starvedSentence(l, j.Class), "c")+".")
	}
	out := fmt.Sprintf("Admitted %s of %s attempts", count(l.Admitted), count(l.Attempts))
	var not []string
	if l.Refused > 0 {
		not = append(not, fmt.Sprintf("refused %s (%d)", count(l.Refused), cmp.Or(l.RefusalStatus, sim.StatusTooManyRequests)))
	}
	if l.Shed > 0 {
		not = append(not, fmt.Sprintf("shed %s (503)", count(l.Shed)))
	}
	if len(not) > 0 {
		out += "; " + list(not)
	}
	parts = append(parts, out+".")
	parts = append(parts, fleetVerdict(l)...)
	parts = append(parts, sheddingVerdict(l)...)
	if len(l.NearLimit) > 0 {
		var ns []string
		for _, n := range l.NearLimit {
			ns = append(ns, fmt.Sprintf("%s %s", scenarios.Escape(n.Limit), count(n.Count)))
		}
		parts = append(parts, "The rate limit service counted near_limit hits: "+strings.Join(ns, ", ")+".")
	}
	if l.Delayed > 0 {
		parts = append(parts, fmt.Sprintf("Delayed %s instead of refusing them (p99 wait %s).", count(l.Delayed), FormatDuration(l.Delay.P99)))
	}
	if l.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("Clients dropped %s locally before sending.", count(l.Dropped)))
	}
	if l.RetryAmplification >= 1.2 {
		parts = append(parts, fmt.Sprintf("Retries made it %s attempts per request; all done at t=%s.",
			trimFloat(l.RetryAmplification, 2), FormatDuration(l.AllDoneAt)))
	}
	if len(l.Classes) > 1 {
		var cs []string
		for _, c := range l.Classes {
			cs = append(cs, fmt.Sprintf("%s %s", scenarios.Escape(c.Name), percent(c.Succeeded, c.Unique)))
		}
		parts = append(parts, "Succeeded: "+strings.Join(cs, ", ")+".")
	}
	if l.Pending > 0 {
		parts = append(parts, fmt.Sprintf("%s requests unfinished at the end.", count(l.Pending)))
	}
	v.Text = strings.Join(parts, " ")
	return v
}

func keyPhrase(k string) string {
	if k == "" || k == "global" {
		return ""
	}
	return " (key " + scenarios.Escape(k) + ")"
}

// timelineJSON is the lanes timeline as the script draws it. Times are integer
// microseconds, to keep the page small; exact lanes carry their ticks in columns
// (one array per field), aggregated lanes their non-empty columns.
type timelineJSON struct {
	EndUS   int64       `json:"end_us"`
	ColUS   int64       `json:"col_us"` // width of an aggregated column
	Keys    []string    `json:"keys"`
	Classes []string    `json:"classes"`
	Limits  []limitJSON `json:"limits"`
	// Rules mark the rule pushes on the time axis (absent without any).
	Rules []ruleMarkJSON `json:"rules,omitempty"`
	// Shadow is true when a limit is a shadow at some time: the legend names its marks.
	Shadow bool `json:"shadow,omitempty"`
	// Refusals are the statuses the lanes refuse with, as the legend says
	// them: "429", or "429 or 503".
	Refusals string `json:"refusals"`
	// Outages shade the store's outages and Replicas mark the autoscaler's
	// steps (absent without a topology that has them).
	Outages  []spanJSON     `json:"outages,omitempty"`
	Replicas []ruleMarkJSON `json:"replicas,omitempty"`
	Lanes    []laneJSON     `json:"lanes"`
	TickCap  int            `json:"tick_cap"`
	Headers  []headerJSON   `json:"headers"` // per lane, the first refusal's, as sim reports them
	Columns  int            `json:"columns"`
	// Responses are the distinct header blocks of the ticks' answers, lines joined
	// by "\n", as sim.ResponseHeaders writes them; a tick points into it.
	Responses []string `json:"responses"`
	// NoHealthy is true when some lane had no replica in the rotation at
	// some time (laneJSON.Down): the legend names its shading.
	NoHealthy bool `json:"no_healthy,omitempty"`
	// StoreFailing is true when some lane had a stretch of failed store calls.
	StoreFailing bool `json:"store_failing,omitempty"`
	// Fleet are the replica rows below the lanes (fleetRows), FleetLegend the
	// kinds of stretch they draw, FleetCut true when more replicas had rows.
	Fleet       []fleetRowJSON    `json:"fleet,omitempty"`
	FleetLegend []fleetLegendJSON `json:"-"`
	FleetCut    bool              `json:"fleet_cut,omitempty"`
}

type limitJSON struct {
	Name     string `json:"name"`
	Limit    int64  `json:"limit"`
	WindowUS int64  `json:"window_us"`
}

// ruleMarkJSON is a rule push as the timeline marks it: when, and what it set.
type ruleMarkJSON struct {
	AtUS  int64  `json:"at_us"`
	Label string `json:"label"`
}

// ruleLabel says in words what a rule push set: "per-user: enforced",
// "per-user: 10 per 1s, burst 10, shadow".
func ruleLabel(r sim.Result, ch sim.RuleChange) string {
	label := r.Limits[ch.Limit].Name + ": "
	if ch.Policy != (algorithms.Policy{}) {
		label += fmt.Sprintf("%d per %s, burst %d, ", ch.Policy.Limit, FormatDuration(ch.Policy.Window), ch.Policy.EffectiveBurst())
	}
	if ch.Shadow {
		return label + "shadow"
	}
	return label + "enforced"
}

type headerJSON struct {
	RateLimit       string `json:"ratelimit"`
	RateLimitPolicy string `json:"ratelimit_policy"`
	RetryAfter      string `json:"retry_after"`
}

type laneJSON struct {
	Lane      string    `json:"lane"`      // its name
	Algorithm string    `json:"algorithm"` // its kind's name
	Refusal   int       `json:"refusal"`   // the HTTP status of its refusals
	Title     string    `json:"title"`
	PeakS     [2]int64  `json:"peak_us"` // the worst window, [start, end)
	Peak      int64     `json:"peak"`
	Limit     int64     `json:"limit"`
	Exact     bool      `json:"exact"`
	Ticks     *ticksArr `json:"ticks,omitempty"`
	Columns   [][]int64 `json:"columns,omitempty"` // [column, admitted, delayed, refused, shed, dropped(, would-be refusals of a shadow limit, when any)]
	// Down, with a health check, are the times no replica was in the rotation.
	Down []spanJSON `json:"down,omitempty"`
	// Failing is the lane's stretches of failed store calls.
	Failing []spanJSON `json:"failing,omitempty"`
}

// ticksArr holds a lane's ticks one field per array, index i for tick i.
type ticksArr struct {
	At         []int64 `json:"t"`  // µs
	Event      []int   `json:"e"`  // sim.TraceEvent
	Client     []int   `json:"c"`  // client index
	Class      []int   `json:"g"`  // index into classes
	Key        []int   `json:"k"`  // index into keys
	Request    []int64 `json:"rq"` // request number
	Attempt    []int   `json:"a"`
	Cost       []int64 `json:"w"`
	Delay      []int64 `json:"d"`           // µs
	RetryAfter []int64 `json:"ra"`          // ns, exact: headers are rounded up from it
	Limit      []int   `json:"l"`           // index into limits, -1 for none
	Shadow     []int   `json:"s,omitempty"` // index into limits of the shadow that would have refused, -1 for none; absent when no tick has one
	Remaining  []int64 `json:"rm"`          // RateLimit remaining, -1 when no limit answered
	Reset      []int64 `json:"rs"`          // ns until the quota is whole
	Response   []int   `json:"h"`           // index into responses: the answer's headers
}

func us(d time.Duration) int64 { return int64(d / time.Microsecond) }

// tickHeaders is the header block a server sends with the answer to tick t, whose
// quota is of limit li (−1 for none), as sim writes it.
func tickHeaders(r sim.Result, t Tick, li int) string {
	if !t.Answered {
		li = -1
	}
	h := sim.ResponseHeaders(r.HeaderStyle, r.Limits, li, t.Remaining, t.Reset, t.RetryAfter)
	return strings.Join(h.Lines, "\n")
}

func newTimelineJSON(r sim.Result, tl *Timeline) *timelineJSON {
	// The axis ends at the last record (or the traffic's end), not at the drain's.
	tj := &timelineJSON{EndUS: us(max(r.Duration, tl.Last()) * 101 / 100), ColUS: us(tl.ColumnWidth()), TickCap: tl.TickCap, Columns: TimelineColumns,
		Refusals: refusalStatuses(r)}
	limitIndex := map[string]int{}
	for i, l := range r.Limits {
		limitIndex[l.Name] = i
		tj.Limits = append(tj.Limits, limitJSON{Name: l.Name, Limit: l.Policy.Limit, WindowUS: us(l.Policy.Window)})
	}
	for _, ch := range r.Rules {
		tj.Rules = append(tj.Rules, ruleMarkJSON{AtUS: us(ch.At), Label: ruleLabel(r, ch)})
	}
	tj.Shadow = hasShadow(r)
	keys, classes, responses := map[string]int{}, map[string]int{}, map[string]int{}
	intern := func(m map[string]int, list *[]string, s string) int {
		i, ok := m[s]
		if !ok {
			i = len(*list)
			m[s] = i
			*list = append(*list, s)
		}
		return i
	}
	for li, l := range r.Lanes {
		lj := laneJSON{Lane: l.Name, Algorithm: l.Lane.String(), Title: l.Title(), PeakS: [2]int64{us(l.Peak.Start), us(l.Peak.End)},
			Peak: l.Peak.Count, Limit: l.Peak.Limit, Refusal: cmp.Or(l.RefusalStatus, sim.StatusTooManyRequests)}
		tj.Headers = append(tj.Headers, headerJSON{l.Headers.RateLimit, l.Headers.RateLimitPolicy, l.Headers.RetryAfter})
		if ticks, ok := tl.Ticks(li); ok {
			lj.Exact = true
			ta := &ticksArr{}
			shadows, anyShadow := make([]int, 0, len(ticks)), false
			for _, t := range ticks {
				si, ok := limitIndex[t.Shadow]
				if !ok || t.Shadow == "" {
					si = -1
				}
				shadows, anyShadow = append(shadows, si), anyShadow || si >= 0
				li, ok := limitIndex[t.Limit]
				if !ok {
					li = -1
				}
				ta.At = append(ta.At, us(t.At))
				ta.Event = append(ta.Event, int(t.Event))
				ta.Client = append(ta.Client, t.Client)
				ta.Class = append(ta.Class, intern(classes, &tj.Classes, t.Class))
				ta.Key = append(ta.Key, intern(keys, &tj.Keys, t.Key))
				ta.Request = append(ta.Request, t.Request)
				ta.Attempt = append(ta.Attempt, t.Attempt)
				ta.Cost = append(ta.Cost, t.Cost)
				ta.Delay = append(ta.Delay, us(t.Delay))
				ta.RetryAfter = append(ta.RetryAfter, int64(t.RetryAfter))
				ta.Limit = append(ta.Limit, li)
				remaining := t.Remaining
				if !t.Answered {
					remaining = -1
				}
				ta.Remaining = append(ta.Remaining, remaining)
				ta.Reset = append(ta.Reset, int64(t.Reset))
				ta.Response = append(ta.Response, intern(responses, &tj.Responses, tickHeaders(r, t, li)))
			}
			if anyShadow {
				ta.Shadow = shadows
			}
			lj.Ticks = ta
		} else {
			for i, c := range tl.Columns(li) {
				if c.Total() > 0 {
					col := []int64{int64(i)}
					for m := range sim.Mark(sim.MarkKinds) { // the page's order: sim's marks
						col = append(col, *c.Of(m))
					}
					if c.Shadow > 0 {
						col = append(col, c.Shadow)
					}
					lj.Columns = append(lj.Columns, col)
				}
			}
		}
		tj.Lanes = append(tj.Lanes, lj)
	}
	if tj.Keys == nil {
		tj.Keys, tj.Classes = []string{}, []string{}
	}
	if tj.Responses == nil {
		tj.Responses = []string{}
	}
	return tj
}
