package sim

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// nginxZone says policy p in nginx's words: Limit per 1s is rate=Nr/s, per 1m
// rate=Nr/m (nginx can say no other window), and burst= is the burst less
// one: rlsim's burst is the most requests admitted at once, as the token
// bucket's and GCRA's, and nginx admits burst+1 at once (so nginx's burst=0
// is burst 1 here; the leaky_bucket lane reads the burst as nginx's burst=).
func nginxZone(p algorithms.Policy, d NginxDelay) (algorithms.NginxZone, error) {
	var unit string
	switch p.Window {
	case time.Second:
		unit = "r/s"
	case time.Minute:
		unit = "r/m"
	default:
		return algorithms.NginxZone{}, fmt.Errorf("nginx: window %v: limit_req's rate= is per second (window 1s) or per minute (window 1m)", p.Window)
	}
	return algorithms.NginxZone{Rate: fmt.Sprintf("%d%s", p.Limit, unit), Burst: p.EffectiveBurst() - 1,
		Delay: d.Delay, NoDelay: d.NoDelay}, nil
}

// newNginxRule is the nginx lane's rule for one limit of its chain.
func newNginxRule(p algorithms.Policy, r laneRule) (*algorithms.Nginx, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("nginx: %w", err)
	}
	z, err := nginxZone(p, r.product().Nginx.of(r.limit))
	if err != nil {
		return nil, err
	}
	return algorithms.NewNginx(z)
}

// maxNginxDelay is the largest delay= an nginx lane takes, as algorithms.NewNginx.
const maxNginxDelay = 1 << 40

// checkNginx reports the nginx settings of a lane (c is its Config) that nginx
// would refuse.
func checkNginx(ck *checker, c *Config) {
	s := c.product.Nginx
	if s == nil {
		return
	}
	check := func(path string, d NginxDelay) {
		if d.Delay < 0 || d.Delay > maxNginxDelay {
			ck.add(path+".delay", "must be in 0..%d, got %d", maxNginxDelay, d.Delay)
		}
		if d.NoDelay && d.Delay != 0 {
			ck.add(path, "delay=%d and nodelay both set: a limit_req directive has one or the other", d.Delay)
		}
	}
	check("nginx", s.Default)
	if len(s.Zones) > len(c.Limits) {
		ck.add("nginx.zones", "%d zones for a chain of %d limits: zone i is limit i's limit_req", len(s.Zones), len(c.Limits))
	}
	for i, z := range s.Zones {
		check(fmt.Sprintf("nginx.zones[%d]", i), z)
	}
}
