// `npm run simulator`'s environment, checked at boot so a mistake is one clear line, not a stack trace.
import { z } from 'zod';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_APP_KEY,
  DEFAULT_SIMULATOR_PORT,
  DEFAULT_SIMULATOR_TOKEN,
} from './defaults.js';

/** As in a .env file with `NAME=`. */
const unsetIfBlank = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const simulatorEnvSchema = z.object({
  SIMULATOR_PORT: z.preprocess(
    unsetIfBlank,
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65_535, 'must be a port number from 0 to 65535')
      .optional(),
  ),
  CS_ACCESS_TOKEN: z.preprocess(
    unsetIfBlank,
    // Calls 1 and 2 declare access_token with length 40: a longer static token could never work.
    z.string().max(40, 'must be at most 40 characters').optional(),
  ),
  CS_APP_ID: z.preprocess(unsetIfBlank, z.string().optional()),
  CS_APP_KEY: z.preprocess(unsetIfBlank, z.string().optional()),
});

interface SimulatorEnv {
  port: number;
  accessToken: string;
  /** The built-in token is public and may be printed. */
  accessTokenIsDefault: boolean;
  appId: string;
  appKey: string;
}

export type SimulatorEnvResult = { ok: true; env: SimulatorEnv } | { ok: false; problems: string[] };

/** Each problem names the variable, never its secret value. */
export function readSimulatorEnv(variables: Record<string, string | undefined>): SimulatorEnvResult {
  const parsed = simulatorEnvSchema.safeParse(variables);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`),
    };
  }
  const { SIMULATOR_PORT, CS_ACCESS_TOKEN, CS_APP_ID, CS_APP_KEY } = parsed.data;
  return {
    ok: true,
    env: {
      port: SIMULATOR_PORT ?? DEFAULT_SIMULATOR_PORT,
      accessToken: CS_ACCESS_TOKEN ?? DEFAULT_SIMULATOR_TOKEN,
      accessTokenIsDefault: CS_ACCESS_TOKEN === undefined,
      appId: CS_APP_ID ?? DEFAULT_SIMULATOR_APP_ID,
      appKey: CS_APP_KEY ?? DEFAULT_SIMULATOR_APP_KEY,
    },
  };
}
