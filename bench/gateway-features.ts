// What every gateway of the load bench runs with, in a module of its own: load-target.ts runs a child
// process when imported, and load.ts reports these.

/**
 * Every feature switched on, as an operator running it in production would have it: a review
 * channel with operators (unanswered questions and 👎 reasons become cards), the Home tab's examples, a
 * scheduled digest, calls to a person from DMs. Rating buttons, the store and the channels' settings
 * are the defaults (the SQLite file holds the chatter channels' settings). Reported by load.ts.
 */
export const GATEWAY_FEATURES = {
  REVIEW_CHANNEL_ID: 'C0BENCHREVIEW',
  OPERATOR_USER_IDS: 'U0BENCHOP1,U0BENCHOP2',
  HOME_EXAMPLE_QUESTIONS: 'How do I reset my password?|How do I connect to the VPN?',
  DIGEST_SCHEDULE: '0 9 * * 1',
  DIGEST_CHANNEL_ID: 'C0BENCHDIGEST',
  ESCALATE_TO: 'U0BENCHOP1',
  ESCALATION_CHANNEL_ID: 'C0BENCHHELP',
  // Counted on every question, as in production, but high enough that the driver's ten busy channels
  // are never refused: the bench measures what the limits cost, not what they drop.
  USER_QUESTION_LIMIT: '1000000/60s',
  CHANNEL_QUESTION_LIMIT: '1000000/60s',
  // Every robot ask takes its turn, as in production, at a rate the bench never reaches.
  PLATFORM_QUESTION_RATE: '100000',
} as const;

/**
 * With BENCH_WORKSPACES: what every gateway of the run switches on, so the one installed in many
 * workspaces is compared with its like. A review channel and a digest's channel are one workspace's,
 * and refused when installed in many (each workspace names them in its set-up); a one-workspace
 * gateway refuses a digest's schedule with no channel, so the schedule goes too.
 */
export const FEATURES_IN_MANY_WORKSPACES: Record<string, string> = Object.fromEntries(
  Object.entries(GATEWAY_FEATURES).filter(
    ([name]) => !['REVIEW_CHANNEL_ID', 'DIGEST_CHANNEL_ID', 'DIGEST_SCHEDULE'].includes(name),
  ),
);
