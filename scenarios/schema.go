package scenarios

// The types below are the scenario file format. Each field's tags drive the
// decoder, the validation of single values, the JSON Schema and the saved YAML, so
// the format is written down once:
//
//	yaml:"name"        the field's name in the file
//	doc:"..."          its description (JSON Schema, and checked against docs/scenarios.md)
//	enum:"lane"        its value (or each element) must be one of the names sim defines
//	check:"positive"   the number or duration must be > 0 ("nonneg": >= 0)
//	required:"true"    the field must be present (kind-specific rules are in convert.go)

// fileSpec is a whole scenario file.
type fileSpec struct {
	Description string    `yaml:"description,omitempty" doc:"one line saying what the scenario's results show (shown escaped: no control character reaches the terminal)"`
	Duration    *Duration `yaml:"duration,omitempty" check:"positive" doc:"how long new requests may start (default 10s); retries and queues then drain"`
	Drain       *Duration `yaml:"drain,omitempty" check:"positive" doc:"how long after duration retries and queues may still run (default the duration)"`
	Seed        *uint64   `yaml:"seed,omitempty" doc:"seed of every random stream (default 1); the same seed gives the same result"`
	Start       WallTime  `yaml:"start,omitempty" doc:"the wall-clock instant of t=0, RFC 3339 (2026-12-01T09:00:00Z), for the product lanes whose windows follow the clock or the calendar (default 1970-01-01T00:00:00Z)"`
	Bucket      *Duration `yaml:"bucket,omitempty" check:"positive" doc:"width of the time-series buckets (default about duration/200, at least 1ms, tiling the first limit's window)"`

	Limits      []limitSpec         `yaml:"limits,omitempty" doc:"the limit chain a request passes, most specific first (default one global limit of 10 per 1s)"`
	HeaderStyle string              `yaml:"header_style,omitempty" enum:"header_style" doc:"how the server writes quota headers: draft (RateLimit and RateLimit-Policy, draft-ietf-httpapi-ratelimit-headers-11) or legacy (X-RateLimit-Limit, -Remaining, -Reset) (default draft)"`
	Chain       string              `yaml:"chain,omitempty" enum:"chain" doc:"how a chain of several limits charges a request: all_or_nothing (a refusal by any limit is counted by none) or charge_until_refused (limits before the refusing one count it) (default all_or_nothing)"`
	Lanes       []laneSpec          `yaml:"lanes,omitempty" doc:"the limiting strategies to compare, in order (default the eight up to client_throttle): an algorithm's name, or a variant of one with a name and settings of its own"`
	Overrides   []overrideSpec      `yaml:"overrides,omitempty" doc:"another policy for one lane and one limit of the chain, e.g. a deeper leaky queue"`
	AIMD        *aimdSpec           `yaml:"aimd,omitempty" doc:"settings of the AIMD concurrency lane"`
	Throttle    *throttleSpec       `yaml:"throttle,omitempty" doc:"settings of the client-throttling lane"`
	Vegas       *vegasSpec          `yaml:"vegas,omitempty" doc:"settings of the Vegas concurrency lane (not run unless lanes names vegas)"`
	Gradient2   *gradient2Spec      `yaml:"gradient2,omitempty" doc:"settings of the Gradient2 concurrency lane (not run unless lanes names gradient2)"`
	Partitions  []concPartitionSpec `yaml:"partitions,omitempty" doc:"shares of the concurrency lanes' limit (aimd, vegas, gradient2) guaranteed to classes of clients once the limit is full (default none: one limit for all)"`

	Clients []clientSpec `yaml:"clients,omitempty" doc:"the client population: groups of identical clients"`
	Backend *backendSpec `yaml:"backend,omitempty" doc:"the service behind the limiter (default none: answers at once)"`

	Topology *topologySpec `yaml:"topology,omitempty" doc:"replicas behind a load balancer and the store that shared and synced limits keep their state in (default none: one perfect limiter)"`

	Checks []checkSpec `yaml:"checks,omitempty" doc:"pass/fail thresholds on the results: rlsim run prints each and exits with status 1 when any fails"`

	Contention *contentionSpec `yaml:"contention,omitempty" doc:"makes the file an optimistic-concurrency backoff study instead of a limiter comparison"`
}

type limitSpec struct {
	Name        string     `yaml:"name,omitempty" doc:"names the limit in refusals (default the key)"`
	Key         string     `yaml:"key,omitempty" enum:"key" doc:"what the limit counts by (default global)"`
	Limit       int64      `yaml:"limit,omitempty" check:"positive" doc:"cost units admitted per window (required unless concurrency is given)"`
	Concurrency int64      `yaml:"concurrency,omitempty" check:"positive" doc:"instead of limit and window: a concurrency limit, at most this many requests of a key in flight at once (Stripe's concurrent requests limiter, nginx limit_conn, HAProxy maxconn), whatever their cost; a request holds its place from its admission (delayed or not) until its answer (the backend's, or a later limit's refusal; with no backend at once), refused while every place is taken, with no Retry-After and no quota headers; never the first limit, not with a topology"`
	Window      *Duration  `yaml:"window,omitempty" check:"positive" doc:"the window the limit is stated over (default 1s)"`
	Burst       int64      `yaml:"burst,omitempty" check:"nonneg" doc:"largest burst, in cost units (default the limit)"`
	Headers     string     `yaml:"headers,omitempty" enum:"limit_headers" doc:"sent: the limit appears in the quota headers; none: it never does, so clients cannot read how fast to probe (default sent)"`
	Enforce     *bool      `yaml:"enforce,omitempty" doc:"false makes the limit a shadow (dry run, as nginx limit_req_dry_run): it counts the requests it would refuse and lets them go on, sends no quota headers and delays nothing; its state is charged as if it enforced (default true)"`
	Endpoint    string     `yaml:"endpoint,omitempty" doc:"the limit counts only requests to this endpoint (clients whose identity.endpoint is it); the others pass it as if it were not in the chain (default every request)"`
	Changes     []ruleSpec `yaml:"changes,omitempty" doc:"rule pushes for this limit, in time order: from at on, a new limit, window, burst or enforcement; a new limit, window or burst starts every key afresh, a change of enforcement alone keeps the state"`

	State        string        `yaml:"state,omitempty" enum:"state" doc:"with a topology: where the limit's state lives: local (each replica counts alone), shared (one state in the store, a store call per decision) or synced (counted locally, synced with the store every sync_interval) (default local)"`
	LocalLimit   string        `yaml:"local_limit,omitempty" enum:"local_limit" doc:"state local: each replica enforces the full limit, or divided: its share of the limit (and burst) over the current replica count, shares differing by at most 1 and summing to the limit, so the fleet never admits more; with fewer per window than replicas some replicas have none and refuse (validate warns); divided anew at each autoscaler step (default full)"`
	SyncInterval *Duration     `yaml:"sync_interval,omitempty" check:"positive" doc:"state synced: how often each replica pushes its admissions to the store and pulls the global state (required for synced, at least 1ms)"`
	OnStoreError string        `yaml:"on_store_error,omitempty" enum:"fail_mode" doc:"state shared: what the limit decides when the store fails (outage or timeout): open (admit), closed (refuse) or local (decide on the fallback policy, per replica) (default open)"`
	Fallback     *fallbackSpec `yaml:"fallback,omitempty" doc:"on_store_error local: the policy each replica enforces alone while the store fails, whole or divided over the current replica count"`
	Store        string        `yaml:"store,omitempty" doc:"state shared: the store the limit keeps its state in, by its name in topology.stores (a separate store for abuse limits); the shared limits counting one client group are on one store (default topology.store)"`
}

