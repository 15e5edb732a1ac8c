package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// createRequest asks for a session playing a built-in (Builtin), a scenario
// written in the page's editor (YAML), or, with neither, the
// scenario the server was started with; with a product's config pasted
// (Config, read as From: auto or a product), its limits, lanes and chain
// replace the scenario's, as rlsim run --config writes them.
type createRequest struct {
	Builtin string `json:"builtin"`
	YAML    string `json:"yaml"`
	Config  string `json:"config"`
	From    string `json:"from"`
}

// fieldError is one problem of a scenario or of the pasted config, at its
// line (0: no one line).
type fieldError struct {
	Line    int    `json:"line"`
	Field   string `json:"field"`
	Message string `json:"message"`
	Text    string `json:"text"`             // as rlsim run prints it: file:line: field: problem
	Source  string `json:"source,omitempty"` // the editor it is in: scenario or config
}

// warning is a part of the pasted config the scenario cannot say as the
// config does: the session plays, the page shows it under the config.
type warning struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
	Text    string `json:"text"` // as rlsim run --config warns: config:line: problem
}

// sessionReply describes a new session to its page.
type sessionReply struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
	YAML        string      `json:"yaml"`
	Lanes       []laneInfo  `json:"lanes"`
	Limit       limitInfo   `json:"limit"` // the first limit of the chain
	Groups      []groupInfo `json:"groups"`
	Duration    int64       `json:"duration"` // ns: new requests stop here
	End         int64       `json:"end"`      // ns: the run stops here at the latest
	Column      int64       `json:"column"`   // ns of virtual time per column
	Speeds      []int64     `json:"speeds"`   // tenths of real time
	Speed       int         `json:"speed"`
	Warnings    []warning   `json:"warnings,omitempty"` // the pasted config's parts the scenario cannot say
}

type laneInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

type limitInfo struct {
	Name   string `json:"name"`
	Key    string `json:"key"`
	Limit  int64  `json:"limit"`
	Window int64  `json:"window"` // ns
	Burst  int64  `json:"burst"`
}

// groupInfo is a client group; Rate is its clients' rate per second when it
// has a constant or Poisson component the rate slider can change, else 0.
type groupInfo struct {
	Name  string  `json:"name"`
	Count int     `json:"count"`
	Rate  float64 `json:"rate"`
}

// editorFile is the file name errors in the page's editor are reported against.
const editorFile = "editor.yaml"

// configFile is the name the pasted config's lines are reported against, and
// configLabel how the scenario's problems with what it wrote name it.
const (
	configFile  = "config"
	configLabel = "the pasted config"
)

// Sources of a fieldError: the editor a problem is shown under.
const (
	fromScenario = "scenario"
	fromConfig   = "config"
)

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	// The slot first: a creation refused for the cap reads, parses and builds nothing.
	sl, err := s.reserve()
	if err != nil {
		writeJSON(w, http.StatusServiceUnavailable, errorReply{Error: err.Error()})
		return
	}
	defer s.release(sl)
	// A client that sends its request slowly holds the slot no longer than BodyWithin.
	rc := http.NewResponseController(w)
	slow := time.AfterFunc(s.opt.BodyWithin, func() { _ = rc.SetReadDeadline(time.Unix(1, 0)) })
	// JSON escapes a line break in two bytes: room for the escaping of the
	// YAML and of the config, each up to MaxScenarioBytes.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4*s.opt.MaxScenarioBytes+4096))
	if !slow.Stop() {
		writeJSON(w, http.StatusRequestTimeout, errorReply{Error: fmt.Sprintf("the request took over %v to send", s.opt.BodyWithin)})
		return
	}
	if err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorReply{Error: fmt.Sprintf("the request is over %d bytes, the most a scenario and a config may hold here", 2*s.opt.MaxScenarioBytes)})
		return
	}
	var req createRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, errorReply{Error: "the request is not JSON: " + err.Error()})
		return
	}
	if int64(len(req.YAML)) > s.opt.MaxScenarioBytes {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorReply{Error: fmt.Sprintf("the scenario is over %d bytes, the most one may hold here", s.opt.MaxScenarioBytes)})
		return
	}
	if int64(len(req.Config)) > s.opt.MaxScenarioBytes {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorReply{Error: fmt.Sprintf("the config is over %d bytes, the most one may hold here", s.opt.MaxScenarioBytes)})
		return
	}
	cfg, bad := s.importConfig(req)
	if bad != nil {
		writeJSON(w, http.StatusBadRequest, *bad)
		return
	}
	sc, err := s.loadConfigured(req, cfg)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, sourced(scenarioProblems(err), fromScenario))
		return
	}
	if err := checkFootprint(sc, s.opt.MaxSessionBytes); err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorReply{Error: err.Error()})
		return
	}
	if s.onBuild != nil {
		s.onBuild()
	}
	sess, err := newSession(r.Context(), sc, s.opt.Overrides.MaxEvents, s.reproduce(sc))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, scenarioProblems(fmt.Errorf("%s: %w", sc.File, err)))
		return
	}
	sess.maxBytes = s.opt.MaxSessionBytes
	if err := s.register(sess, sl); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, errorReply{Error: err.Error()})
		return
	}
	reply := describe(sess)
	if cfg != nil {
		for _, p := range cfg.Model.Problems {
			reply.Warnings = append(reply.Warnings, warning{Line: p.At.Line, Message: p.Message, Text: p.String()})
		}
	}
	writeJSON(w, http.StatusOK, reply)
}

