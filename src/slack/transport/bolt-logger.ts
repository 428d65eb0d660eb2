// Bolt and the Slack SDKs log through this bridge, so their lines are JSON, leveled and redacted like ours.
import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function boltLogger(logger: Logger, name = 'bolt'): SlackLogger {
  let child = logger.child({ component: name });
  let level = LogLevel.INFO;
  const log = (method: 'debug' | 'info' | 'warn' | 'error', parts: unknown[]) => {
    // The SDKs log a line or more per call at debug: skip joining their parts unless kept.
    if (!child.isLevelEnabled(method)) return;
    const err = parts.find((part): part is Error => part instanceof Error);
    const text = parts
      .filter((part) => part !== err)
      .map((part) => (typeof part === 'string' ? part : safeStringify(part)))
      .join(' ');
    if (err) child[method]({ err }, text);
    else child[method](text);
  };
  return {
    debug: (...parts: unknown[]) => log('debug', parts),
    info: (...parts: unknown[]) => log('info', parts),
    warn: (...parts: unknown[]) => log('warn', parts),
    error: (...parts: unknown[]) => log('error', parts),
    // LOG_LEVEL governs; the SDKs' own level requests are remembered but do not override it.
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: (nextName: string) => {
      child = logger.child({ component: nextName });
    },
  };
}