type fallbackSpec struct {
	Limit   int64     `yaml:"limit" required:"true" check:"positive" doc:"cost units admitted per window, per replica (the fleet's with divided)"`
	Window  *Duration `yaml:"window,omitempty" check:"positive" doc:"the window (default the limit's)"`
	Burst   int64     `yaml:"burst,omitempty" check:"nonneg" doc:"largest burst, in cost units (default the fallback's limit)"`
	Divided bool      `yaml:"divided,omitempty" doc:"true: limit and burst are the fleet's, each replica enforcing its share over the current replica count (as local_limit divided), divided anew at each autoscaler step; false: each replica enforces them whole (default false)"`
}

type topologySpec struct {
	Replicas   *int             `yaml:"replicas,omitempty" check:"positive" doc:"replicas behind the load balancer from the start (default 1; at most 1000)"`
	Autoscaler []replicaStep    `yaml:"autoscaler,omitempty" doc:"later fleet sizes, in time order: from at on, count replicas (a replica that leaves takes its local state with it, one that joins starts with none)"`
	Routing    string           `yaml:"routing,omitempty" enum:"routing" doc:"how the load balancer picks a replica for each attempt: round_robin, random (seeded) or hash (sticky by hash_key, modulo the current count) (default round_robin)"`
	HashKey    string           `yaml:"hash_key,omitempty" enum:"key" doc:"routing hash: the key hashed (default ip)"`
	Store      *storeSpec       `yaml:"store,omitempty" doc:"the store of shared and synced limits (default atomic, instantaneous, never down)"`
	Stores     []namedStoreSpec `yaml:"stores,omitempty" doc:"stores of their own for the shared limits that name one (store: on the limit), each with its own latency, timeout, capacity, queue, shards, memory, outages and changes, its own phases and shards in the results; the breaker, refusal cache, leases, atomic check, restarts and partitions are topology.store's, for every store (default none; at most 8)"`
	Health     *healthSpec      `yaml:"health,omitempty" doc:"the load balancer's health check: a probe to every replica every interval, through its chain (every limit that counts requests to the endpoint counts it); a replica leaves the rotation after unhealthy_after failed probes in a row (refused: 429 or 503) and returns after healthy_after passed ones; with none in the rotation every request gets 503 (default none: every replica always in the rotation)"`
}

type healthSpec struct {
	Endpoint       string    `yaml:"endpoint,omitempty" doc:"the endpoint probed: limits with this endpoint, and those with none, count the probes (default /health)"`
	Interval       *Duration `yaml:"interval,omitempty" check:"positive" doc:"time between two probes of a replica, from 0s on (default 10s; at least 1ms)"`
	UnhealthyAfter *int      `yaml:"unhealthy_after,omitempty" check:"positive" doc:"failed probes in a row that take a replica out of the rotation (default 3; at most 1000)"`
	HealthyAfter   *int      `yaml:"healthy_after,omitempty" check:"positive" doc:"passed probes in a row that bring it back (default 1; at most 1000)"`
}

type replicaStep struct {
	At    *Duration `yaml:"at" required:"true" check:"positive" doc:"when the fleet changes size"`
	Count int       `yaml:"count" required:"true" check:"positive" doc:"replicas from then on"`
}

type storeSpec struct {
	Latency      *latencySpec `yaml:"latency,omitempty" doc:"round-trip time of one store call, drawn per call (default 0: instantaneous)"`
	Atomic       *bool        `yaml:"atomic,omitempty" doc:"true: a shared limit is checked by one script, one round trip, decisions serialised at the store; false: read, then write, two round trips, so decisions of replicas between a read and its write are lost (default true)"`
	Timeout      *Duration    `yaml:"timeout,omitempty" check:"positive" doc:"the most a decision waits for the store: longer round trips (together) are a store error, known after this wait, changing nothing at the store (default none)"`
	Outages      []outageSpec `yaml:"outages,omitempty" doc:"intervals in which every store call fails at once, in time order"`
	Breaker      *breakerSpec `yaml:"breaker,omitempty" doc:"a circuit breaker on each replica for each shard of the store: after failures failed calls within window it opens, and for cooldown no call is made, each decision taken at once by the limits' on_store_error; then up to probes calls are tried, all succeeding to close it, one failing to open it again (default none)"`
	Lease        int64        `yaml:"lease,omitempty" check:"nonneg" doc:"with a shared fixed window or token bucket (in the lanes running them): each replica takes up to this many cost units of a key from the store in one call and spends them locally, no call, until they run out; leftovers expire at the end of the window they were taken in (default 0: a call per decision)"`
	RefusalCache bool         `yaml:"refusal_cache,omitempty" doc:"true: a key a shared limit refused stays refused on that replica until its Retry-After has passed, without a store call (as envoyproxy/ratelimit's local cache) (default false)"`

	// State that can be lost.
	Restarts   []restartSpec     `yaml:"restarts,omitempty" doc:"instants, in time order, at which the store restarts empty (no persistence): shared limits, and synced limits' global state, forget what they counted"`
	Partitions []partitionSpec   `yaml:"partitions,omitempty" doc:"intervals in which some replicas cannot reach the store while the others still do (shared limits' calls and probes; not with a synced limit)"`
	Shards     *int              `yaml:"shards,omitempty" check:"positive" doc:"shards the keys are spread over, each with its own capacity, queue and memory; a client's keys all on one shard, the FNV-1a hash of its key of the first shared limit modulo shards, as a hash tag (default 1; at most 64)"`
	Capacity   float64           `yaml:"capacity,omitempty" check:"positive" doc:"calls per second each shard serves, one at a time, from a FIFO queue: a call's latency is its round trip plus its wait plus 1/capacity of service (default unbounded)"`
	Service    string            `yaml:"service,omitempty" enum:"service" doc:"the service time's distribution: constant or exponential with mean 1/capacity (default constant)"`
	QueueLimit *int              `yaml:"queue_limit,omitempty" check:"positive" doc:"calls that may wait at a shard; one more fails at once (refused) (default unbounded)"`
	Changes    []storeChangeSpec `yaml:"changes,omitempty" doc:"latency, capacity and availability over time, in time order: slow, then dead, then back"`
	MaxMemory  int64             `yaml:"maxmemory,omitempty" check:"positive" doc:"bytes each shard holds of the limits' keys, by the figures of Store memory (default unbounded)"`
	Eviction   string            `yaml:"eviction,omitempty" enum:"eviction" doc:"a write past maxmemory: noeviction fails the call (a store error), allkeys-lru forgets the least recently written keys, whose limiter state starts afresh (default noeviction)"`
}

