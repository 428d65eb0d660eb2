// One Slack event or click being handled: the Web API client to answer with, and a logger whose
// every line carries the request's id (the core's and the platform client's lines included).
import { randomUUID } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';
import type { Deadline } from '../../util/deadline.js';
import { guardOutgoingCalls } from '../transport/outgoing.js';
import type { Outbox } from '../transport/responder.js';

export interface Handling extends Outbox {
  requestId: string;
  /** Set when a question's turn starts: how long it may hold the asker's queue. */
  deadline?: Deadline;
}

/**
 * Bolt makes a Web API client per workspace for the listeners; each is guarded once, here, before
 * use (rather than in a global middleware, which costs every event another turn through Bolt).
 */
export function beginHandling(client: webApi.WebClient, logger: Logger): Handling {
  const requestId = randomUUID();
  return { client: guardOutgoingCalls(client), requestId, logger: logger.child({ requestId }) };
}