// importConfig reads the request's pasted config, if any; a config that
// cannot be read is a reply listing its problems, each at its line.
func (s *Server) importConfig(req createRequest) (*run.Config, *errorReply) {
	if req.Config == "" {
		if req.From != "" && req.From != "auto" {
			return nil, &errorReply{Error: "from: " + req.From + " names the product of a config, and none is pasted"}
		}
		return nil, nil
	}
	if req.From != "" && req.From != "auto" && !slices.Contains(importer.Products(), req.From) {
		msg := fmt.Sprintf("from: rlsim reads no %s config yet (it reads %s): pick auto or one of them", req.From, strings.Join(importer.Products(), ", "))
		return nil, &errorReply{Error: msg, Errors: []fieldError{{Message: msg, Text: configFile + ": " + msg, Source: fromConfig}}}
	}
	src := importer.Source{Path: configFile, Data: []byte(req.Config)} // no Read: an include is a problem
	if s.onImport != nil {
		s.onImport()
	}
	m, err := importer.Import(src, req.From)
	if err == nil {
		return run.ConfigFromModel(m, configLabel), nil
	}
	reply := &errorReply{Error: err.Error()}
	var syntax *importer.SyntaxError
	if errors.As(err, &syntax) {
		for _, p := range syntax.Problems {
			reply.Errors = append(reply.Errors, fieldError{Line: p.At.Line, Message: p.Message, Text: p.String(), Source: fromConfig})
		}
	} else {
		reply.Errors = []fieldError{{Message: err.Error(), Text: err.Error(), Source: fromConfig}}
	}
	// A product named that the config is not: say which it looks like.
	if d := importer.Detected(src); req.From != "" && req.From != "auto" && d != "" && d != req.From {
		hint := fmt.Sprintf("this config looks like %s's, not %s's: pick %s or auto", d, req.From, d)
		reply.Error = hint + "\n" + reply.Error
		reply.Errors = append([]fieldError{{Message: hint, Text: configFile + ": " + hint, Source: fromConfig}}, reply.Errors...)
	}
	return nil, reply
}

// sourced is reply with every problem marked as source's.
func sourced(reply errorReply, source string) errorReply {
	for i := range reply.Errors {
		reply.Errors[i].Source = source
	}
	return reply
}

// load reads the scenario a request asks for, with the server's overrides.
func (s *Server) load(req createRequest) (*scenarios.Scenario, error) {
	return s.loadConfigured(req, nil)
}