type breakerSpec struct {
	Failures int       `yaml:"failures" required:"true" check:"positive" doc:"failed store calls within window that open the breaker (at most 1000)"`
	Window   *Duration `yaml:"window" required:"true" check:"positive" doc:"the span the failures must fall within"`
	Cooldown *Duration `yaml:"cooldown" required:"true" check:"positive" doc:"how long it stays open, making no call"`
	Probes   int       `yaml:"probes,omitempty" check:"positive" doc:"calls tried once the cooldown is over, all of which must succeed to close it (default 1; at most 1000)"`
}

type restartSpec struct {
	At *Duration `yaml:"at" required:"true" check:"nonneg" doc:"when the store restarts empty"`
}

type partitionSpec struct {
	From     *Duration `yaml:"from" required:"true" check:"nonneg" doc:"when the replicas are cut off"`
	To       *Duration `yaml:"to" required:"true" check:"positive" doc:"when they reach the store again"`
	Replicas []int     `yaml:"replicas" required:"true" doc:"the replicas cut off, by index from 0"`
	Kind     string    `yaml:"kind,omitempty" enum:"partition" doc:"refused: their calls fail at once (connection refused); hung: unanswered until the store's timeout, which it needs (default refused)"`
}

type storeChangeSpec struct {
	At       *Duration    `yaml:"at" required:"true" check:"nonneg" doc:"when the change takes effect"`
	Latency  *latencySpec `yaml:"latency,omitempty" doc:"the round trip from then on (default unchanged)"`
	Capacity float64      `yaml:"capacity,omitempty" check:"positive" doc:"each shard's calls per second from then on (default unchanged)"`
	Down     bool         `yaml:"down,omitempty" doc:"true: every call fails at once from then on, until a change without it (default false: up)"`
}

type latencySpec struct {
	Mean         *Duration `yaml:"mean" required:"true" check:"nonneg" doc:"mean round-trip time"`
	Distribution string    `yaml:"distribution,omitempty" enum:"service" doc:"constant or exponential (default constant)"`
}

// namedStoreSpec is a store of its own (topology.stores): the settings of
// storeSpec a store has alone.
type namedStoreSpec struct {
	Name       string            `yaml:"name" required:"true" doc:"the name the limits give in store: lower case letters, digits, _ and -, starting with a letter, at most 32 bytes"`
	Latency    *latencySpec      `yaml:"latency,omitempty" doc:"round-trip time of one call to this store (default 0: instantaneous)"`
	Timeout    *Duration         `yaml:"timeout,omitempty" check:"positive" doc:"the most a decision waits for this store (default none)"`
	Outages    []outageSpec      `yaml:"outages,omitempty" doc:"intervals in which every call to this store fails at once, in time order (without flush: restarts are topology.store's)"`
	Shards     *int              `yaml:"shards,omitempty" check:"positive" doc:"shards this store's keys are spread over (default 1; at most 64)"`
	Capacity   float64           `yaml:"capacity,omitempty" check:"positive" doc:"calls per second each of its shards serves (default unbounded)"`
	Service    string            `yaml:"service,omitempty" enum:"service" doc:"the service time's distribution: constant or exponential (default constant)"`
	QueueLimit *int              `yaml:"queue_limit,omitempty" check:"positive" doc:"calls that may wait at one of its shards (default unbounded)"`
	Changes    []storeChangeSpec `yaml:"changes,omitempty" doc:"this store's latency, capacity and availability over time, in time order"`
	MaxMemory  int64             `yaml:"maxmemory,omitempty" check:"positive" doc:"bytes each of its shards holds of the limits' keys (default unbounded)"`
	Eviction   string            `yaml:"eviction,omitempty" enum:"eviction" doc:"a write past maxmemory: noeviction or allkeys-lru (default noeviction)"`
}

// laneTopologySpec is a lane's own contract with its stores: each field left
// out keeps the topology section's.
type laneTopologySpec struct {
	Store  *storeSpec        `yaml:"store,omitempty" doc:"the lane's own topology.store: each field given replaces the topology section's, each left out keeps it (default the topology section's)"`
	Stores *[]namedStoreSpec `yaml:"stores,omitempty" doc:"the lane's own named stores, replacing the topology section's ([] for none) (default the topology section's)"`
}

type outageSpec struct {
	From *Duration `yaml:"from" required:"true" check:"nonneg" doc:"when the store goes down"`
	To   *Duration `yaml:"to" required:"true" check:"positive" doc:"when it is back"`

	Flush bool `yaml:"flush,omitempty" doc:"true: it comes back empty, as a restart at from (default false: it keeps its state)"`
}

