package algorithms

import (
	"fmt"
	"reflect"
	"regexp"
	"testing"
	"time"
)

// costRules is one of every rule type whose methods take a request's cost,
// each built from a small valid policy.
func costRules(t *testing.T) []any {
	t.Helper()
	p := Policy{Limit: 10, Window: 10 * time.Second, Burst: 10}
	must := func(r any, err error) any {
		t.Helper()
		if err != nil {
			t.Fatalf("%T: %v", r, err)
		}
		return r
	}
	of := func(x any, err error) any {
		t.Helper()
		if err != nil {
			t.Fatalf("%T: %v", x, err)
		}
		return x
	}
	return []any{
		must(NewTokenBucket(p)), must(NewGCRA(p)), must(NewFixedWindow(p)), must(NewSlidingLog(p)),
		must(NewSlidingWindowCounter(p)), must(NewLeakyBucket(p)),
		must(NewStepwiseBucket(p, AlignClock, time.Time{})), must(NewAlignedFixedWindow(p, AlignClock)),
		must(NewAWSThrottle(of(AWSThrottleParamsOf(p)).(AWSThrottleParams))),
		must(NewAWSQuota(AWSQuotaParams{Limit: 10, Period: AWSQuotaDay, Epoch: time.Unix(0, 0)})),
		must(NewAWSWAF(of(AWSWAFParamsOf(Policy{Limit: 10, Window: time.Minute})).(AWSWAFParams))),
		must(NewCloudflare(of(CloudflareParamsOf(p)).(CloudflareParams))),
		must(NewEnvoyLocal(of(EnvoyLocalParamsOf(p)).(EnvoyLocalParams))),
		must(NewEnvoyRLS(of(EnvoyRLSParamsOf(Policy{Limit: 10, Window: time.Second})).(EnvoyRLSParams))),
		must(NewHAProxy(of(HAProxyTableOf(p)).(HAProxyTable))),
		must(NewKong(of(KongParamsOf(Policy{Limit: 10, Window: time.Second})).(KongParams))),
		must(NewKongAdvanced(of(KongAdvancedParamsOf(p)).(KongAdvancedParams))),
		must(NewNginx(of(NginxZoneOf(Policy{Limit: 10, Window: time.Second, Burst: 10})).(NginxZone))),
		must(NewTraefik(of(TraefikParamsOf(p)).(TraefikParams))),
	}
}

// costMethods are the methods that take (state, now, cost) and hold it to
// at least 1 (Charge states no bound: Charging counts whatever it is given).
var costMethods = []string{"Decide", "Admit", "Answer", "Queue", "Peek"}

// Every method of every rule that decides on a cost refuses a cost under 1
// with a panic naming a method (its own, or the one it hands the request to)
// and the cost.
func TestEveryCostTakingMethodRefusesACostUnderOne(t *testing.T) {
	checked := map[string]bool{}
	for _, r := range costRules(t) {
		v := reflect.ValueOf(r)
		typ := v.Type().Elem().Name()
		for _, name := range costMethods {
			m := v.MethodByName(name)
			if !m.IsValid() {
				continue
			}
			mt := m.Type()
			if mt.NumIn() != 3 || mt.In(0).Kind() != reflect.Pointer || mt.In(1) != reflect.TypeFor[time.Duration]() || mt.In(2).Kind() != reflect.Int64 {
				continue
			}
			for _, cost := range []int64{0, -2} {
				want := regexp.MustCompile(fmt.Sprintf(`^algorithms: [A-Za-z]+\.[A-Za-z]+: cost must be at least 1, got %d$`, cost))
				got := func() (r any) {
					defer func() { r = recover() }()
					m.Call([]reflect.Value{reflect.New(mt.In(0).Elem()), reflect.ValueOf(time.Second), reflect.ValueOf(cost)})
					return nil
				}()
				if msg, ok := got.(string); !ok || !want.MatchString(msg) {
					t.Errorf("%s.%s(cost %d) panicked with %v, want one matching %s", typ, name, cost, got, want)
				}
			}
			checked[typ+"."+name] = true
		}
	}
	if len(checked) < 50 {
		t.Errorf("only %d methods checked: %v", len(checked), checked)
	}
}
