// The page's "Post the weekly digest now": one tick of the gateway's own StatisticsDigest, run now for
// the workspace the page shows, and what the page is told of it.
import type { Gateway } from '../src/app.js';
import type { DigestPosting } from '../src/slack/handling/surface.js';
import type { Outcome } from './gateway-requests.js';
import type { PlaygroundSpace } from './space.js';

/** Posted: the channel the digest is in, for the page to open. */
export type DigestControlOutcome = { ok: true; channel: string } | Extract<Outcome, { ok: false }>;

export async function postDigestNow(
  gateway: Pick<Gateway, 'postDigestNow'>,
  space: PlaygroundSpace,
): Promise<DigestControlOutcome> {
  const { team } = space.workspace.company;
  return digestControlOutcome(await gateway.postDigestNow(team.id), team.name);
}

/** What the page says of a run: where it was posted, or why nothing was (never silence). */
export function digestControlOutcome(
  postings: readonly DigestPosting[] | undefined,
  teamName: string,
): DigestControlOutcome {
  if (postings === undefined) {
    return { ok: false, error: 'No digest is scheduled: the gateway runs without DIGEST_SCHEDULE.' };
  }
  const [posting] = postings;
  if (posting === undefined) {
    return {
      ok: false,
      error: `${teamName} names no digest channel: Home → Set up the platform account → Weekly figures channel.`,
    };
  }
  if (posting.outcome === 'posted' && posting.channelId !== undefined) {
    return { ok: true, channel: posting.channelId };
  }
  return { ok: false, error: `The digest was not posted (${posting.outcome}): the gateway's log says why.` };
}
