// One Slack event or click being handled: its client, a logger carrying the request id, its workspace.
import { randomUUID } from 'node:crypto';
import type { Context, webApi } from '@slack/bolt';
import { type Logger, withRequestId } from '../../logging/logger.js';
import type { Deadline } from '../../util/deadline.js';
import { guardOutgoingCalls } from '../transport/outgoing.js';
import type { Outbox } from '../transport/responder.js';
import type { SlackUser, UserLookup } from './user-directory.js';

export interface Handling extends Outbox {
  requestId: string;
  /** Bolt's `context.teamId`, or the enterprise's id. */
  teamId: string;
  /** Asked of the directory once per handling. */
  person(userId: string): Promise<SlackUser>;
  /** How long a question's turn may hold the asker's queue. */
  deadline?: Deadline;
}

export interface BoltRequest {
  client: webApi.WebClient;
  context: Pick<Context, 'teamId' | 'enterpriseId'>;
}

/** An org-wide install's events may carry only the enterprise. */
export function workspaceOf(context: BoltRequest['context']): string {
  return context.teamId ?? context.enterpriseId ?? 'unknown';
}

/** As Bolt's App.js buildSource finds it, for what is decided before Bolt; undefined leaves it to Bolt. */
export function workspaceOfEnvelope(envelope: Record<string, unknown>): string | undefined {
  const { authorizations } = envelope;
  const first: unknown = Array.isArray(authorizations) ? authorizations[0] : undefined;
  const authorization = typeof first === 'object' && first !== null ? first : undefined;
  const teamId =
    authorization && Reflect.get(authorization, 'team_id') !== null
      ? Reflect.get(authorization, 'team_id')
      : envelope.team_id;
  const enterpriseId = authorization
    ? (Reflect.get(authorization, 'enterprise_id') ?? undefined)
    : envelope.enterprise_id;
  const workspace = teamId ?? enterpriseId ?? 'unknown';
  return typeof workspace === 'string' ? workspace : undefined;
}

/** Each client guarded here, not in a global middleware that costs every event another turn. */
export function beginHandling(request: BoltRequest, deps: { logger: Logger; users: UserLookup }): Handling {
  const requestId = randomUUID();
  const client = guardOutgoingCalls(request.client);
  const logger = withRequestId(deps.logger, requestId);
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
