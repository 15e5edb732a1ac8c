package sim

import "slices"

// share is what one party (a client or a class) asked for and got, in requests.
type share struct{ asked, got int64 }

// clientFairness is Jain's index over clients (each client's identity is its own
// key), measured against the max-min fair split of what the lane let succeed.
func clientFairness(clients []clientState) float64 {
	shares := make([]share, 0, len(clients))
	for _, c := range clients {
		shares = append(shares, share{asked: c.requests, got: int64(c.succeeded)})
	}
	return jainVsFair(shares)
}

// classFairness is the same index over client classes, each class one party
// however many clients it holds; it sets each class's FairShare.
func classFairness(classes []ClassResult) float64 {
	shares := make([]share, 0, len(classes))
	for _, c := range classes {
		shares = append(shares, share{asked: c.Unique, got: c.Succeeded})
	}
	var total int64
	for _, s := range shares {
		total += s.got
	}
	for i, f := range maxMinFair(shares, total) {
		classes[i].FairShare = f
	}
	return jainVsFair(shares)
}

// jainVsFair is Jain's index (Σx)²/(n·Σx²) of x = got / fair share, where the
// fair shares split the total got max-min fairly by what each party asked
// (water-filling: no one gets more than it asked, the rest is split evenly).
// It is 1 when every party got its fair share and falls towards 1/n as one
// party takes what others were owed. Parties that asked nothing are left out;
// with fewer than two parties, or nothing got, it is 1.
//
// Success fractions alone cannot see a starved party when every party is refused
// at the same rate: a tenant asking 10/s and one asking 120/s, both 40% served,
// look equal, though the small one was owed all it asked.
func jainVsFair(shares []share) float64 {
	var parties []share
	var total int64
	for _, s := range shares {
		if s.asked > 0 {
			parties = append(parties, s)
			total += s.got
		}
	}
	if len(parties) < 2 || total == 0 {
		return 1
	}
	fair := maxMinFair(parties, total)
	var sum, sumSq float64
	for i, p := range parties {
		x := float64(p.got) / fair[i]
		sum += x
		sumSq += x * x
	}
	return sum * sum / (float64(len(parties)) * sumSq)
}

// maxMinFair splits total among parties by water-filling: the smallest asks are
// met in full while they are below an even split of what is left.
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