// laneSpec is one entry of lanes: an algorithm's name alone (the short form,
// which fills Algorithm), or a mapping that makes a variant of it.
type laneSpec struct {
	Name           string               `yaml:"name,omitempty" doc:"the lane's own name in tables, plots, checks, overrides, --lanes and traces: lower case letters, digits, _ and -, starting with a letter, at most 32 bytes (default the algorithm's name)"`
	Algorithm      string               `yaml:"algorithm" required:"true" enum:"lane" doc:"the algorithm the lane runs"`
	Limits         []variantLimitSpec   `yaml:"limits,omitempty" doc:"the lane's own policy for each limit of the chain, in chain order; a field left out keeps the chain's"`
	AIMD           *aimdSpec            `yaml:"aimd,omitempty" doc:"an aimd lane's own settings; a field left out keeps the aimd section's"`
	Throttle       *throttleSpec        `yaml:"throttle,omitempty" doc:"a client_throttle lane's own settings; a field left out keeps the throttle section's"`
	Vegas          *vegasSpec           `yaml:"vegas,omitempty" doc:"a vegas lane's own settings; a field left out keeps the vegas section's"`
	Gradient2      *gradient2Spec       `yaml:"gradient2,omitempty" doc:"a gradient2 lane's own settings; a field left out keeps the gradient2 section's"`
	Partitions     *[]concPartitionSpec `yaml:"partitions,omitempty" doc:"a concurrency lane's own partitions, replacing the top-level partitions in this lane ([] for none)"`
	Nginx          *nginxSpec           `yaml:"nginx,omitempty" doc:"an nginx lane's limit_req, in nginx's words (docs/products.md)"`
	HAProxy        *haproxySpec         `yaml:"haproxy,omitempty" doc:"an haproxy lane's stick table and deny rule, in HAProxy's words (docs/products.md)"`
	EnvoyLocal     *envoyLocalSpec      `yaml:"envoy_local,omitempty" doc:"an envoy_local lane's token bucket, in Envoy's words (docs/products.md)"`
	EnvoyRateLimit *envoyRateLimitSpec  `yaml:"envoy_ratelimit,omitempty" doc:"an envoy_ratelimit lane's descriptor limit, in envoyproxy/ratelimit's words (docs/products.md)"`
	Kong           *kongSpec            `yaml:"kong,omitempty" doc:"a kong lane's rate-limiting plugin config, in Kong's words (docs/products.md)"`
	KongAdvanced   *kongAdvancedSpec    `yaml:"kong_advanced,omitempty" doc:"a kong_advanced lane's rate-limiting-advanced plugin config, in Kong's words (docs/products.md)"`
	Traefik        *traefikSpec         `yaml:"traefik,omitempty" doc:"a traefik lane's RateLimit middleware, in Traefik's words (docs/products.md)"`
	AWSAPIGateway  *awsAPIGatewaySpec   `yaml:"aws_apigw,omitempty" doc:"an aws_apigw lane's throttle, in API Gateway's words (docs/products.md)"`
	AWSQuota       *awsQuotaSpec        `yaml:"aws_quota,omitempty" doc:"an aws_quota lane's usage plan quota, in API Gateway's words (docs/products.md)"`
	AWSWAF         *awsWAFSpec          `yaml:"aws_waf,omitempty" doc:"an aws_waf lane's rate-based rule, in AWS WAF's words (docs/products.md)"`
	Cloudflare     *cloudflareSpec      `yaml:"cloudflare,omitempty" doc:"a cloudflare lane's rate limiting rule, in Cloudflare's words (docs/products.md)"`
	Topology       *laneTopologySpec    `yaml:"topology,omitempty" doc:"the lane's own stores, the same traffic through another contract: store and stores, each field left out keeping the topology section's (which the file needs)"`
	// The lane options (sim.LaneOptions), written beside the name and algorithm.
	Penalty  bool      `yaml:"penalty,omitempty" doc:"true: refused requests count against the limit, as HAProxy tracking before deny and Envoy's global rate limit service do, so a client that keeps retrying stays locked out (default false)"`
	Ban      *Duration `yaml:"ban,omitempty" check:"positive" doc:"after a refusal the key is refused for this long whatever its rate, as Cloudflare's mitigation timeout (default none)"`
	Clock    *Duration `yaml:"clock,omitempty" check:"positive" doc:"the limiter's clock tick: it sees the time truncated to a multiple of it, 1ms as nginx and HAProxy (default exact)"`
	Wait     *Duration `yaml:"wait,omitempty" check:"positive" doc:"token_bucket and gcra: a request that would be refused waits up to this long for its turn, as x/time/rate's Reserve and Traefik (default none)"`
	Start    *Level    `yaml:"start,omitempty" doc:"token_bucket and gcra: a new key's level, full, empty or a number of cost units (default full)"`
	Status   int       `yaml:"status,omitempty" check:"positive" doc:"the HTTP status of the lane's refusals, 400 to 599, as nginx's limit_req_status (default 429; an nginx lane's 503)"`
	Keys     int       `yaml:"keys,omitempty" check:"positive" doc:"the most keys each limit's table holds, as nginx's zone, Traefik's maxSources and HAProxy's table size (default unbounded)"`
	WhenFull string    `yaml:"when_full,omitempty" enum:"when_full" doc:"what a new key meets in a full table: evict_idle (the least recently used key if idle, else refused), evict (it, whatever it counted), refuse or admit (untracked) (default evict_idle; an nginx or traefik lane's evict, as nginx and Traefik free a full table's oldest entry)"`
	Align    string    `yaml:"align,omitempty" enum:"align" doc:"fixed_window, and token_bucket with refill stepwise: clock (windows or steps at multiples of the window from the start of the run), first (from each key's first request) or calendar (at multiples of the window since 1970-01-01T00:00:00Z in the wall time of start:, so 1m at each UTC minute, 24h at each UTC midnight) (default clock)"`
	Refill   string    `yaml:"refill,omitempty" enum:"refill" doc:"token_bucket: continuous (limit per window, a token at a time) or stepwise (the whole limit at once at the end of each window, up to the burst, as Envoy's timer before 1.32 and Bucket4j's refillIntervally) (default continuous)"`
}

// shortField is the field a lane written as a name alone fills.
func (laneSpec) shortField() string { return "algorithm" }

