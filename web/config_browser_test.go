package web

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// paste puts text into the textarea id as a user's paste does.
func (p *page) paste(t *testing.T, id, text string) {
	t.Helper()
	js, _ := json.Marshal(text)
	p.ctl(t, `(() => { const ta = document.getElementById("`+id+`"); ta.value = `+string(js)+`; ta.dispatchEvent(new Event("input")); })()`)
}

// A pasted nginx config, applied, plays its nginx lane against the
// scenario's clients; a broken one shows each problem at its line under the
// config, moves the cursor there when clicked, and applies nothing.
// RLSIM_CONFIG_SCREENSHOT, when set, is where a screenshot of the page with a
// config and its warnings is written.
func TestBrowserPastedConfig(t *testing.T) {
	t.Parallel() // in a tab of its own
	p := openPage(t, Options{First: builtin(t, "demo")})
	p.waitFor(t, `rlsim.state.sess !== null && rlsim.state.frame !== null`)
	p.paste(t, "config", configSample(t, "nginx/minimal.conf"))
	p.ctl(t, `document.getElementById("apply-config").click()`)
	p.waitFor(t, `rlsim.state.sess.lanes.length === 1 && rlsim.state.frame !== null && document.querySelector('.lane[data-lane="nginx"] [data-fig=limit]').textContent !== ""`)
	if got := eval[string](t, p, `document.querySelector('.lane[data-lane="nginx"] [data-fig=limit]').textContent`); got != "10" {
		t.Errorf("the nginx lane judges against limit %q, want minimal.conf's 10r/s", got)
	}
	if y := eval[string](t, p, `document.getElementById("yaml").value`); !strings.Contains(y, "algorithm: nginx") {
		t.Errorf("the scenario editor does not show the scenario as played:\n%s", y)
	}

	broken := "http {\n" +
		"    limit_req_zone $binary_remote_addr zone=perip:10m rate=10r/s;\n" +
		"    server {\n" +
		"        location / { limit_req zone=nosuch burst=5; }\n" +
		"        location /a { limit_req zone=perip burst=x; }\n" +
		"    }\n}\n"
	p.paste(t, "config", broken)
	p.ctl(t, `document.getElementById("apply-config").click()`)
	p.waitFor(t, `document.querySelectorAll("#config-problems li").length > 0`)
	marked := eval[[]string](t, p, `[...document.querySelectorAll("#config-marks div")].map(d => d.dataset.line)`)
	gutter := eval[[]string](t, p, `[...document.querySelectorAll("#config-gutter .bad")].map(d => d.textContent)`)
	if !slices.Contains(marked, "4") || !slices.Contains(marked, "5") || !slices.Equal(gutter, []string{"4", "5"}) {
		t.Errorf("config problems marked at lines %v, in the gutter at %v; want 4 and 5", marked, gutter)
	}
	if n := eval[int](t, p, `document.querySelectorAll("#problems li").length`); n != 0 {
		t.Errorf("%d problems under the scenario editor, want the config's under the config only", n)
	}
	p.ctl(t, `[...document.querySelectorAll("#config-problems li")].find(li => li.dataset.line === "5").click()`)
	line5 := strings.Index(broken, "        location /a")
	if at := eval[int](t, p, `document.getElementById("config").selectionStart`); at != line5 {
		t.Errorf("clicking the problem at line 5 put the cursor at %d, want %d (line 5's start)", at, line5)
	}
	if n := eval[int](t, p, `rlsim.state.sess.lanes.length`); n != 1 {
		t.Errorf("%d lanes after a broken config: it must not be applied", n)
	}

	out := os.Getenv("RLSIM_CONFIG_SCREENSHOT")
	if out == "" {
		return
	}
	p.paste(t, "config", configSample(t, "nginx/problems.conf"))
	p.ctl(t, `document.getElementById("apply-config").click()`)
	p.waitFor(t, `document.querySelectorAll("#config-problems li.warn").length > 0 && rlsim.state.frame !== null`)
	p.ctl(t, steps(60))
	p.screenshot(t, out)
}
