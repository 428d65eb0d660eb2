/** The spec's declared access_token length is 40. */
export const DEFAULT_SIMULATOR_TOKEN = 'sim-access-token-0123456789abcdef0123456';
export const DEFAULT_SIMULATOR_APP_ID = 'sim-app';
export const DEFAULT_SIMULATOR_APP_KEY = 'sim-app-key';
export const DEFAULT_SIMULATOR_PORT = 3100;
export const DEFAULT_TOKEN_TTL_SECONDS = 7200;
/** Refused with HTTP 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_RECEIVED = 10_000;
