// Each event a surface reads is decided once, before its listener, in both modes (docs/decisions/018).
import type { AllMiddlewareArgs, Context, SlackEventMiddlewareArgs, webApi } from '@slack/bolt';
import { isRecord } from '../../util/json.js';
import { afterValue } from '../../util/maybe-promise.js';
import { appUserOfEnvelope, workspaceOf, workspaceOfEnvelope } from './workspace.js';

export type EventArgs = SlackEventMiddlewareArgs & AllMiddlewareArgs;

export interface EventSource {
  /** The workspace (or organisation) id: `workspaceOf(context)`, or `workspaceOfEnvelope` before Bolt. */
  workspace: string;
  /** The app's own user id (auth.test). */
  appUserId: string | undefined;
}

/** The part of Bolt's event arguments a decided event's listener reads. */
export interface DecidedArgs {
  event: object;
  context: Pick<Context, 'teamId' | 'enterpriseId' | 'botUserId' | 'retryNum'>;
  client: webApi.WebClient;
}

/** What runs an event that was not left alone: its listener, holding the verdict. */
type DecidedListener = (args: DecidedArgs) => Promise<void>;

/** A surface's reading of a signed, unchecked event: undefined leaves it alone, else its listener. */
export type EventReading = (
  event: Record<string, unknown>,
  source: EventSource,
) => DecidedListener | undefined | Promise<DecidedListener | undefined>;

/** Pairs a reading that gives a typed verdict with the listener that acts on it. */
export function decided<Verdict>(
  read: (
    event: Record<string, unknown>,
    source: EventSource,
  ) => Verdict | undefined | Promise<Verdict | undefined>,
  listen: (args: DecidedArgs, verdict: Verdict) => Promise<void>,
): EventReading {
  const listener = (verdict: Verdict | undefined): DecidedListener | undefined =>
    verdict === undefined ? undefined : (args) => listen(args, verdict);
  return (event, source) => afterValue(read(event, source), listener);
}

export class PreDispatch {
  readonly #readings: ReadonlyMap<string, EventReading>;
  /** Verdicts reached before Bolt, by the event object Bolt is then handed. */
  readonly #decided = new WeakMap<object, DecidedListener>();
  readonly #appUserId: string | undefined;

  constructor(
    readings: readonly (readonly [eventType: string, reading: EventReading])[],
    appUserId: string | undefined,
  ) {
    const byType = new Map<string, EventReading>();
    for (const [type, reading] of readings) {
      if (byType.has(type)) throw new Error(`two surfaces read the event type ${type}`);
      byType.set(type, reading);
    }
    this.#readings = byType;
    this.#appUserId = appUserId;
  }

  /** The event types read here: their Bolt listener is `listener`. */
  get eventTypes(): readonly string[] {
    return [...this.#readings.keys()];
  }

  /** The receiver's call before Bolt: false leaves it alone; what is not read here goes on undecided. */
  screen(envelope: Record<string, unknown>): boolean | Promise<boolean> {
    const { event } = envelope;
    if (!isRecord(event) || typeof event.type !== 'string') return true;
    const reading = this.#readings.get(event.type);
    if (reading === undefined) return true;
    const workspace = workspaceOfEnvelope(envelope);
    if (workspace === undefined) return true;
    const keep = (listener: DecidedListener | undefined): boolean => {
      if (listener) this.#decided.set(event, listener);
      return listener !== undefined;
    };
    // Installed in many workspaces, each has its own bot user: the envelope names this one's.
    const appUserId = this.#appUserId ?? appUserOfEnvelope(envelope);
    return afterValue(reading(event, { workspace, appUserId }), keep);
  }

  /** The one Bolt listener of the types read here: acts on the verdict, reaching it first if need be. */
  readonly listener = (args: DecidedArgs): Promise<void> => {
    const listener = this.#decided.get(args.event) ?? this.#read(args);
    if (listener instanceof Promise) return listener.then((found) => found?.(args));
    return listener?.(args) ?? Promise.resolve();
  };

  /** Socket Mode's and the tests' way in: the event was not read before Bolt. */
  #read({ event, context }: DecidedArgs): ReturnType<EventReading> {
    if (!isRecord(event) || typeof event.type !== 'string') return undefined;
    return this.#readings.get(event.type)?.(event, {
      workspace: workspaceOf(context),
      appUserId: context.botUserId ?? this.#appUserId,
    });
  }
}