// variantLimitSpec is a variant's policy for one limit of the chain.
type variantLimitSpec struct {
	Limit  int64     `yaml:"limit,omitempty" check:"positive" doc:"cost units admitted per window in this lane (default the chain's)"`
	Window *Duration `yaml:"window,omitempty" check:"positive" doc:"the window in this lane (default the chain's)"`
	Burst  *int64    `yaml:"burst,omitempty" check:"nonneg" doc:"largest burst in this lane, 0 for the limit (default the chain's)"`
	// The lane's own placement of the limit (with a topology): a state given
	// starts the placement afresh; without one each field given replaces the
	// chain's.
	State        string        `yaml:"state,omitempty" enum:"state" doc:"where the limit's state lives in this lane: local, shared or synced; given, the chain's other placement fields are not kept (default the chain's)"`
	LocalLimit   string        `yaml:"local_limit,omitempty" enum:"local_limit" doc:"state local: full or divided in this lane (default the chain's)"`
	SyncInterval *Duration     `yaml:"sync_interval,omitempty" check:"positive" doc:"state synced: the sync interval in this lane (default the chain's)"`
	OnStoreError string        `yaml:"on_store_error,omitempty" enum:"fail_mode" doc:"state shared: open, closed or local in this lane (default the chain's)"`
	Fallback     *fallbackSpec `yaml:"fallback,omitempty" doc:"on_store_error local: the lane's own fallback policy (default the chain's)"`
	Store        string        `yaml:"store,omitempty" doc:"state shared: the store, by its name in the lane's stores, the limit keeps its state in in this lane (default the chain's)"`
}

type overrideSpec struct {
	Lane       string    `yaml:"lane" required:"true" doc:"the lane, by its name, that uses this policy instead of the chain's"`
	LimitIndex int       `yaml:"limit_index,omitempty" check:"nonneg" doc:"which limit of the chain it replaces, 0 for the first (default 0)"`
	Limit      int64     `yaml:"limit" required:"true" check:"positive" doc:"cost units admitted per window in that lane"`
	Window     *Duration `yaml:"window,omitempty" check:"positive" doc:"the window (default the replaced limit's)"`
	Burst      int64     `yaml:"burst,omitempty" check:"nonneg" doc:"largest burst, in cost units (default the limit)"`
}

type aimdSpec struct {
	Initial    float64   `yaml:"initial,omitempty" check:"positive" doc:"starting concurrency limit (default 10)"`
	Min        float64   `yaml:"min,omitempty" check:"positive" doc:"lowest concurrency limit (default 1)"`
	Max        float64   `yaml:"max,omitempty" check:"positive" doc:"highest concurrency limit (default 1000)"`
	Target     *Duration `yaml:"target,omitempty" check:"positive" doc:"latency above which the limit is cut (default 2x the backend's mean service time)"`
	Backoff    float64   `yaml:"backoff,omitempty" check:"positive" doc:"factor the limit is multiplied by on a cut, below 1 (default 0.9)"`
	RetryAfter *Duration `yaml:"retry_after,omitempty" check:"positive" doc:"Retry-After sent with a 503 over the concurrency limit, rounded up to whole seconds in the header (default none)"`
}

type vegasSpec struct {
	Initial         float64   `yaml:"initial,omitempty" check:"positive" doc:"starting concurrency limit (default 20)"`
	Max             float64   `yaml:"max,omitempty" check:"positive" doc:"highest concurrency limit (default 1000)"`
	Smoothing       float64   `yaml:"smoothing,omitempty" check:"positive" doc:"weight of a new limit against the old one, at most 1 (default 1: no smoothing)"`
	ProbeMultiplier int       `yaml:"probe_multiplier,omitempty" check:"positive" doc:"the no-load latency is probed again about every probe_multiplier x limit completions (default 30)"`
	RetryAfter      *Duration `yaml:"retry_after,omitempty" check:"positive" doc:"Retry-After sent with a 503 over the concurrency limit, rounded up to whole seconds in the header (default none)"`
}

type gradient2Spec struct {
	Initial      float64   `yaml:"initial,omitempty" check:"positive" doc:"starting concurrency limit (default 20)"`
	Min          float64   `yaml:"min,omitempty" check:"positive" doc:"lowest concurrency limit (default 20)"`
	Max          float64   `yaml:"max,omitempty" check:"positive" doc:"highest concurrency limit (default 200)"`
	Smoothing    float64   `yaml:"smoothing,omitempty" check:"positive" doc:"weight of a new estimate against the old limit, at most 1 (default 0.2)"`
	QueueSize    float64   `yaml:"queue_size,omitempty" check:"positive" doc:"queue allowed on top of the gradient's limit: the limit grows by smoothing x queue_size a completion while latency holds (default 4)"`
	LongWindow   int       `yaml:"long_window,omitempty" check:"positive" doc:"completions in the long-term latency average (default 600)"`
	RTTTolerance float64   `yaml:"rtt_tolerance,omitempty" check:"positive" doc:"how far latency may rise above its long-term average before the limit shrinks, at least 1 (default 1.5)"`
	RetryAfter   *Duration `yaml:"retry_after,omitempty" check:"positive" doc:"Retry-After sent with a 503 over the concurrency limit, rounded up to whole seconds in the header (default none)"`
}

type concPartitionSpec struct {
	Name    string   `yaml:"name" doc:"names the partition"`
	Classes []string `yaml:"classes" doc:"the client groups (by name) in the partition"`
	Share   float64  `yaml:"share" doc:"the share of the limit the partition is guaranteed, in [0, 1]; the shares sum to at most 1"`
}

type throttleSpec struct {
	K      float64   `yaml:"k,omitempty" check:"positive" doc:"accepts multiplier K: a client sends freely while requests < K x accepts (default 2)"`
	Period *Duration `yaml:"period,omitempty" check:"positive" doc:"trailing period over which requests and accepts are counted (default 2m)"`
	Server string    `yaml:"server,omitempty" enum:"server" doc:"the server-side limiter behind the throttle (default token_bucket)"`
}

type clientSpec struct {
	Name          string        `yaml:"name,omitempty" doc:"the class of these clients in per-class outcomes (default group<index>)"`
	Count         *int          `yaml:"count,omitempty" check:"positive" doc:"how many identical clients (default 1)"`
	Identity      *identitySpec `yaml:"identity,omitempty" doc:"each client's keys; {i} is the client's index in the group, {g} the group name"`
	Cost          int64         `yaml:"cost,omitempty" check:"positive" doc:"cost units per request (default 1)"`
	Arrivals      []arrivalSpec `yaml:"arrivals" required:"true" doc:"when each client sends: the union of these components"`
	Retry         *retrySpec    `yaml:"retry,omitempty" doc:"what a client does after a refusal, a shed or a local drop (default give up)"`
	Pace          bool          `yaml:"pace,omitempty" doc:"read the quota headers of every answer and, when no quota is left, send nothing until the reset they give"`
	Criticality   string        `yaml:"criticality,omitempty" enum:"criticality" doc:"how much the group's requests matter to the backend's load shedders, in Google's names, most critical first: critical_plus, critical, sheddable_plus or sheddable (default critical)"`
	RTT           *rttSpec      `yaml:"rtt,omitempty" doc:"network round trip, a duration or {mean, distribution}: an attempt reaches the limiter rtt/2 after it is sent and its answer, a refusal too, reaches the client rtt/2 later; a retry's wait starts when the client hears (default 0)"`
	Deadline      *Duration     `yaml:"deadline,omitempty" check:"positive" doc:"how long a client waits for a request's answer from its first send: a later answer, or a retry that would be sent at or after it, is abandoned; the backend's work on it is counted as wasted (default none)"`
	Timeout       *Duration     `yaml:"timeout,omitempty" check:"positive" doc:"how long a client waits for one attempt's answer from its send, as an HTTP client's timeout or Envoy's per_try_timeout: an answer heard later is lost to it; it gives the attempt up and applies its retry policy as to a 504 (so retry.on must hold 504 to retry it), within its deadline; the service's work on it is counted as wasted; not with pace (default none)"`
	ServiceFactor *float64      `yaml:"service_factor,omitempty" check:"positive" doc:"how many times the backend's service time each of the group's requests takes (a slow endpoint, a heavy query): the time drawn from backend.service, or from a change's after it, multiplied by this, at most 1000000; needs a backend (default 1)"`
}

