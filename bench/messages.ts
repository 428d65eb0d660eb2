// t() per call, since the answer path calls it on every answer: a plain message, one with values, and
// plurals with grouped numbers. Run with `npm run bench:messages`; prints ns per call, best of three.
import { t as answers } from '../src/slack/answers/messages.js';
import { t as desk } from '../src/slack/desk/messages.js';
import { t as review } from '../src/slack/review/messages.js';

const CALLS = 1_000_000;

function measure(name: string, call: () => string): void {
  for (let i = 0; i < 50_000; i += 1) call();
  let best = Number.POSITIVE_INFINITY;
  let length = 0;
  for (let run = 0; run < 3; run += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i += 1) length += call().length;
    best = Math.min(best, Number(process.hrtime.bigint() - start) / CALLS);
  }
  // The total length is printed so the calls cannot be optimised away.
  console.log(`${name.padEnd(44)} ${best.toFixed(0).padStart(6)} ns/call  (${length} chars)`);
}

measure('plain, en: try_again', () => answers('en', 'try_again'));
measure('one value, en: rated_up', () => answers('en', 'rated_up', { user: '<@U1>' }));
measure('plural, en: card_disliked', () => review('en', 'card_disliked', { count: 12345 }));
measure('plural + numbers, zh-CN: tickets_summary', () =>
  desk('zh-CN', 'tickets_summary', { total: 12345, page: 2, pages: 9, zone: 'Asia/Shanghai' }),
);
