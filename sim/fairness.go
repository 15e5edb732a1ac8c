package sim

import "slices"

// share is what one client asked for and got, in requests.
type share struct{ asked, got int64 }

// fairness measures how evenly a lane served its clients, against the max-min
// fair split of what it let succeed: each client is owed what it asked, up to
// an even level that spends all the successes (water-filling). It returns
// Jain's index over clients (each client's identity its own key) and over
// classes, each class one party owed the sum of its clients' shares, and sets
// each class's FairShare.
//
// Success fractions alone cannot see a starved party when every party is
// refused at the same rate: a tenant asking 10/s and one asking 120/s, both 40%
// served, look equal, though the small one was owed all it asked. Weighting a
// class by its clients keeps a one-client class (the abuser) from being owed as
// much as three hundred users together.
func fairness(clients []clientState, groupOf []int32, classes []ClassResult) (byClient, byClass float64) {
	shares := make([]share, len(clients))
	var total int64
	for i, c := range clients {
		shares[i] = share{asked: c.requests, got: int64(c.succeeded)}
		total += int64(c.succeeded)
	}
	fair := maxMinFair(shares, total)
	for g := range classes {
		classes[g].FairShare = 0
	}
	for i, f := range fair {
		classes[groupOf[i]].FairShare += f
	}
	var cx, gx []float64
	for i, s := range shares {
		if s.asked > 0 && total > 0 {
			cx = append(cx, float64(s.got)/fair[i])
		}
	}
	for _, c := range classes {
		if c.FairShare > 0 {
			gx = append(gx, float64(c.Succeeded)/c.FairShare)
		}
	}
	return jain(cx), jain(gx)
}

// keyFairness is Jain's index over the keys of the first limit (keyOf: client →
// key id, of keys keys), each key one party asking what its clients asked,
// measured against the max-min fair split by key of the lane's successes: how
// evenly the limit served the units it counts by. 1 with a single key.
func keyFairness(clients []clientState, keyOf []int32, keys int) float64 {
	shares := make([]share, keys)
	var total int64
	for i, c := range clients {
		shares[keyOf[i]].asked += c.requests
		shares[keyOf[i]].got += int64(c.succeeded)
		total += int64(c.succeeded)
	}
	fair := maxMinFair(shares, total)
	var xs []float64
	for k, s := range shares {
		if s.asked > 0 && total > 0 {
			xs = append(xs, float64(s.got)/fair[k])
		}
	}
	return jain(xs)
}

// jain is Jain's index (Σx)²/(n·Σx²): 1 when every x is the same, 1/n when one
// party has everything; 1 with fewer than two parties.
func jain(xs []float64) float64 {
	if len(xs) < 2 {
		return 1
	}
	var sum, sumSq float64
	for _, x := range xs {
		sum += x
		sumSq += x * x
	}
	if sumSq == 0 {
		return 1
	}
	return sum * sum / (float64(len(xs)) * sumSq)
}

// maxMinFair splits total among parties by water-filling: the smallest asks are
// met in full while they are below an even split of what is left. A party that
// asked nothing is owed nothing.
func maxMinFair(parties []share, total int64) []float64 {
	order := make([]int, len(parties))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case parties[a].asked < parties[b].asked:
			return -1
		case parties[a].asked > parties[b].asked:
			return 1
		}
		return 0
	})
	fair := make([]float64, len(parties))
	left := float64(total)
	for k, i := range order {
		even := left / float64(len(order)-k)
		fair[i] = min(float64(parties[i].asked), even)
		left -= fair[i]
	}
	return fair
}