type identitySpec struct {
	User     string `yaml:"user,omitempty" doc:"user template (default {g}-{i})"`
	IP       string `yaml:"ip,omitempty" doc:"IP address template; without {i} the whole group shares it, as behind a NAT (default {g}-{i})"`
	APIKey   string `yaml:"api_key,omitempty" doc:"API key template (default {g}-{i})"`
	Tenant   string `yaml:"tenant,omitempty" doc:"tenant template (default {g}-{i})"`
	Endpoint string `yaml:"endpoint,omitempty" doc:"endpoint template (default {g}-{i})"`
}

type arrivalSpec struct {
	Kind   string    `yaml:"kind" required:"true" enum:"arrival" doc:"the shape of the arrival process"`
	Start  *Duration `yaml:"start,omitempty" check:"nonneg" doc:"when a constant, poisson, on_off or idle_then_burst process starts (default 0)"`
	Stop   *Duration `yaml:"stop,omitempty" check:"positive" doc:"when it stops (default the scenario's duration)"`
	Rate   *Rate     `yaml:"rate,omitempty" doc:"requests per period, per client: constant, poisson, on_off"`
	At     *Duration `yaml:"at,omitempty" check:"nonneg" doc:"when a burst starts (default 0)"`
	Count  int       `yaml:"count,omitempty" check:"positive" doc:"requests in a burst or idle_then_burst, per client"`
	Spread *Duration `yaml:"spread,omitempty" check:"nonneg" doc:"a burst's requests are spread evenly over this span (default 0: all at once)"`
	On     *Duration `yaml:"on,omitempty" check:"positive" doc:"on_off: how long each sending period lasts"`
	Off    *Duration `yaml:"off,omitempty" check:"positive" doc:"on_off: how long each silent period lasts"`
	Idle   *Duration `yaml:"idle,omitempty" check:"positive" doc:"idle_then_burst: the silence before each burst"`
}

type retrySpec struct {
	Kind             string      `yaml:"kind" required:"true" enum:"retry" doc:"how a retry is scheduled"`
	Delay            *Duration   `yaml:"delay,omitempty" check:"positive" doc:"fixed: the wait before each retry"`
	Base             *Duration   `yaml:"base,omitempty" check:"positive" doc:"exponential: the first backoff (default 100ms)"`
	Cap              *Duration   `yaml:"cap,omitempty" check:"positive" doc:"exponential: the largest backoff (default 10s)"`
	Jitter           string      `yaml:"jitter,omitempty" enum:"jitter" doc:"exponential: how the backoff is randomised (default none)"`
	MaxAttempts      int         `yaml:"max_attempts,omitempty" check:"nonneg" doc:"attempts per request, the first included (default 0: no limit but the end of the run)"`
	HonorRetryAfter  bool        `yaml:"honor_retry_after,omitempty" doc:"wait at least the Retry-After a refusal carries"`
	RetryAfterJitter *Duration   `yaml:"retry_after_jitter,omitempty" check:"nonneg" doc:"with honor_retry_after: add uniform(0, this) to the Retry-After"`
	RetryAfter       string      `yaml:"retry_after,omitempty" enum:"retry_after" doc:"with honor_retry_after: header waits the header's whole seconds (rounded up), exact the limiter's exact value (default header)"`
	On               []int       `yaml:"on,omitempty" check:"positive" doc:"the HTTP statuses the client retries, e.g. [429]: a refusal's status is its lane's (429, nginx's 503, ...), a shed's 503, an attempt given up at the client's timeout 504; any other is given up (default every refusal, shed and timeout)"`
	Budget           *budgetSpec `yaml:"budget,omitempty" doc:"each client's retry budget, as Finagle's RetryBudget: retries at most ratio x requests, plus min_per_second, over any ttl (default none)"`
}

// rttSpec is a client's round trip: its mean, and how it is distributed.
type rttSpec struct {
	Mean         *Duration `yaml:"mean" required:"true" check:"nonneg" doc:"the mean round trip"`
	Distribution string    `yaml:"distribution,omitempty" enum:"service" doc:"constant, or exponential: drawn for every attempt, half each way (default constant)"`
}

// shortField is the field a round trip written as a duration alone fills.
func (rttSpec) shortField() string { return "mean" }

// budgetSpec is Finagle's RetryBudget(ttl, minRetriesPerSec, percentCanRetry).
type budgetSpec struct {
	Ratio        *float64  `yaml:"ratio,omitempty" check:"nonneg" doc:"retries allowed per request (Finagle's percentCanRetry), 0 or 0.000001 to 1000 (default 0.2)"`
	MinPerSecond *int      `yaml:"min_per_second,omitempty" check:"nonneg" doc:"retries a second allowed besides, for clients that send little (Finagle's minRetriesPerSec; default 10)"`
	TTL          *Duration `yaml:"ttl,omitempty" check:"positive" doc:"how long a request's credit and a retry's debit last, 1s to 1m (default 10s)"`
}

