package sim

// options are the lane options of the lane r's limiter belongs to.
func (r laneRule) options() LaneOptions {
	if r.lane == nil {
		return LaneOptions{}
	}
	return r.lane.options
}
