// Gateway metrics on a registry of its own (no state shared between tests); process metrics once per process.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PlatformCallObserver, PlatformCallRecord } from '../platform/client.js';

export type StoreName = 'contexts' | 'names';

let processRegistry: Registry | undefined;

/** Once per process: their collectors are never stopped, and would keep every stopped gateway alive. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    // prom-client's default 10 ms sampling, so the lag reads as elsewhere.
    collectDefaultMetrics({ register: processRegistry, prefix: 'cs_gateway_' });
  }
  return processRegistry;
}

export class Metrics implements PlatformCallObserver {
  readonly #registry = new Registry();
  readonly #process = processMetrics();
  readonly #slackEvents = this.#counter(
    'cs_gateway_slack_events_total',
    'Slack events and actions received, by type and what the gateway did with them',
    ['type', 'outcome'],
  );
  readonly #platformCalls = this.#counter(
    'cs_gateway_platform_calls_total',
    'Calls to the platform, by action and outcome (ok or the error code)',
    ['action', 'outcome'],
  );
  readonly #platformLatency = new Histogram({
    name: 'cs_gateway_platform_call_duration_seconds',
    help: 'Duration of platform calls including retries',
    labelNames: ['action', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.#registry],
  });
  readonly #slackApiErrors = this.#counter(
    'cs_gateway_slack_api_errors_total',
    'Slack Web API calls that failed, by method and Slack error',
    ['method', 'error'],
  );
  readonly #storeLookups = this.#counter(
    'cs_gateway_store_lookups_total',
    'Store reads by store and result (hit, miss, error)',
    ['store', 'result'],
  );
  readonly #reviewCards = this.#counter(
    'cs_gateway_review_cards_total',
    'Review cards shown in the review channel: posted, updated in place, or failed',
    ['action'],
  );
  readonly #knowledgeEdits = this.#counter(
    'cs_gateway_knowledge_edits_total',
    'Knowledge-entry updates sent from Slack, by outcome (updated, refused, unavailable_*)',
    ['outcome'],
  );
  readonly #operatorRefusals = this.#counter(
    'cs_gateway_operator_refusals_total',
    'Operator actions (review, tickets, agents, statistics) refused to users who are not operators, by action',
    ['action'],
  );
  readonly #digests = this.#counter(
    'cs_gateway_digests_total',
    'Scheduled statistics digests, by outcome (posted, claimed_elsewhere, failed)',
    ['outcome'],
  );
  readonly #slackRateLimited = this.#counter(
    'cs_gateway_slack_rate_limited_total',
    "Web API calls held back by Slack's 429, by method and outcome (waited, then sent; gave_up past the question deadline)",
    ['method', 'outcome'],
  );
  readonly #homePublishes = this.#counter(
    'cs_gateway_home_publishes_total',
    'Home tabs published on app_home_opened, by outcome (published, failed)',
    ['outcome'],
  );
  readonly #throttled = this.#counter(
    'cs_gateway_throttled_total',
    'Questions dropped over USER_QUESTION_LIMIT, CHANNEL_QUESTION_LIMIT or PLATFORM_QUESTION_RATE, by scope (user, channel, platform)',
    ['scope'],
  );

  #counter<Label extends string>(name: string, help: string, labelNames: readonly Label[]): Counter<Label> {
    return new Counter({ name, help, labelNames, registers: [this.#registry] });
  }

  /** Apart from the fields: the core is built after the metrics; call once, before any scrape. */
  countQuestionsInFlight(source: { readonly inFlight: number }): void {
    new Gauge({
      name: 'cs_gateway_questions_in_flight',
      help: 'Questions being answered right now',
      registers: [this.#registry],
      collect() {
        this.set(source.inFlight);
      },
    });
  }

  slackEvent(type: string, outcome: string): void {
    this.#slackEvents.inc({ type, outcome });
  }

  onCallFinished(record: PlatformCallRecord): void {
    const labels = { action: record.action, outcome: record.outcome };
    this.#platformCalls.inc(labels);
    this.#platformLatency.observe(labels, record.durationMs / 1000);
  }

  slackApiError(method: string, error: string | undefined): void {
    this.#slackApiErrors.inc({ method, error: error ?? 'unknown' });
  }

  storeLookup(store: StoreName, result: 'hit' | 'miss' | 'error'): void {
    this.#storeLookups.inc({ store, result });
  }

  reviewCard(action: 'posted' | 'updated' | 'failed'): void {
    this.#reviewCards.inc({ action });
  }

  knowledgeEdit(outcome: string): void {
    this.#knowledgeEdits.inc({ outcome });
  }

  operatorRefusal(action: string): void {
    this.#operatorRefusals.inc({ action });
  }

  digest(outcome: 'posted' | 'claimed_elsewhere' | 'failed'): void {
    this.#digests.inc({ outcome });
  }

  homePublish(outcome: 'published' | 'failed'): void {
    this.#homePublishes.inc({ outcome });
  }

  throttled(scope: 'user' | 'channel' | 'platform'): void {
    this.#throttled.inc({ scope });
  }

  slackRateLimited(method: string, outcome: 'waited' | 'gave_up'): void {
    this.#slackRateLimited.inc({ method, outcome });
  }

  async render(): Promise<{ contentType: string; body: string }> {
    const [own, processWide] = await Promise.all([this.#registry.metrics(), this.#process.metrics()]);
    return { contentType: this.#registry.contentType, body: `${own}\n${processWide}` };
  }
}
