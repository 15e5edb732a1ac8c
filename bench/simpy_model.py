"""bench/model.yaml written for SimPy: 100 Poisson clients, one global token
bucket (as GCRA, the token bucket's twin), no retries. Time is float seconds,
SimPy's convention. Prints the arrivals simulated and the verdicts.

    python3 bench/simpy_model.py --duration 100
"""
import argparse
import random

import simpy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--rate", type=float, default=100.0, help="requests per second of each client")
    ap.add_argument("--limit", type=int, default=8000, help="requests per window")
    ap.add_argument("--window", type=float, default=1.0, help="seconds")
    ap.add_argument("--burst", type=int, default=100)
    ap.add_argument("--duration", type=float, default=1000.0, help="virtual seconds")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    interval = a.window / a.limit
    tolerance = a.burst * interval
    env = simpy.Environment()
    state = {"tat": 0.0, "events": 0, "admitted": 0}

    def client(rnd):
        while True:
            yield env.timeout(rnd.expovariate(a.rate))
            now = env.now
            state["events"] += 1
            nxt = max(state["tat"], now) + interval
            if nxt - now <= tolerance:
                state["tat"] = nxt
                state["admitted"] += 1

    for c in range(a.clients):
        env.process(client(random.Random(a.seed * 1_000_003 + c)))
    env.run(until=a.duration)
    ev, ad = state["events"], state["admitted"]
    print(f"events {ev} admitted {ad} refused {ev - ad}")


if __name__ == "__main__":
    main()
