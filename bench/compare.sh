#!/bin/sh
# compare.sh runs bench/model.yaml through rlsim, a plain Go loop (goloop) and
# SimPy, and prints each one's events per CPU-second and its ratio to rlsim's.
# CPU time is user+system of the whole process (setup, output included), from
# /usr/bin/time. SimPy runs a shorter virtual time: its rate, not its total,
# is compared.
#
#   bench/compare.sh                 # 1000 s (10 M events) for rlsim and Go, 100 s for SimPy
#   DURATION=100 SIMPY_DURATION=20 bench/compare.sh
#   SCALE=0 bench/compare.sh         # without the rows that grow with clients (below)
#
# Then the rows that grow with the number of clients, each rlsim's CPU per
# attempt against the model's per request (the plain path), the same binary:
# bench/ten-million-clients.yaml is the model's 10 M requests from 10 M clients,
# bench/retry-storm-20k.yaml and bench/retry-storm-2m.yaml retry-storm-full-jitter
# scaled to 20 k and 2 M clients (clients, limit and backend alike); with each
# one's peak resident memory (MB, /usr/bin/time's %M).
#
# Then the topology rows: bench/topology.yaml is the model's traffic behind 8
# replicas, run as it is (local state) and with --set for one replica, synced
# state, and a shared atomic and racy store; bench/topology-real.yaml is the
# shared atomic store with every feature of a real one (shards, a capacity,
# a queue limit, a change, a memory that evicts); each row is rlsim's CPU per
# attempt against the model's (the plain path, the same traffic, the same
# binary); then the same placements in process, interleaved with the plain
# path (sim's BenchmarkTopologyRatios, bench/model.yaml's traffic among them).
# TOPOLOGY=0 leaves them out.
#
# Then the sweep row: one sweep of many short runs with GOMAXPROCS=1 and =2,
# the wall seconds of each and their ratio (the target is 1.8x; the output must
# be the same byte for byte). SWEEP=0 leaves it out.
#
# Then the replay row: a generated combined log of REPLAY_LINES lines (default
# 2 M, bench/replayparse -gen) replayed by rlsim replay through its six default
# lanes under key=ip limit=100/1m burst=20, beside bench/replayparse (the
# minimal parser: time and key of each line, one token-bucket decision per lane
# per line in a plain map) and its -reuse form (the lower floor); the CPU per
# line of each and rlsim's ratio to each (the target is 1.5x the minimal
# parser). The counts must agree: replayparse's refusals are rlsim's token
# bucket lane's. REPLAY=0 leaves it out.
#
# Then the lanes rows: testdata/bench/100m.yaml cut to LANES_DURATION (default
# 10 s: 10 M requests) through one lane at a time, each lane's CPU per attempt
# against the token bucket lane's (the fast one; the target is 1.5x each), then
# the whole 100 M requests through the eight default lanes, its wall seconds
# (the target is under 30 s on 2 quiet cores) and peak resident memory.
# LANES=0 leaves them out; LANES_FULL=0 leaves out the 100 M run alone.
#
# Then the playground row: web's BenchmarkPlaygroundVsRun, a playground
# session against sim.Run on the 100 M scenario cut to PLAY_DURATION (default
# 100s, the whole of it; 10s is a tenth), the CPU per simulated request of each, their
# ratio (the target is 1.5x) and the session's virtual time per wall time (the
# target is 1, real time). PLAYGROUND=0 leaves it out.
#
# Needs go, /usr/bin/time and python3 with SimPy (Debian: apt-get install python3-simpy3;
# PYTHON names another interpreter).
set -eu
cd "$(dirname "$0")/.."
DURATION=${DURATION:-1000}
SIMPY_DURATION=${SIMPY_DURATION:-100}
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/rlsim" ./cmd/rlsim
go build -o "$tmp/goloop" ./bench/goloop

# cpu FILE: the user+system seconds /usr/bin/time wrote to FILE.
cpu() { awk '{print $1 + $2}' "$1"; }

/usr/bin/time -f '%U %S' -o "$tmp/rlsim.time" "$tmp/rlsim" run bench/model.yaml --set "duration=${DURATION}s" --format json >"$tmp/rlsim.json"
rlsim_events=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["lanes"][0]["attempts"])' "$tmp/rlsim.json")
rlsim_admitted=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["lanes"][0]["admitted"])' "$tmp/rlsim.json")

