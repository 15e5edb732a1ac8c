package conform

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// WriteGateway writes r as a table, one row per lane, then the first
// differences of each lane in full.
func WriteGateway(w io.Writer, r GatewayRun) error {
	var b strings.Builder
	fmt.Fprintf(&b, "conform: %s (seed %d) against the gateway at %s, path %s, key in %s\n", r.Scenario, r.Seed, r.URL, r.Path, r.KeyHeader)
	for _, c := range r.Lanes {
		instants := "the instants the requests were sent"
		if c.Clock == "access log" {
			instants = "the arrivals the access log " + r.AccessLog + " gives"
		}
		fmt.Fprintf(&b, "%s: the lane decides at %s, t=0 at %s; refused: %s; admitted: 2xx; any other status or no answer: no decision\n",
			laneTitle(c), instants, time.Unix(0, c.StartUnixNS).UTC().Format("2006-01-02T15:04:05.000Z"), refusals(c.RefusalStatus))
	}
	tol := time.Duration(0)
	if len(r.Lanes) > 0 {
		tol = r.Lanes[0].ToleranceNS
	}
	fmt.Fprintf(&b, "tolerance %v: a differing verdict is within it when the lane gives the gateway's with the request at its instant ± %v\n\n", tol, tol)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "lane\tsent\tagreed\twithin tolerance\tdiffered\tno decision\tadmitted lane/gateway\tmax skew\tlane delayed (max)\tanswer p50\tanswer max")
	for _, c := range r.Lanes {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%d/%d\t%v\t%d (%v)\t%v\t%v\n", c.Lane, c.Sent, c.Agreed, c.Within, c.Differed, noDecision(c),
			c.LaneAdmitted, c.GatewayAdmitted, c.MaxSkewNS.Round(time.Microsecond), c.LaneDelayed, c.MaxLaneDelayNS,
			c.AnswerP50NS.Round(time.Microsecond), c.AnswerMaxNS.Round(time.Microsecond))
	}
	tw.Flush()
	for _, c := range r.Lanes {
		if len(c.Diffs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: the first %d requests decided differently or not at all:\n", c.Lane, len(c.Diffs))
		for _, d := range c.Diffs {
			fmt.Fprintf(&b, "  request %s key %s at t=%v (decided at t=%v): gateway %s; lane %s: %s\n", d.ID, d.Key, d.AtNS, d.InstantNS,
				gatewayAnswer(d), verdict(d.LaneAdmitted, d.LaneRetryAfterNS), d.Outcome)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// refusals names the statuses that are refusals: the lane's, 429 and 503.
func refusals(lane int) string {
	switch lane {
	case 429, 503:
		return fmt.Sprintf("status 429 or 503 (the lane's: %d)", lane)
	}
	return fmt.Sprintf("status %d (the lane's), 429 or 503", lane)
}

func laneTitle(c GatewayCheck) string {
	if c.Product == "" {
		return "lane " + c.Lane
	}
	return fmt.Sprintf("lane %s (%s)", c.Lane, c.Product)
}

func noDecision(c GatewayCheck) string {
	if c.NotLogged == 0 {
		return fmt.Sprint(c.NoDecision)
	}
	return fmt.Sprintf("%d (%d answered requests not in the access log, taken at their send)", c.NoDecision, c.NotLogged)
}

func gatewayAnswer(d GatewayDiff) string {
	if d.Status == 0 {
		return "no answer (" + d.Error + ")"
	}
	s := fmt.Sprint(d.Status)
	if d.GatewayRetryAfter != "" {
		s += " (Retry-After " + d.GatewayRetryAfter + ")"
	}
	if d.Error != "" {
		s += " (" + d.Error + ")"
	}
	return s
}

// WriteGatewayJSON writes r as one indented JSON document: durations in
// nanoseconds, a Retry-After of -1 for never.
func WriteGatewayJSON(w io.Writer, r GatewayRun) error {
	r.Lanes = slices.Clone(r.Lanes)
	if r.Lanes == nil {
		r.Lanes = []GatewayCheck{}
	}
	for i := range r.Lanes {
		r.Lanes[i].Diffs = slices.Clone(r.Lanes[i].Diffs)
		if r.Lanes[i].Diffs == nil {
			r.Lanes[i].Diffs = []GatewayDiff{}
		}
		for j := range r.Lanes[i].Diffs {
			if d := &r.Lanes[i].Diffs[j]; d.LaneRetryAfterNS == algorithms.Never {
				d.LaneRetryAfterNS = -1
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadGatewayJSON reads what WriteGatewayJSON wrote.
func ReadGatewayJSON(rd io.Reader) (GatewayRun, error) {
	var r GatewayRun
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return GatewayRun{}, fmt.Errorf("conform: reading a gateway check: %w", err)
	}
	for i := range r.Lanes {
		for j := range r.Lanes[i].Diffs {
			if d := &r.Lanes[i].Diffs[j]; d.LaneRetryAfterNS == -1 {
				d.LaneRetryAfterNS = algorithms.Never
			}
		}
	}
	return r, nil
}
