package sim

// ProductSettings are a product lane's own settings, in the product's words:
// at most one is set, the one of the lane's product.
type ProductSettings struct {
	Nginx *NginxSettings
}

// NginxSettings are an nginx lane's limit_req settings other than the rate and
// burst, which are the limit's policy (nginxZone): per limit_req directive,
// that is per limit of the chain.
type NginxSettings struct {
	// Zones[i] is limit i's delay= or nodelay; a limit beyond Zones takes
	// Default.
	Zones []NginxDelay
	// Default is the delay= or nodelay of every limit without a zone of its own.
	Default NginxDelay
}

// NginxDelay is a limit_req directive's delay=N or nodelay: neither (the zero
// value) delays every excess request, as nginx does by default.
type NginxDelay struct {
	Delay   int64
	NoDelay bool
}

// of is the delay settings of limit i.
func (s *NginxSettings) of(i int) NginxDelay {
	if s == nil {
		return NginxDelay{}
	}
	if i < len(s.Zones) {
		return s.Zones[i]
	}
	return s.Default
}