/usr/bin/time -f '%U %S' -o "$tmp/go.time" "$tmp/goloop" -duration "${DURATION}s" >"$tmp/go.out"
/usr/bin/time -f '%U %S' -o "$tmp/simpy.time" "$PYTHON" bench/simpy_model.py --duration "$SIMPY_DURATION" >"$tmp/simpy.out"

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%s\n' \
	"rlsim $rlsim_events $rlsim_admitted $(cpu "$tmp/rlsim.time")" \
	"go_loop $(awk '{print $2, $4}' "$tmp/go.out") $(cpu "$tmp/go.time")" \
	"simpy $(awk '{print $2, $4}' "$tmp/simpy.out") $(cpu "$tmp/simpy.time")" |
	awk '
	{ name[NR] = $1; ev[NR] = $2; adm[NR] = $3; cpu[NR] = $4; rate[NR] = (cpu[NR] > 0 ? $2 / $4 : 0) }
	END {
		printf "%-8s %12s %9s %8s %14s %10s\n", "model", "events", "admitted", "CPU s", "events/CPU-s", "vs rlsim"
		for (i = 1; i <= NR; i++)
			printf "%-8s %12d %8.1f%% %8.2f %14.0f %9.2fx\n", name[i], ev[i], 100 * adm[i] / ev[i], cpu[i], rate[i], (rate[1] > 0 ? rate[i] / rate[1] : 0)
	}'

# attempts FILE: the attempts of every lane of the first run in the JSON FILE.
attempts() { "$PYTHON" -c 'import json,sys; print(sum(l["attempts"] for l in json.load(open(sys.argv[1]))["runs"][0]["lanes"]))' "$1"; }
model_ns=$(awk -v e="$rlsim_events" '{printf "%.1f", 1e9 * ($1 + $2) / e}' "$tmp/rlsim.time")