type backendSpec struct {
	Capacity   *int          `yaml:"capacity,omitempty" check:"nonneg" doc:"requests served in parallel (default 1; 0 is an outage: every request gets 503)"`
	Queue      int           `yaml:"queue,omitempty" check:"nonneg" doc:"requests that may wait for a server; one more is shed with 503 (default 0)"`
	Service    *serviceSpec  `yaml:"service" required:"true" doc:"the service time of one request"`
	Changes    []changeSpec  `yaml:"changes,omitempty" doc:"capacity and service-time changes over time: slowdown, outage, recovery"`
	RetryAfter *Duration     `yaml:"retry_after,omitempty" check:"positive" doc:"Retry-After sent with a 503 when the backend sheds, rounded up to whole seconds in the header (default none)"`
	Shedding   *sheddingSpec `yaml:"shedding,omitempty" doc:"load shedders in front of the backend, which answer 503 by the clients' criticality to requests the limits admitted (default none)"`
	Discipline string        `yaml:"discipline,omitempty" enum:"discipline" doc:"the order the queue serves in: fifo, oldest first, or lifo, newest first (default fifo)"`
	CoDel      *codelSpec    `yaml:"codel,omitempty" doc:"drop (503) waiting requests by CoDel's control law (RFC 8289) when their waits stay above target (default none)"`
}

type sheddingSpec struct {
	FleetUsage  *fleetUsageSpec  `yaml:"fleet_usage,omitempty" doc:"Stripe's fleet usage load shedder: keeps a share of the workers for the most critical requests"`
	Utilisation *utilisationSpec `yaml:"utilisation,omitempty" doc:"Stripe's worker utilisation load shedder: sheds the least critical requests first while the workers are busy or the queue old"`
	RetryAfter  *Duration        `yaml:"retry_after,omitempty" check:"positive" doc:"Retry-After sent with a shed request's 503 (default the backend's retry_after)"`
}

type fleetUsageSpec struct {
	Reserve float64 `yaml:"reserve" required:"true" check:"positive" doc:"the share of the capacity kept, in (0, 1): while the requests in the backend, served and queued, are at least (1 - reserve) × capacity, every request less critical than keep is shed (Stripe keeps about 0.2)"`
	Keep    string  `yaml:"keep,omitempty" enum:"criticality" doc:"the least critical criticality the reserve is kept for (default critical)"`
}

type utilisationSpec struct {
	Threshold float64   `yaml:"threshold,omitempty" check:"positive" doc:"overloaded while busy workers are at least this share of the capacity, in (0, 1]"`
	QueueAge  *Duration `yaml:"queue_age,omitempty" check:"positive" doc:"overloaded while the oldest queued request has waited at least this long"`
	Escalate  *Duration `yaml:"escalate,omitempty" check:"positive" doc:"overload sheds sheddable at once, then one criticality more after each escalate of overload (sheddable_plus, then critical; never critical_plus) (default 1s)"`
}

// codelSpec is RFC 8289's two parameters.
type codelSpec struct {
	Target   *Duration `yaml:"target,omitempty" check:"positive" doc:"the wait CoDel keeps the queue under (default 5ms)"`
	Interval *Duration `yaml:"interval,omitempty" check:"positive" doc:"how long the wait must stay above target before CoDel drops, and its first gap between drops (default 100ms)"`
}

type serviceSpec struct {
	Mean         *Duration `yaml:"mean" required:"true" check:"positive" doc:"mean service time"`
	Distribution string    `yaml:"distribution,omitempty" enum:"service" doc:"constant or exponential (default constant)"`
}

type ruleSpec struct {
	At      *Duration `yaml:"at" required:"true" check:"nonneg" doc:"when the rule push takes effect (before any request at that instant)"`
	Limit   int64     `yaml:"limit,omitempty" check:"positive" doc:"cost units admitted per window from then on (default unchanged)"`
	Window  *Duration `yaml:"window,omitempty" check:"positive" doc:"the window from then on (default unchanged)"`
	Burst   *int64    `yaml:"burst,omitempty" check:"nonneg" doc:"largest burst from then on, 0 for the limit (default unchanged)"`
	Enforce *bool     `yaml:"enforce,omitempty" doc:"true enforces the limit from then on, false makes it a shadow (default unchanged)"`
}

type changeSpec struct {
	At       *Duration    `yaml:"at" required:"true" check:"nonneg" doc:"when the change takes effect"`
	Capacity *int         `yaml:"capacity" required:"true" check:"nonneg" doc:"the capacity from then on (0: outage)"`
	Service  *serviceSpec `yaml:"service,omitempty" doc:"the service time from then on (default unchanged)"`
}

// nginxSpec is an nginx lane's limit_req directives in nginx's words: rate and
// burst (of the first limit) become the lane's policy, delay and nodelay apply
// to every limit without a zone of its own.
type nginxSpec struct {
	Rate    string          `yaml:"rate,omitempty" doc:"limit_req_zone's rate= of the first limit: Nr/s or Nr/m (default the limit's)"`
	Burst   *int64          `yaml:"burst,omitempty" check:"nonneg" doc:"limit_req's burst= of the first limit: requests beyond the first that may pass at once (default 0 with rate, else the limit's burst less one)"`
	Delay   int64           `yaml:"delay,omitempty" check:"positive" doc:"limit_req's delay=: the first N excess requests pass at once, the rest wait (default none: every excess request waits)"`
	NoDelay bool            `yaml:"nodelay,omitempty" doc:"limit_req's nodelay: no request waits (default false)"`
	Zones   []nginxZoneSpec `yaml:"zones,omitempty" doc:"one limit_req directive per limit of the chain, zones[i] for limit i, in place of the fields above"`
}

// nginxZoneSpec is one limit_req directive.
type nginxZoneSpec struct {
	Rate    string `yaml:"rate,omitempty" doc:"limit_req_zone's rate=: Nr/s or Nr/m (default the limit's)"`
	Burst   *int64 `yaml:"burst,omitempty" check:"nonneg" doc:"limit_req's burst= (default 0 with rate, else the limit's burst less one)"`
	Delay   int64  `yaml:"delay,omitempty" check:"positive" doc:"limit_req's delay= (default none)"`
	NoDelay bool   `yaml:"nodelay,omitempty" doc:"limit_req's nodelay (default false)"`
}

// The other products' sections: each sets the lane's policy of the first
// limit (in the product's words and units) and the lane's product settings.

type haproxySpec struct {
	Period *Duration `yaml:"period,omitempty" check:"positive" doc:"http_req_rate(<period>): the rate's period, whole ms (default the limit's window)"`
	Limit  int64     `yaml:"limit,omitempty" check:"positive" doc:"the deny rule's threshold: deny if sc_http_req_rate gt limit (default the limit's)"`
	Expire *Duration `yaml:"expire,omitempty" check:"positive" doc:"the stick table's expire (default twice the period)"`
}

