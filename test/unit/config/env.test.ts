import { describe, expect, it } from 'vitest';
import { DEDUP_TTL_MIN_SECONDS, gatewayProblems, parseEnv } from '../../../src/config/env.js';
import {
  decodeTryAgainValue,
  encodeTryAgainValue,
  TRY_AGAIN_QUESTION_MAX,
} from '../../../src/slack/render/button-values.js';

const platform = {
  CS_OPEN_URL: 'https://open.example.com/',
  CS_SYS_NUM: 'acme',
  CS_ACCESS_TOKEN: 'a'.repeat(40),
};

describe('parseEnv', () => {
  it('accepts an empty environment: the gateway then runs on the built-in simulator', () => {
    const result = parseEnv({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.env.CS_OPEN_URL).toBeUndefined();
    expect(result.env.PORT).toBe(3000);
    expect(result.env.LOG_LEVEL).toBe('info');
    expect(result.env.DEFAULT_LOCALE).toBe('en');
    expect(result.env.CS_TOKEN_EXPIRE_HOURS).toBe(2);
  });

  it('reads numbers and trims the trailing slash of URLs', () => {
    const result = parseEnv({ ...platform, PORT: '8080', CS_ROBOT_FLAG: '3', CS_SOURCE: '2' });
    expect(result.ok && result.env).toMatchObject({
      CS_OPEN_URL: 'https://open.example.com',
      PORT: 8080,
      CS_ROBOT_FLAG: 3,
      CS_SOURCE: 2,
    });
  });

  it('treats empty strings as unset, as a .env file copied from .env.example leaves them', () => {
    const result = parseEnv({ CS_OPEN_URL: '', PORT: '', REDIS_URL: '' });
    expect(result.ok).toBe(true);
  });

  it('reports every problem at once, one line per variable', () => {
    const result = parseEnv({
      CS_OPEN_URL: 'ftp://nope',
      PORT: 'eighty',
      CS_SOURCE: '9',
      LOG_LEVEL: 'chatty',
      CS_TOKEN_EXPIRE_HOURS: '48',
      REDIS_URL: 'localhost:6379',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const variables = result.problems.map((line) => line.split(':')[0]);
    expect(variables).toEqual(
      expect.arrayContaining([
        'CS_OPEN_URL',
        'PORT',
        'CS_SOURCE',
        'LOG_LEVEL',
        'CS_TOKEN_EXPIRE_HOURS',
        'REDIS_URL',
      ]),
    );
    expect(new Set(variables).size).toBe(variables.length);
  });

  it('requires the platform identity and a credential once a platform URL is set', () => {
    const result = parseEnv({ CS_OPEN_URL: 'https://open.example.com' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join('\n')).toMatch(/^CS_SYS_NUM: /m);
    expect(result.problems.join('\n')).toMatch(/^CS_ACCESS_TOKEN: .*CS_APP_ID/m);
  });

  it('accepts an app id and key instead of a static token, but not one without the other', () => {
    expect(parseEnv({ ...platform, CS_ACCESS_TOKEN: '', CS_APP_ID: 'app', CS_APP_KEY: 'key' }).ok).toBe(true);
    const half = parseEnv({ ...platform, CS_APP_ID: 'app' });
    expect(half.ok).toBe(false);
    if (!half.ok) expect(half.problems).toEqual(['CS_APP_KEY: must be set together with its partner']);
  });

  it('never echoes a secret value in a problem line', () => {
    const secretToken = `tok-${'x'.repeat(60)}`;
    const result = parseEnv({
      ...platform,
      CS_ACCESS_TOKEN: secretToken,
      REDIS_URL: 'http://user:hunter2@redis',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const output = result.problems.join('\n');
    expect(output).toContain('CS_ACCESS_TOKEN: must be at most 40 characters');
    expect(output).not.toContain(secretToken);
    expect(output).not.toContain('hunter2');
  });
});

describe('DEDUP_TTL_SECONDS', () => {
  it('remembers a delivery for hours by default, well past Slack retrying it within the hour', () => {
    const result = parseEnv({});
    expect(result.ok && result.env.DEDUP_TTL_SECONDS).toBeGreaterThanOrEqual(3 * 3600);
  });

  it('refuses a memory shorter than an hour with one line, and takes an hour', () => {
    expect(DEDUP_TTL_MIN_SECONDS).toBe(3600);
    const short = parseEnv({ DEDUP_TTL_SECONDS: '600' });
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.problems).toEqual(['DEDUP_TTL_SECONDS: must be at least 3600']);
    const hour = parseEnv({ DEDUP_TTL_SECONDS: '3600' });
    expect(hour.ok && hour.env.DEDUP_TTL_SECONDS).toBe(3600);
  });
});

describe('MAX_QUESTION_LENGTH', () => {
  it('may not exceed what a Try again button can carry, with one line', () => {
    const over = parseEnv({ MAX_QUESTION_LENGTH: String(TRY_AGAIN_QUESTION_MAX + 1) });
    expect(over.ok).toBe(false);
    if (!over.ok)
      expect(over.problems).toEqual([`MAX_QUESTION_LENGTH: must be at most ${TRY_AGAIN_QUESTION_MAX}`]);
  });

  it.each([
    ['English', '', 'How do I reset my password? '],
    // Three bytes a character in UTF-8; Slack's button value limit counts characters, not bytes.
    ['Chinese', '', '我忘记了密码，怎么重置？'],
    // An emoji is one character to the user and two to Slack; quotes grow when JSON escapes them.
    ['Chinese with an emoji and quotes', '请问"VPN"连不上怎么办😀 ', '公司网络连接问题'],
  ])('lets the longest allowed %s question be asked again whole from Try again', (_name, head, filler) => {
    const result = parseEnv({ MAX_QUESTION_LENGTH: String(TRY_AGAIN_QUESTION_MAX) });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const max = result.env.MAX_QUESTION_LENGTH;
    const characters = [...`${head}${filler.repeat(max)}`].slice(0, max);
    // The core trims questions, so the longest one that reaches Try again has no edge spaces.
    const question = characters.join('').trim();
    expect([...question].length).toBeGreaterThan(max - 2);
    expect(decodeTryAgainValue(encodeTryAgainValue({ question, docId: undefined }))?.q).toBe(question);
  });
});

describe('gatewayProblems', () => {
  const parsed = parseEnv({});
  if (!parsed.ok) throw new Error('empty env must parse');

  it('requires a bot token and, in HTTP mode, a signing secret', () => {
    expect(gatewayProblems(parsed.env)).toEqual([
      'SLACK_BOT_TOKEN: is required',
      'SLACK_SIGNING_SECRET: is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
  });

  it("reads the raw variables, so its problems come with the schema's in one report", () => {
    expect(gatewayProblems({ SLACK_BOT_TOKEN: '  ', SLACK_SIGNING_SECRET: 'secret' })).toEqual([
      'SLACK_BOT_TOKEN: is required',
    ]);
  });

  it('needs no signing secret in Socket Mode, and checks token kinds', () => {
    const env = { ...parsed.env, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xoxb-wrong-kind' };
    expect(gatewayProblems(env)).toEqual(['SLACK_APP_TOKEN: must be an app-level token starting with xapp-']);
    expect(gatewayProblems({ ...env, SLACK_APP_TOKEN: 'xapp-1' })).toEqual([]);
  });
});
