package sim

import (
	"strconv"
)

// The names below are the ones scenario files, tables and traces use: one
// table per enumeration, which its String, its Parse and its list of names read.

var keyEnum = enum[KeyKind]{"KeyKind", []string{
	KeyGlobal:   "global",
	KeyIP:       "ip",
	KeyUser:     "user",
	KeyAPIKey:   "api_key",
	KeyTenant:   "tenant",
	KeyEndpoint: "endpoint",
}}

var arrivalEnum = enum[ArrivalKind]{"ArrivalKind", []string{
	ArrivalBurst:         "burst",
	ArrivalConstant:      "constant",
	ArrivalPoisson:       "poisson",
	ArrivalOnOff:         "on_off",
	ArrivalIdleThenBurst: "idle_then_burst",
}}

var retryEnum = enum[RetryKind]{"RetryKind", []string{
	RetryNone:        "none",
	RetryImmediate:   "immediate",
	RetryFixed:       "fixed",
	RetryExponential: "exponential",
}}

// jitterEnum holds the jitter kinds and, last, no_backoff, which only the
// contention study names.
var jitterEnum = enum[JitterKind]{"JitterKind", []string{
	JitterNone:         "none",
	JitterFull:         "full",
	JitterEqual:        "equal",
	JitterDecorrelated: "decorrelated",
	JitterNoBackoff:    "no_backoff",
}}

var retryAfterEnum = enum[RetryAfterMode]{"RetryAfterMode", []string{
	RetryAfterHeader: "header",
	RetryAfterExact:  "exact",
}}

var headerStyleEnum = enum[HeaderStyle]{"HeaderStyle", []string{
	HeadersDraft:  "draft",
	HeadersLegacy: "legacy",
}}

var chainEnum = enum[ChainMode]{"ChainMode", []string{
	ChainAllOrNothing:       "all_or_nothing",
	ChainChargeUntilRefused: "charge_until_refused",
}}

var scheduleEnum = enum[Schedule]{"Schedule", []string{
	ScheduleBaseFirst: "base_first",
	ScheduleBrooker:   "brooker",
}}

var serviceEnum = enum[ServiceKind]{"ServiceKind", []string{
	ServiceConstant:    "constant",
	ServiceExponential: "exponential",
}}

var disciplineEnum = enum[QueueDiscipline]{"QueueDiscipline", []string{
	QueueFIFO: "fifo",
	QueueLIFO: "lifo",
}}

var storeOutcomeEnum = enum[StoreOutcome]{"StoreOutcome", []string{
	StoreNoCall:      "",
	StoreAnswered:    "answered",
	StoreTimedOut:    "timed_out",
	StoreDown:        "refused",
	StoreQueueFull:   "queue_full",
	StoreOutOfMemory: "oom",
}}

var traceEnum = enum[TraceEvent]{"TraceEvent", []string{
	TraceAdmit:   "admit",
	TraceDelay:   "delay",
	TraceRefuse:  "refuse",
	TraceDrop:    "drop",
	TraceShed:    "shed",
	TraceSuccess: "success",
}}

func (k KeyKind) String() string         { return keyEnum.name(k) }
func (k ArrivalKind) String() string     { return arrivalEnum.name(k) }
func (k RetryKind) String() string       { return retryEnum.name(k) }
func (k JitterKind) String() string      { return jitterEnum.name(k) }
func (k ServiceKind) String() string     { return serviceEnum.name(k) }
func (e TraceEvent) String() string      { return traceEnum.name(e) }
func (o StoreOutcome) String() string    { return storeOutcomeEnum.name(o) }
func (m RetryAfterMode) String() string  { return retryAfterEnum.name(m) }
func (s HeaderStyle) String() string     { return headerStyleEnum.name(s) }
func (m ChainMode) String() string       { return chainEnum.name(m) }
func (s Schedule) String() string        { return scheduleEnum.name(s) }
func (d QueueDiscipline) String() string { return disciplineEnum.name(d) }

func KeyNames() []string         { return keyEnum.list() }
func ArrivalNames() []string     { return arrivalEnum.list() }
func RetryNames() []string       { return retryEnum.list() }
func JitterNames() []string      { return jitterEnum.list()[:JitterNoBackoff] }
func ServiceNames() []string     { return serviceEnum.list() }
func RetryAfterNames() []string  { return retryAfterEnum.list() }
func HeaderStyleNames() []string { return headerStyleEnum.list() }
func ChainNames() []string       { return chainEnum.list() }
func ScheduleNames() []string    { return scheduleEnum.list() }
func DisciplineNames() []string  { return disciplineEnum.list() }

// BackoffNames lists the backoff kinds the contention study compares: the jitter
// kinds and no_backoff.
func BackoffNames() []string { return jitterEnum.list() }

// ParseKey, ParseArrival, ParseRetry, ParseJitter, ParseService,
// ParseRetryAfter, ParseHeaderStyle, ParseChain and ParseSchedule map a name
// to its value, as ParseLane does a lane's; ok is false for an unknown name.
func ParseKey(s string) (KeyKind, bool)                { return keyEnum.parse(s) }
func ParseArrival(s string) (ArrivalKind, bool)        { return arrivalEnum.parse(s) }
func ParseRetry(s string) (RetryKind, bool)            { return retryEnum.parse(s) }
func ParseJitter(s string) (JitterKind, bool)          { return jitterEnum.parse(s) }
func ParseService(s string) (ServiceKind, bool)        { return serviceEnum.parse(s) }
func ParseRetryAfter(s string) (RetryAfterMode, bool)  { return retryAfterEnum.parse(s) }
func ParseHeaderStyle(s string) (HeaderStyle, bool)    { return headerStyleEnum.parse(s) }
func ParseChain(s string) (ChainMode, bool)            { return chainEnum.parse(s) }
func ParseSchedule(s string) (Schedule, bool)          { return scheduleEnum.parse(s) }
func ParseDiscipline(s string) (QueueDiscipline, bool) { return disciplineEnum.parse(s) }

func itoa(i int) string {
	return strconv.Itoa(i)
}
