// Defaults shared by the simulator's entry point and by tests that talk to it.

/** 40 characters, the spec's declared access_token length. */
export const DEFAULT_SIMULATOR_TOKEN = 'sim-access-token-0123456789abcdef0123456';
export const DEFAULT_SIMULATOR_APP_ID = 'sim-app';
export const DEFAULT_SIMULATOR_APP_KEY = 'sim-app-key';
export const DEFAULT_SIMULATOR_PORT = 3100;
export const DEFAULT_TOKEN_TTL_SECONDS = 7200;
/** Requests larger than this are refused with HTTP 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** `received` keeps only the newest requests. */
export const MAX_RECEIVED = 10_000;
