import { describe, expect, it } from 'vitest';
import { readSimulatorEnv } from '../../../src/simulator/env.js';
import {
  DEFAULT_SIMULATOR_APP_ID,
  DEFAULT_SIMULATOR_PORT,
  DEFAULT_SIMULATOR_TOKEN,
} from '../../../src/simulator/index.js';

describe('simulator environment', () => {
  it('defaults to port 3100 and the built-in token, marked as the default', () => {
    expect(readSimulatorEnv({})).toEqual({
      ok: true,
      env: {
        port: DEFAULT_SIMULATOR_PORT,
        accessToken: DEFAULT_SIMULATOR_TOKEN,
        accessTokenIsDefault: true,
        appId: DEFAULT_SIMULATOR_APP_ID,
        appKey: expect.any(String),
      },
    });
    expect(DEFAULT_SIMULATOR_PORT).toBe(3100);
  });

  it('treats blank variables as unset', () => {
    const result = readSimulatorEnv({ SIMULATOR_PORT: ' ', CS_ACCESS_TOKEN: '' });
    expect(result).toMatchObject({
      ok: true,
      env: { port: 3100, accessToken: DEFAULT_SIMULATOR_TOKEN, accessTokenIsDefault: true },
    });
  });

  it('takes SIMULATOR_PORT 0 (any free port) and an operator token, which is not the default', () => {
    expect(readSimulatorEnv({ SIMULATOR_PORT: '0', CS_ACCESS_TOKEN: 'mine' })).toMatchObject({
      ok: true,
      env: { port: 0, accessToken: 'mine', accessTokenIsDefault: false },
    });
  });

  it.each(['abc', '-1', '65536', '3100.5', '0x10'])('refuses SIMULATOR_PORT %s in one line', (port) => {
    expect(readSimulatorEnv({ SIMULATOR_PORT: port })).toEqual({
      ok: false,
      problems: ['SIMULATOR_PORT: must be a port number from 0 to 65535'],
    });
  });

  it('reports every problem, one line each, without echoing the token', () => {
    const token = 's3cret'.repeat(7);
    const result = readSimulatorEnv({ SIMULATOR_PORT: 'x', CS_ACCESS_TOKEN: token });
    expect(result).toEqual({
      ok: false,
      problems: [
        'SIMULATOR_PORT: must be a port number from 0 to 65535',
        'CS_ACCESS_TOKEN: must be at most 40 characters',
      ],
    });
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });
});
