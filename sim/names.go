package sim

import "fmt"

// The names below are the ones scenario files, tables and traces use.

var keyNames = [...]string{
	KeyGlobal:   "global",
	KeyIP:       "ip",
	KeyUser:     "user",
	KeyAPIKey:   "api_key",
	KeyTenant:   "tenant",
	KeyEndpoint: "endpoint",
}

var arrivalNames = [...]string{
	ArrivalBurst:         "burst",
	ArrivalConstant:      "constant",
	ArrivalPoisson:       "poisson",
	ArrivalOnOff:         "on_off",
	ArrivalIdleThenBurst: "idle_then_burst",
}

var retryNames = [...]string{
	RetryNone:        "none",
	RetryImmediate:   "immediate",
	RetryFixed:       "fixed",
	RetryExponential: "exponential",
}

var jitterNames = [...]string{
	JitterNone:         "none",
	JitterFull:         "full",
	JitterEqual:        "equal",
	JitterDecorrelated: "decorrelated",
	JitterNoBackoff:    "no_backoff",
}

var retryAfterNames = [...]string{
	RetryAfterHeader: "header",
	RetryAfterExact:  "exact",
}

// RetryAfterNames lists what a client honouring Retry-After may read.
func RetryAfterNames() []string { return append([]string(nil), retryAfterNames[:]...) }

func (m RetryAfterMode) String() string { return name(retryAfterNames[:], int(m), "RetryAfterMode") }

// ParseRetryAfter maps a Retry-After mode's name to its value; ok is false for an unknown name.
func ParseRetryAfter(s string) (RetryAfterMode, bool) {
	k, ok := parse(retryAfterNames[:], s)
	return RetryAfterMode(k), ok
}

var headerStyleNames = [...]string{
	HeadersDraft:  "draft",
	HeadersLegacy: "legacy",
}

// HeaderStyleNames lists the styles of quota headers.
func HeaderStyleNames() []string { return append([]string(nil), headerStyleNames[:]...) }

func (s HeaderStyle) String() string { return name(headerStyleNames[:], int(s), "HeaderStyle") }

// ParseHeaderStyle maps a header style's name to its value; ok is false for an unknown name.
func ParseHeaderStyle(s string) (HeaderStyle, bool) {
	k, ok := parse(headerStyleNames[:], s)
	return HeaderStyle(k), ok
}

var chainNames = [...]string{
	ChainAllOrNothing:       "all_or_nothing",
	ChainChargeUntilRefused: "charge_until_refused",
}

// ChainNames lists the limit chain's charging modes.
func ChainNames() []string { return append([]string(nil), chainNames[:]...) }

func (m ChainMode) String() string { return name(chainNames[:], int(m), "ChainMode") }

// ParseChain maps a chain mode's name to its value; ok is false for an unknown name.
func ParseChain(s string) (ChainMode, bool) {
	k, ok := parse(chainNames[:], s)
	return ChainMode(k), ok
}

var scheduleNames = [...]string{
	ScheduleBaseFirst: "base_first",
	ScheduleBrooker:   "brooker",
}

var serviceNames = [...]string{
	ServiceConstant:    "constant",
	ServiceExponential: "exponential",
}

var traceNames = [...]string{
	TraceAdmit:   "admit",
	TraceDelay:   "delay",
	TraceRefuse:  "refuse",
	TraceDrop:    "drop",
	TraceShed:    "shed",
	TraceSuccess: "success",
}

// String is the lane's scenario-file name, e.g. "token_bucket".
func (k LaneKind) String() string { return k.Info().Name }

// Title is the lane's name for people, e.g. "token bucket".
func (k LaneKind) Title() string { return k.Info().Title }

func (k KeyKind) String() string     { return name(keyNames[:], int(k), "KeyKind") }
func (k ArrivalKind) String() string { return name(arrivalNames[:], int(k), "ArrivalKind") }
func (k RetryKind) String() string   { return name(retryNames[:], int(k), "RetryKind") }
func (k JitterKind) String() string  { return name(jitterNames[:], int(k), "JitterKind") }
func (k ServiceKind) String() string { return name(serviceNames[:], int(k), "ServiceKind") }
func (e TraceEvent) String() string  { return name(traceNames[:], int(e), "TraceEvent") }

// LaneNames, KeyNames, ArrivalNames, RetryNames, JitterNames and ServiceNames list
// the valid names in order, for parsers and error messages.
func LaneNames() []string {
	var names []string
	for _, l := range laneTable[1:] {
		names = append(names, l.Name)
	}
	return names
}
func KeyNames() []string     { return append([]string(nil), keyNames[:]...) }
func ArrivalNames() []string { return append([]string(nil), arrivalNames[:]...) }
func RetryNames() []string   { return append([]string(nil), retryNames[:]...) }
func JitterNames() []string  { return append([]string(nil), jitterNames[:JitterNoBackoff]...) }

// BackoffNames lists the backoff kinds the contention study compares: the jitter
// kinds and no_backoff.
func BackoffNames() []string { return append([]string(nil), jitterNames[:]...) }

// ScheduleNames lists the contention study's backoff schedules.
func ScheduleNames() []string { return append([]string(nil), scheduleNames[:]...) }

func (s Schedule) String() string { return name(scheduleNames[:], int(s), "Schedule") }

// ParseSchedule maps a schedule's name to its value; ok is false for an unknown name.
func ParseSchedule(s string) (Schedule, bool) {
	k, ok := parse(scheduleNames[:], s)
	return Schedule(k), ok
}
func ServiceNames() []string { return append([]string(nil), serviceNames[:]...) }

// ParseLane, ParseKey, ParseArrival, ParseRetry, ParseJitter and ParseService map a
// name to its value; ok is false for an unknown name.
func ParseLane(s string) (LaneKind, bool) {
	k, ok := parse(LaneNames(), s)
	return LaneKind(k + 1), ok
}
func ParseKey(s string) (KeyKind, bool) { k, ok := parse(keyNames[:], s); return KeyKind(k), ok }
func ParseArrival(s string) (ArrivalKind, bool) {
	k, ok := parse(arrivalNames[:], s)
	return ArrivalKind(k), ok
}
func ParseRetry(s string) (RetryKind, bool) {
	k, ok := parse(retryNames[:], s)
	return RetryKind(k), ok
}
func ParseJitter(s string) (JitterKind, bool) {
	k, ok := parse(jitterNames[:], s)
	return JitterKind(k), ok
}
func ParseService(s string) (ServiceKind, bool) {
	k, ok := parse(serviceNames[:], s)
	return ServiceKind(k), ok
}

func name(names []string, i int, typ string) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

func parse(names []string, s string) (int, bool) {
	for i, n := range names {
		if n == s {
			return i, true
		}
	}
	return 0, false
}
