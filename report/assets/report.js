// rlsim report: sortable tables and the interactive lanes timeline. No library,
// no network. Errors are written into #errors, so that a test can see them.
(function () {
  'use strict';
  var errors = document.getElementById('errors');
  function fail(msg) { errors.textContent += msg + '\n'; }
  window.addEventListener('error', function (e) {
    fail('error: ' + e.message + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
  });
  window.addEventListener('unhandledrejection', function (e) { fail('unhandled rejection: ' + e.reason); });
  var consoleError = console.error;
  console.error = function () {
    fail('console.error: ' + Array.prototype.join.call(arguments, ' '));
    consoleError.apply(console, arguments);
  };

  var EVENTS = ['admitted', 'delayed (admitted late)', 'refused', 'dropped by the client', 'shed (503)']; // a refusal's status is its lane's (describe)
  var COLOURS = ['#0072B2', '#E69F00', '#D55E00', '#999999', '#CC79A7']; // by sim.TraceEvent
  var UP = [true, true, false, false, false];
  var PEAK = 'rgba(240,228,66,0.45)';
  var SHADOW = '#D55E00'; // a would-be refusal by a shadow limit: the refusal's colour, hollow
  var RULE = '#1d1d1f';   // a rule push
  var OUTAGE = 'rgba(153,153,153,0.28)'; // the store was down
  var NOHEALTHY = 'rgba(213,94,0,0.22)'; // no replica in the load balancer's rotation
  var FAILING = 'rgba(106,61,154,0.19)'; // a stretch of failed store calls

  function fmtDur(us) {
    if (us === 0) return '0';
    var a = Math.abs(us);
    if (a < 1000) return us + 'µs';
    if (a < 1e6) return +(us / 1000).toFixed(1) + 'ms';
    if (a < 60e6) return +(us / 1e6).toFixed(3) + 's';
    var m = Math.floor(us / 60e6);
    return m + 'm' + +((us - m * 60e6) / 1e6).toFixed(1) + 's';
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
  }

  function sortable(table) {
    var ths = table.querySelectorAll('th');
    ths.forEach(function (th, col) {
      th.addEventListener('click', function () {
        var asc = !th.classList.contains('asc');
        ths.forEach(function (h) { h.classList.remove('asc', 'desc'); });
        th.classList.add(asc ? 'asc' : 'desc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].dataset.sort, y = b.cells[col].dataset.sort;
          var nx = parseFloat(x), ny = parseFloat(y);
          var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }

  var GUTTER = 180, ROW = 46, AXIS = 26, BAR = 17;
  // FROW is a replica row's height, below the lanes; FLEET its stretches'
  // colours by kind: out of the rotation, not in the fleet, breaker open, half-open.
  var FROW = 16, FLEET = ['rgba(213,94,0,0.75)', 'rgba(187,187,187,0.56)', '#303030', '#56b4e9'];

  function Timeline(box, tl) {
    this.box = box;
    this.tl = tl;
    this.canvas = box.querySelector('canvas');
    this.tip = box.querySelector('.tip');
    this.range = box.querySelector('.range');
    this.ctx = this.canvas.getContext('2d');
    this.t0 = 0;
    this.t1 = tl.end_us;
    this.bind();
    this.resize();
  }

  Timeline.prototype.width = function () { return this.cssWidth - GUTTER - 10; };
  Timeline.prototype.x = function (t) { return GUTTER + (t - this.t0) / (this.t1 - this.t0) * this.width(); };
  Timeline.prototype.t = function (x) { return this.t0 + (x - GUTTER) / this.width() * (this.t1 - this.t0); };

  Timeline.prototype.resize = function () {
    var dpr = window.devicePixelRatio || 1;
    this.cssWidth = Math.max(600, this.box.clientWidth - 18);
    this.cssHeight = AXIS + this.tl.lanes.length * ROW + (this.tl.fleet || []).length * FROW + 4;
    this.canvas.width = Math.round(this.cssWidth * dpr);
    this.canvas.height = Math.round(this.cssHeight * dpr);
    this.canvas.style.height = this.cssHeight + 'px';
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.draw();
  };

  Timeline.prototype.setView = function (t0, t1) {
    var end = this.tl.end_us, span = Math.max(50, Math.min(end, t1 - t0));
    t0 = Math.max(0, Math.min(t0, end - span));
    this.t0 = t0;
    this.t1 = t0 + span;
    this.draw();
  };

  Timeline.prototype.zoom = function (factor, at) {
    var span = (this.t1 - this.t0) * factor;
    var f = (at - this.t0) / (this.t1 - this.t0);
    this.setView(at - f * span, at - f * span + span);
  };

  // lowerBound is the first index of the sorted times at or after t.
  function lowerBound(a, t) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] < t) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // mergedColumns groups an aggregated lane's columns so that each drawn one is
  // at least two pixels wide; it returns [startUs, endUs, a, d, r, s, x, shadow] rows in view.
  Timeline.prototype.mergedColumns = function (lane) {
    var colUs = this.tl.col_us, pxPerCol = colUs / (this.t1 - this.t0) * this.width();
    var m = Math.max(1, Math.ceil(2 / pxPerCol)), out = [], cur = null;
    lane.columns.forEach(function (c) {
      var g = Math.floor(c[0] / m), s = g * m * colUs;
      if (s + m * colUs < this.t0 || s > this.t1) return;
      if (!cur || cur.g !== g) { cur = { g: g, v: [s, s + m * colUs, 0, 0, 0, 0, 0, 0] }; out.push(cur.v); }
      for (var k = 1; k < 7; k++) cur.v[k + 1] += c[k] || 0;
    }, this);
    return out;
  };

  Timeline.prototype.draw = function () {
    var ctx = this.ctx, tl = this.tl, self = this, w = this.width();
    ctx.clearRect(0, 0, this.cssWidth, this.cssHeight);
    ctx.font = '12px system-ui, sans-serif';
    // Time axis.
    var span = this.t1 - this.t0, raw = span / Math.max(2, w / 110), p = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (k) { return k * p; }).find(function (s) { return s >= raw; });
    ctx.fillStyle = '#5f6368';
    ctx.strokeStyle = '#ececec';
    ctx.textAlign = 'center';
    for (var t = Math.ceil(this.t0 / step) * step; t <= this.t1; t += step) {
      var x = this.x(t);
      ctx.fillText(fmtDur(Math.round(t)), x, 14);
      ctx.beginPath(); ctx.moveTo(x + 0.5, AXIS - 6); ctx.lineTo(x + 0.5, this.cssHeight); ctx.stroke();
    }
    // Aggregated lanes share one height scale.
    var most = 1, merged = {};
    tl.lanes.forEach(function (lane, i) {
      if (lane.exact) return;
      merged[i] = self.mergedColumns(lane);
      merged[i].forEach(function (c) { most = Math.max(most, c[2] + c[3], c[4] + c[5] + c[6], c[7]); });
    });
    var drawnTicks = 0;
    ctx.save();
    tl.lanes.forEach(function (lane, i) {
      var top = AXIS + i * ROW, mid = top + ROW / 2;
      ctx.fillStyle = '#1d1d1f';
      ctx.textAlign = 'right';
      ctx.font = '600 13px system-ui, sans-serif';
      ctx.fillText(lane.title, GUTTER - 10, mid + 1);
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = '#5f6368';
      ctx.fillText(lane.exact ? 'every attempt' : 'aggregated', GUTTER - 10, mid + 14);
      ctx.save();
      ctx.beginPath(); ctx.rect(GUTTER, top, w, ROW); ctx.clip();
      if (lane.peak > 0 && lane.peak_us[1] > lane.peak_us[0]) {
        ctx.fillStyle = PEAK;
        var a = self.x(lane.peak_us[0]), b = self.x(lane.peak_us[1]);
        ctx.fillRect(a, top + 1, Math.max(1, b - a), ROW - 2);
      }
      (tl.outages || []).forEach(function (o) {
        var a = self.x(o.from_us), b = self.x(o.to_us);
        ctx.fillStyle = OUTAGE;
        ctx.fillRect(a, top, Math.max(1, b - a), ROW);
      });
      (lane.failing || []).forEach(function (o) {
        var a = self.x(o.from_us), b = self.x(o.to_us);
        ctx.fillStyle = FAILING;
        ctx.fillRect(a, top, Math.max(1, b - a), ROW);
      });
      (lane.down || []).forEach(function (o) {
        var a = self.x(o.from_us), b = self.x(o.to_us);
        ctx.fillStyle = NOHEALTHY;
        ctx.fillRect(a, top, Math.max(1, b - a), ROW);
      });
      ctx.fillStyle = '#d0d0d0';
      ctx.fillRect(GUTTER, mid, w, 1);
      if (lane.exact) {
        var ts = lane.ticks, lo = lowerBound(ts.t, self.t0 - 1), hi = lowerBound(ts.t, self.t1 + 1);
        var tw = Math.max(1.5, Math.min(6, w / ((self.t1 - self.t0) / 1e4)));
        for (var k = lo; k < hi; k++) {
          var e = ts.e[k], tx = self.x(ts.t[k]);
          ctx.fillStyle = COLOURS[e] || '#000';
          if (UP[e]) ctx.fillRect(tx - tw / 2, mid - BAR, tw, BAR);
          else ctx.fillRect(tx - tw / 2, mid + 1, tw, BAR);
          if (ts.s && ts.s[k] >= 0) {
            ctx.strokeStyle = SHADOW;
            ctx.strokeRect(tx - tw / 2, mid + 1, tw, BAR);
          }
          drawnTicks++;
        }
      } else {
        merged[i].forEach(function (c) {
          var a = self.x(c[0]), bw = Math.max(1, self.x(c[1]) - a);
          var up = c[2] + c[3], down = c[4] + c[5] + c[6];
          var hu = up ? Math.max(2, BAR * Math.sqrt(up / most)) : 0;
          var hd = down ? Math.max(2, BAR * Math.sqrt(down / most)) : 0;
          var y = mid;
          [[c[2], 0], [c[3], 1]].forEach(function (p) {
            if (!p[0]) return;
            var h = hu * p[0] / up; ctx.fillStyle = COLOURS[p[1]]; ctx.fillRect(a, y - h, bw, h); y -= h;
          });
          y = mid + 1;
          [[c[4], 2], [c[5], 4], [c[6], 3]].forEach(function (p) {
            if (!p[0]) return;
            var h = hd * p[0] / down; ctx.fillStyle = COLOURS[p[1]]; ctx.fillRect(a, y, bw, h); y += h;
          });
          if (c[7]) {
            ctx.strokeStyle = SHADOW;
            ctx.strokeRect(a, mid + 1, bw, Math.max(2, BAR * Math.sqrt(c[7] / most)));
          }
          drawnTicks++;
        });
      }
      ctx.restore();
      ctx.fillStyle = '#ececec';
      ctx.fillRect(0, top + ROW - 1, self.cssWidth, 1);
    });
    ctx.restore();
    var fleetDrawn = 0;
    (tl.fleet || []).forEach(function (row, k) {
      var top = AXIS + tl.lanes.length * ROW + k * FROW, h = FROW - 3;
      ctx.fillStyle = '#1d1d1f';
      ctx.textAlign = 'right';
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillText(row.label, GUTTER - 10, top + FROW - 4);
      ctx.save();
      ctx.beginPath(); ctx.rect(GUTTER, top, w, FROW); ctx.clip();
      ctx.fillStyle = '#ececec';
      ctx.fillRect(GUTTER, top + FROW / 2, w, 1);
      row.spans.forEach(function (s) {
        var a = self.x(s.from_us), b = self.x(s.to_us), y = top + 1, sh = h;
        if (s.s >= 0) { sh = h / row.shards; y = top + 1 + sh * s.s; }
        ctx.fillStyle = FLEET[s.k];
        ctx.fillRect(a, y, Math.max(1, b - a), Math.max(1, sh * 0.9));
        fleetDrawn++;
      });
      ctx.restore();
    });
    if (tl.fleet) this.box.dataset.fleetDrawn = String(fleetDrawn);
    function mark(at, text, dash, row) {
      var x = self.x(at);
      if (x < GUTTER || x > GUTTER + w) return;
      ctx.save();
      ctx.strokeStyle = RULE;
      ctx.setLineDash(dash);
      ctx.beginPath(); ctx.moveTo(x + 0.5, AXIS - 4); ctx.lineTo(x + 0.5, self.cssHeight); ctx.stroke();
      ctx.restore();
      var y = AXIS + 1 + row * 14;
      ctx.textAlign = 'left';
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(x + 2, y, ctx.measureText(text).width + 4, 13);
      ctx.fillStyle = RULE;
      ctx.fillText(text, x + 4, y + 10);
    }
    (tl.rules || []).forEach(function (r) { mark(r.at_us, 'rule push: ' + r.label, [4, 3], 0); });
    (tl.replicas || []).forEach(function (r) { mark(r.at_us, r.label, [1, 2], 1); });
    var outagesDrawn = 0;
    (tl.outages || []).forEach(function (o) {
      var x = Math.max(GUTTER, self.x(o.from_us));
      if (self.x(o.to_us) < GUTTER || x > GUTTER + w) return;
      outagesDrawn++;
      ctx.textAlign = 'left';
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = '#5f6368';
      ctx.fillText('store down', x + 4, self.cssHeight - 4);
    });
    this.range.textContent = 'showing ' + fmtDur(Math.round(this.t0)) + ' – ' + fmtDur(Math.round(this.t1)) + ' of ' + fmtDur(tl.end_us);
    this.box.dataset.lanesDrawn = String(tl.lanes.length);
    this.box.dataset.ticksDrawn = String(drawnTicks);
    if (tl.outages) this.box.dataset.outagesDrawn = String(outagesDrawn);
  };

  // hit finds what is under the pointer: an exact tick or an aggregated column.
  Timeline.prototype.hit = function (px, py) {
    var i = Math.floor((py - AXIS) / ROW), lane = this.tl.lanes[i];
    if (!lane || px < GUTTER) return null;
    var t = this.t(px), perPx = (this.t1 - this.t0) / this.width();
    if (lane.exact) {
      var ts = lane.ticks.t, k = lowerBound(ts, t), best = -1, bestD = 5 * perPx;
      var wantUp = py < AXIS + i * ROW + ROW / 2;
      for (var j = Math.max(0, k - 50); j < Math.min(ts.length, k + 50); j++) {
        var d = Math.abs(ts[j] - t);
        if (UP[lane.ticks.e[j]] !== wantUp) d += 2 * perPx;
        if (d < bestD) { bestD = d; best = j; }
      }
      return best < 0 ? null : { lane: lane, tick: best };
    }
    var cols = this.mergedColumns(lane);
    for (var c = 0; c < cols.length; c++) {
      if (t >= cols[c][0] - perPx && t < cols[c][1] + perPx) return { lane: lane, col: cols[c] };
    }
    return null;
  };

  Timeline.prototype.describe = function (h) {
    var tl = this.tl, lane = h.lane, rows = [];
    function row(k, v) { rows.push('<tr><td>' + esc(k) + '</td><td>' + v + '</td></tr>'); }
    if (h.col) {
      var c = h.col;
      row('time', esc(fmtDur(c[0]) + ' – ' + fmtDur(c[1])));
      ['admitted', 'delayed', 'refused (' + lane.refusal + ')', 'shed (503)', 'dropped', 'would be refused by a shadow limit'].forEach(function (name, k) { if (c[k + 2]) row(name, String(c[k + 2])); });
      return '<b>' + esc(lane.title) + '</b><table>' + rows.join('') + '</table><small>this lane had more than ' + tl.tick_cap + ' attempts, so they are counted per column</small>';
    }
    var ts = lane.ticks, k = h.tick, e = ts.e[k];
    row('at', esc('t=' + fmtDur(ts.t[k])));
    row('verdict', '<span style="color:' + COLOURS[e] + '">■</span> ' + esc(e === 2 ? 'refused (' + lane.refusal + ')' : EVENTS[e]));
    row('client', esc('#' + ts.c[k] + ' (' + tl.classes[ts.g[k]] + ')'));
    row('key', esc(tl.keys[ts.k[k]]));
    row('request', esc('#' + ts.rq[k] + ', attempt ' + ts.a[k] + (ts.w[k] > 1 ? ', cost ' + ts.w[k] : '')));
    if (ts.s && ts.s[k] >= 0) row('shadow', '<span style="color:' + SHADOW + '">□</span> ' + esc('would have been refused by ' + tl.limits[ts.s[k]].name + ' (not enforced)'));
    var lim = ts.l[k] >= 0 ? tl.limits[ts.l[k]] : tl.limits[0];
    var hdr = [];
    if (e === 1) {
      row('delay', esc(fmtDur(ts.d[k]) + ', released at t=' + fmtDur(ts.t[k] + ts.d[k])));
    }
    if (e === 2) {
      var ra = ts.ra[k];
      row('Retry-After', esc(fmtDur(Math.round(ra / 1000)) + (lane.algorithm === 'sliding_window_counter' ? ' (an estimate)' : ' (exact)')));
      row('limit', esc(lim ? lim.name : ''));
      hdr.push('HTTP/1.1 429 Too Many Requests');
    } else if (e === 0 || e === 1) {
      hdr.push('HTTP/1.1 200 OK');
    } else if (e === 4) {
      hdr.push('HTTP/1.1 503 Service Unavailable');
    } else if (e === 3) {
      hdr.push('(never sent: the client dropped it)');
    }
    // The header lines are written once, in Go (sim.ResponseHeaders).
    if (e !== 3 && tl.responses[ts.h[k]]) hdr = hdr.concat(tl.responses[ts.h[k]].split('\n'));
    if (hdr.length) row('response', '<code>' + hdr.map(esc).join('<br>') + '</code>');
    return '<b>' + esc(lane.title) + '</b><table>' + rows.join('') + '</table>';
  };


  Timeline.prototype.bind = function () {
    var self = this, c = this.canvas, drag = null;
    function pos(ev) { var r = c.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
    c.addEventListener('wheel', function (ev) {
      var p = pos(ev);
      if (p[0] < GUTTER) return;
      ev.preventDefault();
      self.zoom(ev.deltaY < 0 ? 0.8 : 1.25, self.t(p[0]));
    }, { passive: false });
    c.addEventListener('pointerdown', function (ev) {
      drag = { x: pos(ev)[0], t0: self.t0, t1: self.t1 };
      c.classList.add('dragging');
      c.setPointerCapture(ev.pointerId);
    });
    c.addEventListener('pointerup', function () { drag = null; c.classList.remove('dragging'); });
    c.addEventListener('pointermove', function (ev) {
      var p = pos(ev);
      if (drag) {
        var dt = (p[0] - drag.x) / self.width() * (drag.t1 - drag.t0);
        self.setView(drag.t0 - dt, drag.t1 - dt);
        self.tip.hidden = true;
        return;
      }
      var h = self.hit(p[0], p[1]);
      if (!h) { self.tip.hidden = true; return; }
      self.tip.innerHTML = self.describe(h);
      self.tip.hidden = false;
      var left = p[0] + 16, boxW = self.box.clientWidth;
      if (left + 330 > boxW) left = p[0] - 340;
      self.tip.style.left = Math.max(0, left) + 'px';
      self.tip.style.top = (p[1] + 40) + 'px';
    });
    c.addEventListener('pointerleave', function () { self.tip.hidden = true; });
    c.addEventListener('dblclick', function () { self.setView(0, self.tl.end_us); });
    this.box.querySelectorAll('button').forEach(function (b) {
      b.addEventListener('click', function () {
        var mid = (self.t0 + self.t1) / 2;
        if (b.dataset.act === 'in') self.zoom(0.5, mid);
        if (b.dataset.act === 'out') self.zoom(2, mid);
        if (b.dataset.act === 'reset') self.setView(0, self.tl.end_us);
      });
    });
    window.addEventListener('resize', function () { self.resize(); });
  };

  // selfTest drives the first timeline through the same pointer and wheel events
  // a person's mouse sends (hover a refused tick, zoom, pan) and records what
  // happened in data-selftest, for the browser test: report.html#selftest.
  function selfTest(tlv) {
    var done = [], c = tlv.canvas, r = c.getBoundingClientRect();
    function send(type, x, y, extra) {
      var init = Object.assign({ clientX: r.left + x, clientY: r.top + y, bubbles: true, pointerId: 1 }, extra || {});
      c.dispatchEvent(type === 'wheel' ? new WheelEvent(type, init) : new PointerEvent(type, init));
    }
    var lanes = tlv.tl.lanes;
    for (var i = 0; i < lanes.length && done.length === 0; i++) {
      var ts = lanes[i].exact && lanes[i].ticks;
      var k = ts ? ts.e.indexOf(2) : -1; // a refusal
      if (k < 0) continue;
      send('pointermove', tlv.x(ts.t[k]), AXIS + i * ROW + ROW * 0.75);
      var tip = tlv.tip.textContent;
      if (tlv.tip.hidden || tip.indexOf('429 Too Many Requests') < 0 || tip.indexOf('Retry-After') < 0) {
        fail('selftest: hovering a refusal of ' + lanes[i].lane + ' showed: ' + (tlv.tip.hidden ? '(nothing)' : tip));
        return;
      }
      done.push('hover');
    }
    var span = tlv.t1 - tlv.t0, mid = GUTTER + tlv.width() / 2;
    send('wheel', mid, AXIS + 2, { deltaY: -100 });
    if (!(tlv.t1 - tlv.t0 < span)) { fail('selftest: the wheel did not zoom in'); return; }
    done.push('zoom');
    var t0 = tlv.t0;
    send('pointerdown', mid, AXIS + 2);
    send('pointermove', mid + 100, AXIS + 2);
    send('pointerup', mid + 100, AXIS + 2);
    if (!(tlv.t0 < t0)) { fail('selftest: dragging right did not pan back in time'); return; }
    done.push('pan');
    c.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    if (tlv.t0 !== 0 || tlv.t1 !== tlv.tl.end_us) { fail('selftest: double-click did not show the whole run'); return; }
    done.push('reset');
    document.body.dataset.selftest = done.join(' ');
  }

  document.querySelectorAll('table.sortable').forEach(sortable);
  var timelines = [];
  document.querySelectorAll('.timeline').forEach(function (box) {
    var data = JSON.parse(box.closest('section').querySelector('script.page-data').textContent);
    timelines.push(new Timeline(box, data.timeline));
  });
  document.body.dataset.timelines = String(timelines.length);
  if (location.hash === '#selftest' && timelines.length) selfTest(timelines[0]);
})();
