// The process environment as one typed, validated object. Only the entry point passes process.env in.
import { z } from 'zod';
import { TRY_AGAIN_QUESTION_MAX } from '../slack/render/button-values.js';

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalText = z.preprocess(emptyToUndefined, z.string().optional());

const optionalInteger = (minimum: number, maximum: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(minimum, `must be at least ${minimum}`)
          .max(maximum, `must be at most ${maximum}`),
      )
      .optional(),
  );

/** A whole number of the environment with a default. */
const integer = (minimum: number, maximum: number, fallback: number) =>
  optionalInteger(minimum, maximum).transform((value) => value ?? fallback);

const httpUrl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .refine((text) => {
      try {
        const url = new URL(text);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an http(s) URL')
    .transform((text) => text.replace(/\/+$/, ''))
    .optional(),
);

/** The shortest de-duplication memory allowed: Slack's retries of a delivery come within the hour. */
export const DEDUP_TTL_MIN_SECONDS = 3600;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

export const envSchema = z
  .object({
    CS_OPEN_URL: httpUrl,
    CS_BASE_URL: httpUrl,
    CS_ACCESS_TOKEN: z.preprocess(
      emptyToUndefined,
      z.string().max(40, 'must be at most 40 characters').optional(),
    ),
    CS_APP_ID: optionalText,
    CS_APP_KEY: optionalText,
    CS_TOKEN_EXPIRE_HOURS: integer(1, 24, 2),
    CS_SYS_NUM: optionalText,
    CS_ROBOT_FLAG: optionalInteger(0, 999_999),
    CS_SOURCE: optionalInteger(0, 4),
    CS_TICKET_LIST_PATH: z.preprocess(
      emptyToUndefined,
      z.string().startsWith('/', 'must start with /').optional(),
    ),
    CS_CONNECT_TIMEOUT_MS: integer(100, 120_000, 5_000),
    CS_HEADERS_TIMEOUT_MS: integer(100, 300_000, 15_000),
    CS_BODY_TIMEOUT_MS: integer(100, 300_000, 15_000),
    CS_RETRY_ATTEMPTS: integer(0, 5, 2),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info')),
    SLACK_BOT_TOKEN: optionalText,
    SLACK_SIGNING_SECRET: optionalText,
    SLACK_APP_TOKEN: optionalText,
    SLACK_API_URL: httpUrl,
    PORT: integer(0, 65_535, 3000),
    DEFAULT_LOCALE: z.preprocess(emptyToUndefined, z.enum(LOCALES).default('en')),
    CONTEXT_MAX_ENTRIES: integer(1, 10_000_000, 50_000),
    CONTEXT_TTL_SECONDS: integer(60, 90 * 24 * 3600, 7 * 24 * 3600),
    DEDUP_TTL_SECONDS: integer(DEDUP_TTL_MIN_SECONDS, 7 * 24 * 3600, 6 * 3600),
    // Beyond what a Try again button can carry, a failed question could not be asked again whole.
    MAX_QUESTION_LENGTH: integer(1, TRY_AGAIN_QUESTION_MAX, 1_000),
    PLACEHOLDER_DELAY_MS: integer(0, 10_000, 700),
    QUESTION_DEADLINE_SECONDS: integer(1, 600, 60),
    SHUTDOWN_GRACE_SECONDS: integer(0, 600, 25),
    REDIS_KEY_PREFIX: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .max(100, 'must be at most 100 characters')
        .regex(/^[\w:.-]+$/, 'may hold letters, digits and _ : . - only')
        .default('cs-slack-gateway:'),
    ),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
        .optional(),
    ),
  })
  .superRefine((env, context) => {
    const problem = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (env.CS_OPEN_URL) {
      if (!env.CS_SYS_NUM) problem('CS_SYS_NUM', 'is required when CS_OPEN_URL is set');
      if (!env.CS_ACCESS_TOKEN && !(env.CS_APP_ID && env.CS_APP_KEY)) {
        problem('CS_ACCESS_TOKEN', 'or both CS_APP_ID and CS_APP_KEY are required when CS_OPEN_URL is set');
      }
    } else if (env.CS_BASE_URL) {
      problem('CS_BASE_URL', 'is set but CS_OPEN_URL is not; set both, or neither to use the simulator');
    }
    if ((env.CS_APP_ID === undefined) !== (env.CS_APP_KEY === undefined)) {
      problem(env.CS_APP_ID ? 'CS_APP_KEY' : 'CS_APP_ID', 'must be set together with its partner');
    }
  });

export type Env = z.infer<typeof envSchema>;

export type EnvResult = { ok: true; env: Env } | { ok: false; problems: string[] };

/** Validates the environment and reports every problem at once, one line each, never echoing a value. */
export function parseEnv(source: Record<string, string | undefined>): EnvResult {
  const result = envSchema.safeParse(source);
  if (result.success) return { ok: true, env: result.data };
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.map(String).join('.') || '(environment)';
    // Messages are our own or zod's type names; neither quotes the received value, so secrets stay out.
    return `${variable}: ${issue.message}`;
  });
  return { ok: false, problems: [...new Set(problems)] };
}

type SlackVariables = {
  readonly [name in 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN' | 'SLACK_SIGNING_SECRET']?: string | undefined;
};

/**
 * Requirements that only the gateway has (the simulator and the benches need no Slack tokens).
 * Reads the raw variables, so they are reported together with parseEnv's problems in one pass.
 */
export function gatewayProblems(source: SlackVariables): string[] {
  const value = (name: keyof SlackVariables) => {
    const raw = source[name];
    return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
  };
  const botToken = value('SLACK_BOT_TOKEN');
  const appToken = value('SLACK_APP_TOKEN');
  const problems: string[] = [];
  if (!botToken) problems.push('SLACK_BOT_TOKEN: is required');
  if (!appToken && !value('SLACK_SIGNING_SECRET')) {
    problems.push('SLACK_SIGNING_SECRET: is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)');
  }
  if (appToken && !appToken.startsWith('xapp-')) {
    problems.push('SLACK_APP_TOKEN: must be an app-level token starting with xapp-');
  }
  if (botToken && !botToken.startsWith('xoxb-')) {
    problems.push('SLACK_BOT_TOKEN: must be a bot token starting with xoxb-');
  }
  return problems;
}
