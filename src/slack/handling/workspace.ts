// Whose a request is (a workspace, or an organisation installed org-wide), and the one shape of a
// stored key that is a workspace's own: every such key carries its workspace here, first.
import type { Context } from '@slack/bolt';

/** What Bolt's context tells of whose a request is; a context built before Bolt may leave out the install. */
export type WorkspaceContext = Pick<Context, 'teamId' | 'enterpriseId'> & {
  isEnterpriseInstall?: boolean | undefined;
};

/** Whose a request is when Bolt could tell neither team nor enterprise, or a stored asker predates it. */
export const UNKNOWN_WORKSPACE = 'unknown';

/** A team's id (T…), or for an org-wide install its enterprise's (E…): one install, one set of state. */
export function workspaceOf(context: WorkspaceContext): string {
  if (context.isEnterpriseInstall && context.enterpriseId) return context.enterpriseId;
  // An org-wide install's events may carry only the enterprise.
  return context.teamId ?? context.enterpriseId ?? UNKNOWN_WORKSPACE;
}

/** As Bolt's App.js buildSource finds it, for what is decided before Bolt; undefined leaves it to Bolt. */
export function workspaceOfEnvelope(envelope: Record<string, unknown>): string | undefined {
  const authorization = firstAuthorization(envelope);
  const teamId =
    authorization && Reflect.get(authorization, 'team_id') !== null
      ? Reflect.get(authorization, 'team_id')
      : envelope.team_id;
  const enterpriseId = authorization
    ? (Reflect.get(authorization, 'enterprise_id') ?? undefined)
    : envelope.enterprise_id;
  const orgWide =
    (authorization ? Reflect.get(authorization, 'is_enterprise_install') : envelope.is_enterprise_install) ===
    true;
  const workspace = (orgWide ? enterpriseId : undefined) ?? teamId ?? enterpriseId ?? UNKNOWN_WORKSPACE;
  return typeof workspace === 'string' ? workspace : undefined;
}

/** The app's own user in the workspace an event is for, as Slack's authorizations name it. */
export function appUserOfEnvelope(envelope: Record<string, unknown>): string | undefined {
  const authorization = firstAuthorization(envelope);
  if (!authorization || Reflect.get(authorization, 'is_bot') !== true) return undefined;
  const userId: unknown = Reflect.get(authorization, 'user_id');
  return typeof userId === 'string' && userId !== '' ? userId : undefined;
}

/** The installation an event was delivered for, as Bolt reads it: the first of its authorizations. */
function firstAuthorization(envelope: Record<string, unknown>): object | undefined {
  const { authorizations } = envelope;
  const first: unknown = Array.isArray(authorizations) ? authorizations[0] : undefined;
  return typeof first === 'object' && first !== null ? first : undefined;
}

/** `T1:C1`: a workspace's own key of `parts` (a channel, a user, a user group), in every store. */
export function workspaceKey(workspace: string, ...parts: string[]): string {
  return [workspace, ...parts].join(':');
}

/** The workspace that gave an answer (in a shared channel, maybe not the clicking one's), else the request's. */
export function answerWorkspace(
  answer: { workspace?: string | undefined },
  request: { teamId: string },
): string {
  return answer.workspace ?? request.teamId;
}