if [ "${TOPOLOGY:-1}" != 0 ]; then
	for row in "local|topology|" "one_replica_local|topology|--set topology.replicas=1" \
		"synced_10ms|topology|--set limits[0].state=synced --set limits[0].sync_interval=10ms" \
		"shared_atomic_10us|topology|--set limits[0].state=shared" \
		"shared_racy_10us|topology|--set limits[0].state=shared --set topology.store.atomic=false" \
		"shared_real_10us|topology-real|"; do
		name=${row%%|*}
		rest=${row#*|}
		# shellcheck disable=SC2086 # the --set flags split as words
		/usr/bin/time -f '%U %S' -o "$tmp/$name.time" "$tmp/rlsim" run "bench/${rest%%|*}.yaml" --set "duration=${DURATION}s" ${rest#*|} --format json >"$tmp/$name.json"
		echo "$name $(attempts "$tmp/$name.json") $(cpu "$tmp/$name.time")"
	done | awk -v model="$model_ns" '
		BEGIN { printf "\n%-20s %12s %8s %14s %9s\n", "topology row", "attempts", "CPU s", "CPU ns/attempt", "vs model"
			printf "%-20s %12s %8s %14.1f %8.2fx\n", "model (no topology)", "", "", model, 1 }
		{ ns = 1e9 * $3 / $2; printf "%-20s %12d %8.2f %14.1f %8.2fx\n", $1, $2, $3, ns, ns / model }'
	# The placements again in one process, each beside its plain path a slice
	# at a time in turn (sim's BenchmarkTopologyRatios): a machine whose speed
	# drifts slows both sides of each ratio alike.
	go test ./sim -run '^$' -bench '^BenchmarkTopologyRatios$' -benchtime 30x | awk '
		/^BenchmarkTopologyRatios/ { printf "\n%-26s %9s\n", "in process, interleaved", "vs plain"
			for (i = 3; i < NF; i += 2) if ($(i + 1) ~ /\/plain$/) printf "%-26s %8.2fx\n", $(i + 1), $i }'
fi

if [ "${SWEEP:-1}" != 0 ]; then
	for p in 1 2; do
		GOMAXPROCS=$p /usr/bin/time -f '%e %U %S' -o "$tmp/sweep$p.time" "$tmp/rlsim" sweep noisy-neighbour \
			--vary 'limits[0].limit=10..60/10' --seeds 100 >"$tmp/sweep$p.out"
	done
	cmp -s "$tmp/sweep1.out" "$tmp/sweep2.out" || echo "sweep: GOMAXPROCS=1 and 2 print different output" >&2
	printf '\n%-20s %8s %8s\n' "sweep row" "wall s" "CPU s"
	for p in 1 2; do awk -v p="$p" '{printf "%-20s %8.2f %8.2f\n", "GOMAXPROCS=" p, $1, $2 + $3}' "$tmp/sweep$p.time"; done
	awk 'NR == FNR { one = $1; next } { printf "%-20s %8.2fx\n", "1 core / 2 cores", ($1 > 0 ? one / $1 : 0) }' "$tmp/sweep1.time" "$tmp/sweep2.time"
fi

if [ "${REPLAY:-1}" != 0 ]; then
	go build -o "$tmp/replayparse" ./bench/replayparse
	lines=${REPLAY_LINES:-2000000}
	"$tmp/replayparse" -gen "$lines" >"$tmp/access.log"
	/usr/bin/time -f '%U %S' -o "$tmp/replay.time" "$tmp/rlsim" replay --log-format combined \
		--limit 'key=ip limit=100/1m burst=20' --format json "$tmp/access.log" >"$tmp/replay.json"
	/usr/bin/time -f '%U %S' -o "$tmp/parse.time" "$tmp/replayparse" "$tmp/access.log" >"$tmp/parse.out"
	/usr/bin/time -f '%U %S' -o "$tmp/reuse.time" "$tmp/replayparse" -reuse "$tmp/access.log" >"$tmp/reuse.out"
	rlsim_refused=$("$PYTHON" -c 'import json,sys; print([l["refused"] for l in json.load(open(sys.argv[1]))["limits"][0]["lanes"] if l["lane"] == "token_bucket"][0])' "$tmp/replay.json")
	parse_refused=$(awk '$1 == "lane" && $2 == 0 {print $6}' "$tmp/parse.out")
	[ "$rlsim_refused" = "$parse_refused" ] || echo "replay: rlsim's token bucket refused $rlsim_refused, replayparse $parse_refused" >&2
	printf '\n%-24s %10s %8s %12s %9s\n' "replay row" "lines" "CPU s" "CPU ns/line" "rlsim vs"
	for row in "rlsim_replay|replay" "replayparse|parse" "replayparse_-reuse|reuse"; do
		echo "${row%%|*} $lines $(cpu "$tmp/${row#*|}.time")"
	done | awk '{ ns = 1e9 * $3 / $2; if (NR == 1) first = ns
		printf "%-24s %10d %8.2f %12.1f %8.2fx\n", $1, $2, $3, ns, first / ns }'
fi

if [ "${LANES:-1}" != 0 ]; then
	for lane in token_bucket leaky_bucket aimd vegas client_throttle; do
		/usr/bin/time -f '%U %S' -o "$tmp/lane-$lane.time" "$tmp/rlsim" run testdata/bench/100m.yaml --max-events 2000000000 \
			--set "duration=${LANES_DURATION:-10}s" --set "lanes=[$lane]" --format json >"$tmp/lane-$lane.json"
		echo "$lane $(attempts "$tmp/lane-$lane.json") $(cpu "$tmp/lane-$lane.time")"
	done | awk '
		BEGIN { printf "\n%-20s %12s %8s %14s %16s\n", "lane row", "attempts", "CPU s", "CPU ns/attempt", "vs token bucket" }
		{ ns = 1e9 * $3 / $2; if (NR == 1) first = ns
		  printf "%-20s %12d %8.2f %14.1f %15.2fx\n", $1, $2, $3, ns, ns / first }'
	if [ "${LANES_FULL:-1}" != 0 ]; then
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/100m.time" "$tmp/rlsim" run testdata/bench/100m.yaml --max-events 2000000000 >"$tmp/100m.out"
		awk '{ printf "%-20s %8.2f wall s %8.2f CPU s %6.0f peak MB\n", "100 M x 8 lanes", $1, $2 + $3, $4 / 1000 }' "$tmp/100m.time"
	fi
fi

if [ "${PLAYGROUND:-1}" != 0 ]; then
	RLSIM_PLAY_DURATION="${PLAY_DURATION:-100s}" go test ./web -run '^$' -bench '^BenchmarkPlaygroundVsRun$' -benchtime 1x | awk '
		/^BenchmarkPlaygroundVsRun/ { for (i = 3; i < NF; i += 2) v[$(i + 1)] = $i
			printf "\n%-20s %14s %15s %8s %12s\n", "playground row", "run ns/request", "play ns/request", "ratio", "x real time"
			printf "%-20s %14.1f %15.1f %7.2fx %12.2f\n", "100m.yaml", v["run-cpu-ns/request"], v["play-cpu-ns/request"], v["ratio"], v["x-real-time"] }'
fi

[ "${SCALE:-1}" = 0 ] && exit 0
for row in ten-million-clients retry-storm-20k retry-storm-2m; do
	/usr/bin/time -f '%U %S %M' -o "$tmp/$row.time" "$tmp/rlsim" run "bench/$row.yaml" --format json >"$tmp/$row.json"
	echo "$row $(attempts "$tmp/$row.json") $(cpu "$tmp/$row.time") $(awk '{print $3}' "$tmp/$row.time")"
done | awk -v model="$model_ns" '
	BEGIN { printf "\n%-20s %12s %8s %14s %9s %9s\n", "rlsim row", "attempts", "CPU s", "CPU ns/attempt", "vs model", "peak MB"
		printf "%-20s %12s %8s %14.1f %8.2fx\n", "model (100 clients)", "", "", model, 1 }
	{ ns = 1e9 * $3 / $2; printf "%-20s %12d %8.2f %14.1f %8.2fx %9.0f\n", $1, $2, $3, ns, ns / model, $4 / 1000 }'
