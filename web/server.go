package web

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

//go:embed assets
var assets embed.FS

var index = template.Must(template.ParseFS(assets, "assets/index.html"))

// Options configure a Server. Addr is required; zero limits take the defaults.
type Options struct {
	// Addr is the host:port the server is reached at, as bound: requests whose
	// Host names another are refused (see allowedHost).
	Addr string
	// First is the scenario a new page plays; nil means the default built-in.
	First *scenarios.Scenario
	// Overrides are applied to every scenario a page loads, as rlsim run applies
	// them; their Sets were written into First only. MaxEvents is each session's
	// event budget, checked before a scenario is played and while it plays; 0
	// means DefaultMaxEvents.
	Overrides run.Overrides
	// MaxSessions is how many pages may play at once; 0 means DefaultMaxSessions.
	MaxSessions int
	// MaxScenarioBytes is the largest YAML a page may send; 0 means DefaultMaxScenarioBytes.
	MaxScenarioBytes int64
	// MaxClients is the most clients a page's scenario may have (each lane
	// keeps a state per client); 0 means DefaultMaxClients.
	MaxClients int
	// MaxSessionBytes is the most memory a session may hold, estimated from its
	// scenario before it is built and checked before each control that adds
	// to it; 0 means DefaultMaxSessionBytes. The sessions together hold at
	// most WorstCase.
	MaxSessionBytes int64
	// Frame is the wall time between two frames of a playing session; 0 means 1/30 s.
	Frame time.Duration
	// BodyWithin is how long a creation may take to send its request: it holds
	// a session's slot meanwhile. 0 means 10 s.
	BodyWithin time.Duration
}

// Defaults of Options.
const (
	DefaultMaxSessions      = 8
	DefaultMaxScenarioBytes = 256 << 10
	DefaultMaxEvents        = 50_000_000 // as rlsim run's default budget
	DefaultMaxClients       = 1_000_000
	defaultFrame            = time.Second / 30
	// attachWithin is how long a session waits for its page's stream before it ends.
	attachWithin = 30 * time.Second
)

// Server is the playground's HTTP handler. It is safe for concurrent use; Close
// ends every session.
type Server struct {
	opt      Options
	mux      *http.ServeMux
	mu       sync.Mutex
	sessions map[string]*session
	building int // slots reserved by sessions being built (reserve)
	closing  chan struct{}
	closed   sync.Once
	onEnd    func() // tests: called when a session ends
	onBuild  func() // tests: called as a session's simulation starts being built
	onImport func() // tests: called as a pasted config starts being imported
}

// New returns a Server for opt.
func New(opt Options) *Server {
	opt = opt.withDefaults()
	s := &Server{opt: opt, sessions: map[string]*session{}, closing: make(chan struct{})}
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.page)
	m.Handle("GET /assets/", http.FileServerFS(assets))
	m.HandleFunc("POST /api/sessions", s.create)
	m.HandleFunc("GET /api/sessions/{id}/events", s.events)
	m.HandleFunc("POST /api/sessions/{id}/control", s.control)
	m.HandleFunc("GET /api/sessions/{id}/scenario.yaml", s.scenarioYAML)
	m.HandleFunc("GET /api/sessions/{id}/report.html", s.reportHTML)
	s.mux = m
	return s
}

// withDefaults is opt with every zero limit at its default.
func (opt Options) withDefaults() Options {
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = DefaultMaxSessions
	}
	if opt.MaxScenarioBytes <= 0 {
		opt.MaxScenarioBytes = DefaultMaxScenarioBytes
	}
	if opt.Frame <= 0 {
		opt.Frame = defaultFrame
	}
	if opt.MaxClients <= 0 {
		opt.MaxClients = DefaultMaxClients
	}
	if opt.Overrides.MaxEvents <= 0 {
		opt.Overrides.MaxEvents = DefaultMaxEvents
	}
	if opt.MaxSessionBytes <= 0 {
		opt.MaxSessionBytes = DefaultMaxSessionBytes
	}
	if opt.BodyWithin <= 0 {
		opt.BodyWithin = 10 * time.Second
	}
	return opt
}

// ServeHTTP answers r when its Host and Origin are this server's.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := s.guard(r); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

// Close ends every session and refuses new ones; streams return at once, and
// no session is held after it.
func (s *Server) Close() {
	s.closed.Do(func() { close(s.closing) })
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, sess := range s.sessions {
		sess.unseen.Stop()
		delete(s.sessions, id)
	}
}

// Sessions is how many sessions are open.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

type pageData struct {
	Builtins []scenarios.Builtin
	First    string
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	first := scenarios.DefaultName
	if s.opt.First != nil {
		first = s.opt.First.Name
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := index.Execute(w, pageData{Builtins: playable(), First: first}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// playable lists the built-ins with lanes to watch (not contention studies).
var playable = sync.OnceValue(func() []scenarios.Builtin {
	var list []scenarios.Builtin
	for _, b := range scenarios.Builtins() {
		if sc, err := scenarios.LoadBuiltin(b.Name); err == nil && sc.Config != nil {
			list = append(list, b)
		}
	}
	return list
})

// slot is one of the MaxSessions places, reserved for a session being built.
type slot struct{ taken bool }

// reserve takes a slot for a session about to be built, or refuses when every
// slot is open or being built: concurrent creations never build more sessions
// than the cap. The slot goes to the session (register) or back (release).
func (s *Server) reserve() (*slot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.closing:
		return nil, errors.New("the server is stopping")
	default:
	}
	if len(s.sessions)+s.building >= s.opt.MaxSessions {
		return nil, errTooMany(s.opt.MaxSessions)
	}
	s.building++
	return &slot{}, nil
}

// release gives back a slot that no session took; it does nothing after register.
func (s *Server) release(sl *slot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sl.taken {
		sl.taken = true
		s.building--
	}
}

// register adds sess, built in sl, under a new id.
func (s *Server) register(sess *session, sl *slot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sl.taken {
		panic("web.Server.register: a slot used twice")
	}
	sl.taken = true
	s.building--
	select {
	case <-s.closing:
		return errors.New("the server is stopping")
	default:
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	sess.id = hex.EncodeToString(b[:])
	s.sessions[sess.id] = sess
	sess.unseen = time.AfterFunc(attachWithin, func() {
		if !sess.attached.Load() {
			s.remove(sess)
		}
	})
	return nil
}

func errTooMany(n int) error {
	return errors.New("too many pages are playing (" + strconv.Itoa(n) + " at most): close one and reload")
}

func (s *Server) remove(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[sess.id] == sess {
		sess.unseen.Stop()
		delete(s.sessions, sess.id)
		if s.onEnd != nil {
			s.onEnd()
		}
	}
}

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) *session {
	s.mu.Lock()
	sess := s.sessions[r.PathValue("id")]
	s.mu.Unlock()
	if sess == nil {
		writeJSON(w, http.StatusNotFound, errorReply{Error: "no such session: it ended when its page closed; reload the page"})
	}
	return sess
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// errorReply is the body of a refused request.
type errorReply struct {
	Error string `json:"error"`
	// Errors are a scenario's problems, each at its line.
	Errors []fieldError `json:"errors,omitempty"`
}