// loadConfigured is load with cfg, when not nil, written into the scenario as
// rlsim run --config writes it.
func (s *Server) loadConfigured(req createRequest, cfg *run.Config) (*scenarios.Scenario, error) {
	var sc *scenarios.Scenario
	var err error
	switch {
	case req.Builtin != "" && req.YAML != "":
		return nil, errors.New("ask for a built-in or send YAML, not both")
	case cfg != nil:
		sc, err = s.loadWith(req, cfg)
	case req.Builtin != "":
		sc, err = run.Load(run.BuiltinPrefix + req.Builtin)
	case req.YAML != "":
		sc, err = scenarios.Parse(editorFile, []byte(req.YAML))
	case s.opt.First != nil:
		return s.opt.First, s.watchable(s.opt.First) // overrides applied when it was loaded
	default:
		sc, err = scenarios.LoadBuiltin(scenarios.DefaultName)
	}
	if err != nil {
		return nil, err
	}
	if err := s.watchable(sc); err != nil {
		return nil, err
	}
	ov := s.opt.Overrides
	ov.Sets = nil // written into the first scenario only, as rlsim tui does
	if err := ov.Apply([]*scenarios.Scenario{sc}); err != nil {
		return nil, err
	}
	return sc, nil
}

// loadWith is the scenario req asks for with cfg written into it: the
// server's first scenario is read again from its source, with its --sets
// after the config's, as rlsim run --config --set writes them.
func (s *Server) loadWith(req createRequest, cfg *run.Config) (*scenarios.Scenario, error) {
	switch {
	case req.Builtin != "":
		return cfg.Scenario(run.BuiltinPrefix+req.Builtin, nil, nil)
	case req.YAML != "":
		return cfg.Scenario(editorFile, []byte(req.YAML), nil)
	case s.opt.First != nil:
		sets, err := run.ParseSets(s.opt.First.Sets)
		if err != nil {
			return nil, err
		}
		return cfg.Scenario(s.opt.First.File, s.opt.First.Source, sets)
	}
	return cfg.Scenario(run.BuiltinPrefix+scenarios.DefaultName, nil, nil)
}

// watchable checks, before any work, that sc has lanes to watch and no more
// clients than a page may play.
func (s *Server) watchable(sc *scenarios.Scenario) error {
	if sc.Config == nil {
		return fmt.Errorf("%s: a contention study has no lanes to watch: rlsim run prints its results", sc.File)
	}
	clients := 0
	for _, g := range sc.Config.Clients {
		clients += g.Count
	}
	if clients > s.opt.MaxClients {
		return fmt.Errorf("%s: clients: %d in all, more than the %d a page may play; rlsim run takes up to %d", sc.File, clients, s.opt.MaxClients, sim.MaxClients)
	}
	return nil
}

// scenarioProblems is err as the page shows it: each problem of a scenario at
// its line when err holds them, else one message.
func scenarioProblems(err error) errorReply {
	reply := errorReply{Error: err.Error()}
	var list scenarios.Errors
	var one *scenarios.FieldError
	switch {
	case errors.As(err, &list):
		for _, fe := range list {
			reply.Errors = append(reply.Errors, fieldError{Line: fe.Line, Field: fe.Path, Message: fe.Msg, Text: fe.Error()})
		}
	case errors.As(err, &one):
		reply.Errors = append(reply.Errors, fieldError{Line: one.Line, Field: one.Path, Message: one.Msg, Text: one.Error()})
	}
	return reply
}

func describe(sess *session) sessionReply {
	cfg := sess.sim.Config()
	lim := cfg.Limits[0]
	rep := sessionReply{
		ID: sess.id, Name: sess.sc.Name, Description: sess.sc.Description, YAML: string(sess.sc.Source),
		Limit:    limitInfo{Name: lim.Name, Key: lim.Key.String(), Limit: lim.Policy.Limit, Window: int64(lim.Policy.Window), Burst: lim.Policy.EffectiveBurst()},
		Duration: int64(cfg.Duration), End: int64(sess.sim.End()), Column: int64(sess.width),
		Speeds: speeds, Speed: sess.speed,
	}
	for i, k := range cfg.LanesRun() {
		name := cfg.LaneName(i)
		rep.Lanes = append(rep.Lanes, laneInfo{Name: name, Title: sim.LaneTitle(k, name)})
	}
	for _, g := range cfg.Clients {
		gi := groupInfo{Name: g.Name, Count: g.Count}
		for _, a := range g.Arrivals {
			if a.Kind == sim.ArrivalConstant || a.Kind == sim.ArrivalPoisson {
				gi.Rate = float64(a.Rate.Count) / a.Rate.Per.Seconds()
				break
			}
		}
		rep.Groups = append(rep.Groups, gi)
	}
	return rep
}

