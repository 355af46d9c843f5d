// The webview's redraw throttle: the summary strip and the timeline are rebuilt at most once per
// interval in a burst, never lose the last state, and a change a person must see runs at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Throttle } from '../../media/src/throttle';

function fakeClock() {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => void timers.push({ at: now + ms, fn }),
    advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.fn();
      }
    },
    waiting: () => timers.length,
  };
}

test('a burst of requests runs once at once and once at the end of each interval, never every time', () => {
  const clock = fakeClock();
  const runs: number[] = [];
  const throttle = new Throttle(250, () => runs.push(clock.now()), clock);
  // A request every 16 ms (one per frame) for a second.
  for (let t = 0; t < 1000; t += 16) {
    throttle.request();
    clock.advance(16);
  }
  clock.advance(250);
  assert.equal(runs[0], 0, 'the first request runs at once');
  for (let i = 1; i < runs.length; i++) assert.ok(runs[i]! - runs[i - 1]! >= 250, `runs ${runs.join(', ')}`);
  assert.ok(runs.length >= 4 && runs.length <= 6, `about one run per 250 ms: ${runs.join(', ')}`);
  assert.ok(runs.at(-1)! >= 1000 - 16, 'the last request of the burst is drawn after it');
  assert.equal(clock.waiting(), 0);
});

test('a lone request after a quiet spell runs at once; runNow runs at once inside an interval', () => {
  const clock = fakeClock();
  let runs = 0;
  const throttle = new Throttle(250, () => runs++, clock);
  throttle.request();
  assert.equal(runs, 1);
  clock.advance(100);
  throttle.runNow();
  assert.equal(runs, 2, 'runNow does not wait');
  throttle.request();
  assert.equal(runs, 2, 'inside the interval it waits');
  clock.advance(250);
  assert.equal(runs, 3, 'and runs at its end');
  clock.advance(1000);
  throttle.request();
  assert.equal(runs, 4);
});
