// The answer path reads the robot's answer, its envelope and our own ask by hand when they are plain
// (src/platform/plain-readers.ts); zod stays the definition. Every value a reader takes must come out
// exactly as the schema returns it, on thousands of generated values, and a reader must leave to the
// schema whatever the schema refuses.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  readPlainEnvelope,
  readPlainRobotAnswer,
  readPlainRobotAsk,
} from '../../../src/platform/plain-readers.js';
import {
  openEnvelopeSchema,
  robotAnswerSchema,
  robotAskRequestSchema,
} from '../../../src/platform/schemas.js';
import { MISSING, valueGenerator } from '../../support/generated-values.js';

/** Values a field may carry, plain and not. */
const SCALARS: unknown[] = [
  MISSING,
  undefined,
  null,
  '',
  ' ',
  'x',
  ' 12 ',
  '12',
  '-3',
  '1.5',
  'true',
  0,
  1,
  4,
  5,
  -3,
  1.5,
  2 ** 53,
  Number.NaN,
  true,
  false,
  {},
  [],
];

/** Fields mostly plain (the readers' case), sometimes anything; an object now and then has a field more. */
function generator(seed: number) {
  const values = valueGenerator(seed, SCALARS, 0.85);
  const object = (fields: Record<string, unknown>) => {
    const built = values.object(fields);
    if (values.random() < 0.2) built.extra = values.pick(SCALARS.filter((value) => value !== MISSING));
    return built;
  };
  return { ...values, object };
}

function expectReaderAgrees<S extends z.ZodType>(
  schema: S,
  read: (value: unknown) => unknown,
  values: unknown[],
): { read: number; total: number } {
  let taken = 0;
  for (const value of values) {
    const byHand = read(value);
    if (byHand === undefined) continue;
    taken += 1;
    const bySchema = schema.safeParse(value);
    expect(bySchema.success, JSON.stringify(value)).toBe(true);
    expect(byHand, JSON.stringify(value)).toStrictEqual(bySchema.data);
  }
  return { read: taken, total: values.length };
}

describe('plain readers give what their schema gives', () => {
  it("the robot's answer", () => {
    const { field, object, random, pick } = generator(21);
    const suggestion = () =>
      random() < 0.05
        ? pick(SCALARS)
        : object({
            question: field(['How do I connect?', '  ', 'Payday?']),
            answer: field([MISSING, 'It is on the 25th.']),
            docId: field([MISSING, 'doc-7']),
          });
    const values = Array.from({ length: 4_000 }, () =>
      random() < 0.03
        ? pick(SCALARS)
        : object({
            answer: field([MISSING, null, '<p>Open the portal.</p>']),
            suggestions: field([
              MISSING,
              null,
              [],
              Array.from({ length: Math.floor(random() * 4) }, suggestion),
            ]),
            question: field([MISSING, null, 'reset password']),
            docId: field([MISSING, null, 'doc-1']),
            uid: field([MISSING, 'u-1']),
            cid: field([MISSING, 'c-1']),
            msgId: field([MISSING, 'm-1']),
            stripe: field([MISSING, null, 'You may also ask:']),
            robotFlag: field([MISSING, null, 1]),
            answerType: field([MISSING, 1, 3]),
            sessionNew: field([MISSING, null, true, false]),
          }),
    );
    const { read, total } = expectReaderAgrees(robotAnswerSchema, readPlainRobotAnswer, values);
    // The generator makes many plain answers: the comparison covers them, not only refusals.
    expect(read).toBeGreaterThan(total / 10);
  });

  it('the envelope', () => {
    const { field, object, random, pick } = generator(22);
    const values = Array.from({ length: 1_000 }, () =>
      random() < 0.05
        ? pick(SCALARS)
        : object({ code: field(['1000', '1002']), data: field([MISSING, {}, null]) }),
    );
    const { read, total } = expectReaderAgrees(openEnvelopeSchema, readPlainEnvelope, values);
    expect(read).toBeGreaterThan(total / 2);
  });

  it('our robot ask', () => {
    const { field, object, random } = generator(23);
    const values = Array.from({ length: 4_000 }, () => {
      const ask = object({
        sysNum: field(['acme']),
        partnerId: field(['T1:U1']),
        question: field(['How do I reset my password?']),
        uname: field([MISSING, 'Jane']),
        source: field([MISSING, 0, 2]),
        robotFlag: field([MISSING, 0, 1]),
        questionFlag: field([MISSING, 0, 1]),
        requestText: field([MISSING, 'doc-1']),
      });
      if (random() < 0.7) delete ask.extra;
      return ask;
    });
    const { read, total } = expectReaderAgrees(robotAskRequestSchema, readPlainRobotAsk, values);
    expect(read).toBeGreaterThan(total / 10);
  });

  it('leave whatever the schema refuses to the schema', () => {
    const refusedAnswers = [7, [], { answer: {} }, { answer: 'a', suggestions: [7] }, { robotFlag: '1.5' }];
    const refusedEnvelopes = [null, 'x', { code: {} }, {}];
    const refusedAsks = [
      { sysNum: 'acme', partnerId: 'p', question: 'q', questionFlag: 1 },
      { sysNum: 'acme', partnerId: 'p', question: '' },
      { sysNum: 'acme', partnerId: 'p', question: 'q', surplus: 1 },
      { sysNum: 'acme', partnerId: 'p', question: 'q', source: 5 },
    ];
    for (const value of refusedAnswers) expect(robotAnswerSchema.safeParse(value).success).toBe(false);
    for (const value of refusedEnvelopes) expect(openEnvelopeSchema.safeParse(value).success).toBe(false);
    for (const value of refusedAsks) expect(robotAskRequestSchema.safeParse(value).success).toBe(false);
    expect(refusedAnswers.map(readPlainRobotAnswer)).toEqual(refusedAnswers.map(() => undefined));
    expect(refusedEnvelopes.map(readPlainEnvelope)).toEqual(refusedEnvelopes.map(() => undefined));
    expect(refusedAsks.map(readPlainRobotAsk)).toEqual(refusedAsks.map(() => undefined));
  });
});