// events streams the session's frames to its page until the page goes; the
// session ends with the stream.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	sess := s.lookup(w, r)
	if sess == nil {
		return
	}
	if !sess.attached.CompareAndSwap(false, true) {
		writeJSON(w, http.StatusConflict, errorReply{Error: "this session is already shown in another page"})
		return
	}
	defer s.remove(sess)
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeJSON(w, http.StatusInternalServerError, errorReply{Error: "this connection cannot stream"})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	tick := time.NewTicker(s.opt.Frame)
	defer tick.Stop()
	for {
		sess.mu.Lock()
		f := sess.frame()
		sess.mu.Unlock()
		if err := writeEvent(w, f); err != nil {
			return
		}
		flusher.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-sess.poke:
		case <-tick.C:
			sess.mu.Lock()
			playing := sess.playing
			sess.tick(s.opt.Frame)
			sess.mu.Unlock()
			if !playing {
				continue // nothing moved: skip the frame
			}
		}
	}
}

func writeEvent(w io.Writer, f frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "data: %s\n\n", b)
	return err
}

func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	sess := s.lookup(w, r)
	if sess == nil {
		return
	}
	var c command
	dec := json.NewDecoder(io.LimitReader(r.Body, 4096))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		writeJSON(w, http.StatusBadRequest, errorReply{Error: "the control is not a JSON command: " + err.Error()})
		return
	}
	sess.mu.Lock()
	reply, err := sess.apply(c)
	sess.mu.Unlock()
	if refused(w, err, http.StatusBadRequest) {
		return
	}
	sess.wake()
	writeJSON(w, http.StatusOK, reply)
}

func (s *Server) scenarioYAML(w http.ResponseWriter, r *http.Request) {
	sess := s.lookup(w, r)
	if sess == nil {
		return
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	w.Header().Set("Content-Disposition", attachment(sess.sc.Name+".yaml"))
	_, _ = w.Write(sess.sc.Source)
}

func (s *Server) reportHTML(w http.ResponseWriter, r *http.Request) {
	sess := s.lookup(w, r)
	if sess == nil {
		return
	}
	// The report runs the session again with a trace: the bound is checked
	// before any of that work, as every control's is.
	// It runs without the session's mutex: the page plays on meanwhile.
	sess.mu.Lock()
	plan, err := sess.planReport()
	sess.mu.Unlock()
	var b []byte
	if err == nil {
		b, err = plan.reportHTML(r.Context())
		sess.mu.Lock()
		sess.reportDone()
		sess.mu.Unlock()
	}
	if refused(w, err, http.StatusInternalServerError) {
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Disposition", attachment(sess.sc.Name+"-report.html"))
	_, _ = w.Write(b)
}

// reproduce is the command line that runs sc as a page plays it: a built-in by
// its name, a file by its path, the editor's scenario saved as editor.yaml;
// with the server's flags, each quoted for a shell as rlsim run quotes its own
// (run.ShellQuote).
func (s *Server) reproduce(sc *scenarios.Scenario) string {
	arg := sc.File
	if src, ok := scenarios.BuiltinSource(sc.Name); ok && sc.File == sc.Name+".yaml" && bytes.Equal(src, sc.Source) {
		arg = sc.Name
	}
	var flags []string
	if ov := s.opt.Overrides; ov.Seed != nil {
		flags = append(flags, fmt.Sprintf("--seed %d", *ov.Seed))
	}
	if s.opt.Overrides.Lanes != "" {
		flags = append(flags, "--lanes "+run.ShellQuote(s.opt.Overrides.Lanes))
	}
	for _, set := range sc.Sets { // the first scenario's, also when read again with a pasted config
		flags = append(flags, "--set "+run.ShellQuote(set))
	}
	return "rlsim run " + strings.Join(append([]string{run.ShellQuote(arg)}, flags...), " ")
}

// attachment is a Content-Disposition saving a file under name, made safe.
func attachment(name string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, name)
	return `attachment; filename="` + safe + `"`
}

// refused answers err, if there is one, and reports whether it did: 409 for a
// request over the session's budget (errOverBudget), else status.
func refused(w http.ResponseWriter, err error, status int) bool {
	if err == nil {
		return false
	}
	if over := (errOverBudget{}); errors.As(err, &over) {
		status = http.StatusConflict
	}
	writeJSON(w, status, errorReply{Error: err.Error()})
	return true
}
