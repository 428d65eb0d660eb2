// One Slack event or click being handled: its client, a logger carrying the request id, its workspace.
import { randomUUID } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import { type Logger, withRequestId } from '../../logging/logger.js';
import type { Deadline } from '../../util/deadline.js';
import { guardOutgoingCalls } from '../transport/outgoing.js';
import type { Outbox } from '../transport/responder.js';
import type { SlackUser, UserLookup } from './user-directory.js';
import { type WorkspaceContext, workspaceOf } from './workspace.js';

export interface Handling extends Outbox {
  requestId: string;
  /** Bolt's `context.teamId`, or the enterprise's id for an org-wide install (workspace.ts). */
  teamId: string;
  /** Asked of the directory once per handling. */
  person(userId: string): Promise<SlackUser>;
  /** How long a question's turn may hold the asker's queue. */
  deadline?: Deadline;
}

export interface BoltRequest {
  client: webApi.WebClient;
  context: WorkspaceContext;
}

/** Each client guarded here, not in a global middleware that costs every event another turn. */
export function beginHandling(request: BoltRequest, deps: { logger: Logger; users: UserLookup }): Handling {
  const requestId = randomUUID();
  const client = guardOutgoingCalls(request.client);
  const logger = withRequestId(deps.logger, requestId);
  const people = new Map<string, Promise<SlackUser>>();
  const teamId = workspaceOf(request.context);
  return {
    client,
    requestId,
    logger,
    teamId,
    person(userId) {
      let found = people.get(userId);
      if (!found) {
        found = deps.users.lookup(client, teamId, userId, logger);
        people.set(userId, found);
      }
      return found;
    },
  };
}
