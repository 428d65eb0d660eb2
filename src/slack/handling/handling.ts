// One Slack event or click being handled: the Web API client to answer with, a logger whose every
// line carries the request's id (the core's and the platform client's lines included), the
// workspace as Bolt's context tells it, and the people it names, each looked up once.
import { randomUUID } from 'node:crypto';
import type { Context, webApi } from '@slack/bolt';
import { type Logger, withRequestId } from '../../logging/logger.js';
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
 * The workspace of an Events API envelope as `workspaceOf` finds it in the context Bolt builds from it
 * (App.js buildSource: the first authorization's team, else the envelope's; then the enterprise), for
 * what is decided before Bolt. Undefined when an id there is not a string: Bolt decides those.
 */
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

/**
 * Bolt makes a Web API client per workspace for the listeners; each is guarded once, here, before
 * use (rather than in a global middleware, which costs every event another turn through Bolt).
 */
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