type envoyLocalSpec struct {
	MaxTokens     int64     `yaml:"max_tokens,omitempty" check:"positive" doc:"token_bucket.max_tokens (default the limit's burst)"`
	TokensPerFill int64     `yaml:"tokens_per_fill,omitempty" check:"positive" doc:"token_bucket.tokens_per_fill (default the limit's limit)"`
	FillInterval  *Duration `yaml:"fill_interval,omitempty" check:"positive" doc:"token_bucket.fill_interval, at least 50ms (default the limit's window)"`
	Refill        string    `yaml:"refill,omitempty" enum:"envoy_refill" doc:"continuous, as current Envoy refills, or stepwise, tokens_per_fill every fill_interval as Envoy 1.31 and earlier (default continuous)"`
	Start         *Level    `yaml:"start,omitempty" doc:"a new bucket's tokens: full, empty or a number (default full)"`
}

type envoyRateLimitSpec struct {
	Unit            string  `yaml:"unit,omitempty" enum:"envoy_unit" doc:"rate_limit.unit: second, minute, hour, day, week, month or year (month is 30 days, year 365, as the service divides) (default the limit's window)"`
	RequestsPerUnit int64   `yaml:"requests_per_unit,omitempty" check:"positive" doc:"rate_limit.requests_per_unit (default the limit's limit)"`
	ShadowMode      bool    `yaml:"shadow_mode,omitempty" doc:"shadow_mode: every hit counted, none refused (default false)"`
	Unlimited       bool    `yaml:"unlimited,omitempty" doc:"unlimited: nothing counted or refused (default false)"`
	LocalCache      bool    `yaml:"local_cache,omitempty" doc:"LOCAL_CACHE_SIZE_IN_BYTES above 0: keys over the limit are answered from a local cache until their window ends (default false)"`
	NearLimitRatio  float64 `yaml:"near_limit_ratio,omitempty" doc:"NEAR_LIMIT_RATIO: hits beyond this share of requests_per_unit, and within it, are counted as near_limit, in (0, 1] (default 0.8)"`
	FailureModeDeny *bool   `yaml:"failure_mode_deny,omitempty" doc:"the Envoy filter's failure_mode_deny: the shared limits' on_store_error, true for closed and false for open, and must agree with them (default: as the limits say)"`
}

type kongSpec struct {
	Second int64  `yaml:"second,omitempty" check:"positive" doc:"config.second: requests per second"`
	Minute int64  `yaml:"minute,omitempty" check:"positive" doc:"config.minute: requests per minute"`
	Hour   int64  `yaml:"hour,omitempty" check:"positive" doc:"config.hour: requests per hour"`
	Day    int64  `yaml:"day,omitempty" check:"positive" doc:"config.day: requests per day"`
	Month  int64  `yaml:"month,omitempty" check:"positive" doc:"config.month: requests per calendar month (UTC), with a shorter period"`
	Year   int64  `yaml:"year,omitempty" check:"positive" doc:"config.year: requests per calendar year (UTC), with a shorter period"`
	Policy string `yaml:"policy,omitempty" enum:"kong_policy" doc:"config.policy: local, cluster or redis (redis counts refused requests too) (default local)"`
}

type kongAdvancedSpec struct {
	Limit          int64  `yaml:"limit,omitempty" check:"positive" doc:"config.limit[0] (default the limit's)"`
	WindowSize     int64  `yaml:"window_size,omitempty" check:"positive" doc:"config.window_size[0], in seconds (default the limit's window)"`
	WindowType     string `yaml:"window_type,omitempty" enum:"kong_window" doc:"config.window_type: sliding or fixed (default sliding)"`
	DisablePenalty bool   `yaml:"disable_penalty,omitempty" doc:"config.disable_penalty: refused requests do not count (default false: they count)"`
}

type traefikSpec struct {
	Average int64     `yaml:"average,omitempty" check:"positive" doc:"rateLimit.average: requests per period (default the limit's limit)"`
	Period  *Duration `yaml:"period,omitempty" check:"positive" doc:"rateLimit.period (default 1s with average, else the limit's window)"`
	Burst   *int64    `yaml:"burst,omitempty" check:"nonneg" doc:"rateLimit.burst; 0 is 1 (default 1 with average, else the limit's burst)"`
}

type awsAPIGatewaySpec struct {
	RateLimit  float64 `yaml:"rate_limit,omitempty" check:"positive" doc:"throttlingRateLimit: requests per second, to a thousandth (default the limit's rate)"`
	BurstLimit int64   `yaml:"burst_limit,omitempty" check:"positive" doc:"throttlingBurstLimit: the bucket's size (default the limit's burst)"`
}

type awsWAFSpec struct {
	Limit              int64     `yaml:"limit,omitempty" check:"positive" doc:"the rule's Limit, at least 10 (default the limit's)"`
	EvaluationWindow   *Duration `yaml:"evaluation_window,omitempty" check:"positive" doc:"EvaluationWindowSec: 60s, 120s, 300s or 600s (default the limit's window)"`
	EvaluationInterval *Duration `yaml:"evaluation_interval,omitempty" check:"positive" doc:"how often WAF checks each key's rate, dividing the window (default 10s)"`
}

type cloudflareSpec struct {
	RequestsPerPeriod int64     `yaml:"requests_per_period,omitempty" check:"positive" doc:"requests_per_period (default the limit's limit)"`
	Period            *Duration `yaml:"period,omitempty" check:"positive" doc:"period: 10s, 1m, 2m, 5m, 10m or 1h (default the limit's window)"`
	MitigationTimeout *Duration `yaml:"mitigation_timeout,omitempty" check:"nonneg" doc:"mitigation_timeout: how long a key that tripped is blocked, whole seconds; 0 throttles instead (default 0)"`
	ExcludeBlocked    bool      `yaml:"exclude_blocked,omitempty" doc:"blocked requests are not counted (default false: every matching request counts)"`
}

type awsQuotaSpec struct {
	Limit  int64  `yaml:"limit,omitempty" check:"positive" doc:"quota.limit: requests per period (default the limit's)"`
	Period string `yaml:"period,omitempty" enum:"quota_period" doc:"quota.period: day, week (from Sunday) or month (from the 1st), in UTC (default the limit's window: 24h, 168h or 720h)"`
	Offset int64  `yaml:"offset,omitempty" check:"nonneg" doc:"quota.offset: requests subtracted from the limit in the initial period, the one holding the run's start; below the limit (default 0)"`
}
