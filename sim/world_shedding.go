package sim

import "time"

// Criticality is how much a client group's requests matter when the service
// must shed load, in the names of Google's RPC criticality (the SRE book,
// "Handling Overload"): critical_plus, critical, sheddable_plus, sheddable,
// most critical first. The zero value is critical, the default.
type Criticality uint8

const (
	Critical Criticality = iota
	CriticalPlus
	SheddablePlus
	Sheddable
)

// criticalities are the criticalities, most critical first.
var criticalities = [...]Criticality{CriticalPlus, Critical, SheddablePlus, Sheddable}

// rank is c's place in criticalities: 0 is the most critical.
func (c Criticality) rank() int {
	switch c {
	case CriticalPlus:
		return 0
	case Critical:
		return 1
	case SheddablePlus:
		return 2
	}
	return 3
}

var criticalityEnum = enum[Criticality]{"Criticality", []string{
	Critical:      "critical",
	CriticalPlus:  "critical_plus",
	SheddablePlus: "sheddable_plus",
	Sheddable:     "sheddable",
}}

func (c Criticality) String() string { return criticalityEnum.name(c) }

// CriticalityNames are the criticalities' names, most critical first.
func CriticalityNames() []string {
	var out []string
	for _, c := range criticalities {
		out = append(out, c.String())
	}
	return out
}

// ParseCriticality is the criticality named s; ok is false for an unknown name.
func ParseCriticality(s string) (Criticality, bool) { return criticalityEnum.parse(s) }

// Shedding is the service's load shedders (Backend.Shedding), which answer
// 503 to requests the chain admitted before they reach the backend, by their
// criticality (ClientGroup.Criticality), as Stripe's fleet usage and worker
// utilisation load shedders do (stripe.com/blog/rate-limiters). The fleet
// usage shedder decides first, then the utilisation shedder. Nil fields are
// absent shedders.
type Shedding struct {
	FleetUsage  *FleetUsage
	Utilisation *UtilisationShedding
	// RetryAfter is the Retry-After of a shed request's 503; zero sends the
	// backend's (Backend.RetryAfter), if it sends one.
	RetryAfter time.Duration
}

// FleetUsage keeps a share of the workers for the most critical requests:
// while the requests in the backend (served and queued) are at least
// (1 − Reserve) × its capacity, every request less critical than Keep is
// shed. Stripe reserves about a fifth of its fleet for critical requests.
type FleetUsage struct {
	Reserve float64     // in (0, 1)
	Keep    Criticality // the least critical kept; the zero value is critical
}

// UtilisationShedding sheds the least critical requests first while the
// service is overloaded: while busy workers are at least Threshold of the
// capacity, or the oldest queued request has waited at least QueueAge (the
// set ones). Overload sheds sheddable at once, then after each further
// Escalate of overload one criticality more (sheddable_plus, then critical);
// critical_plus is never shed by it. Overload ending ends the shedding. At
// one instant the shedder sheds at least what it shed earlier in it, so that
// once it shed a criticality it serves none less critical then.
type UtilisationShedding struct {
	Threshold float64       // share of busy workers in (0, 1]; zero: not watched
	QueueAge  time.Duration // zero: not watched
	Escalate  time.Duration // zero means 1s
}

// ShedderNames are the names of the shedders in results and traces, in the
// order they decide.
var ShedderNames = [...]string{"fleet_usage", "utilisation"}
