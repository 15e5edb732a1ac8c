// Package web is rlsim's browser playground, served by "rlsim serve".
//
// A Server plays scenarios through the same engine as "rlsim run": each page
// opens a session, a sim.Simulation that the server advances in paced virtual
// time and streams to the page as Server-Sent Events, one frame of aggregates
// per tick (each lane's live figures and the time columns that changed), never
// one message per request. The page only draws. Its controls (play, pause,
// step, speed, fire a burst, the limit, window, burst and rate sliders) are
// requests the session applies at its current virtual time, through
// sim.Simulation's ChangeRule, Inject and ChangeRate.
//
// It is safe by default: it answers only requests whose Host names the address
// it serves (so a DNS-rebinding page cannot reach it) and whose Origin, when
// sent, is its own; sessions, each session's events and a scenario's size are
// capped, and so is its memory: a session takes its slot before anything is
// built, its scenario's footprint is estimated before it is built, and every
// control that adds to it is checked first, so that the server holds at most
// Options.WorstCase whatever its pages do (budget.go). A session ends when its
// page's stream closes. Assets are embedded: the page fetches nothing from the
// network.
package web
