// One Slack event or click being handled: the Web API client to answer with, a logger whose every
// line carries the request's id (the core's and the platform client's lines included), the
// workspace as Bolt's context tells it, and the people it names, each looked up once.
import { randomUUID } from 'node:crypto';
import type { Context, webApi } from '@slack/bolt';
import type { Logger } from '../../logging/logger.js';
import type { Deadline } from '../../util/deadline.js';
import { guardOutgoingCalls } from '../transport/outgoing.js';
import type { Outbox } from '../transport/responder.js';
import type { SlackUser, UserLookup } from './user-directory.js';

export interface Handling extends Outbox {
  requestId: string;
  /** The workspace the request came from (Bolt's `context.teamId`, or the enterprise's id). */
  teamId: string;
  /** A Slack user's name, language and time zone: asked of the directory once per handling. */
  person(userId: string): Promise<SlackUser>;
  /** Set when a question's turn starts: how long it may hold the asker's queue. */
  deadline?: Deadline;
}

/** What every Bolt listener is given and a handling starts from. */
export interface BoltRequest {
  client: webApi.WebClient;
  context: Pick<Context, 'teamId' | 'enterpriseId'>;
}

/**
 * Bolt computes the workspace for every kind of request; an org-wide install's events may carry
 * only the enterprise. Neither is a request Slack sends, so one name stands for it.
 */
export function workspaceOf(context: BoltRequest['context']): string {
  return context.teamId ?? context.enterpriseId ?? 'unknown';
}

/**
 * Bolt makes a Web API client per workspace for the listeners; each is guarded once, here, before
 * use (rather than in a global middleware, which costs every event another turn through Bolt).
 */
export function beginHandling(request: BoltRequest, deps: { logger: Logger; users: UserLookup }): Handling {
  const requestId = randomUUID();
  const client = guardOutgoingCalls(request.client);
  const logger = deps.logger.child({ requestId });
  const people = new Map<string, Promise<SlackUser>>();
  return {
    client,
    requestId,
    logger,
    teamId: workspaceOf(request.context),
    person(userId) {
      let found = people.get(userId);
      if (!found) {
        found = deps.users.lookup(client, userId, logger);
        people.set(userId, found);
      }
      return found;
    },
  };
}
