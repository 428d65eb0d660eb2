// How a person sees their question worked on: one port, as the assistant panel shows it its own way.
import type { Locale } from '../../conversation/locale.js';
import type { Handling } from '../handling/handling.js';
import type { ReplyTarget, Responder } from '../transport/responder.js';
import { renderThinking } from './blocks.js';

interface WorkingSignal {
  /** Shows the signal after `delayMs`; at once (and waits for it) when the delay is 0. */
  start(delayMs: number): Promise<void>;
  stop(): void;
  /** The message the answer should replace, if the signal left one, once it has settled. */
  shownTs(): Promise<string | undefined>;
}

export type WorkingSignals = (
  handling: Handling,
  target: ReplyTarget,
  locale: Locale,
  /** A message the answer replaces anyway (the failure whose Try again was clicked). */
  replaceTs: string | undefined,
) => WorkingSignal;

/** A "Thinking…" message in the thread, which the answer then replaces. */
export function placeholderMessages(responder: Responder): WorkingSignals {
  return (handling, target, locale, replaceTs) =>
    new PlaceholderMessage(async (shown) => {
      const thinking = renderThinking(locale);
      const sent = shown
        ? await responder.update(handling, target.channel, shown, thinking)
        : await responder.post(handling, target, thinking);
      return sent.ok ? sent.ts : undefined;
    }, replaceTs);
}

/** "Working on it", only once the robot is slow: a fast answer arrives as one message, one Slack call. */
class PlaceholderMessage implements WorkingSignal {
  readonly #show: (replaceTs: string | undefined) => Promise<string | undefined>;
  #shown: Promise<string | undefined>;
  #timer: NodeJS.Timeout | undefined;

  constructor(show: (replaceTs: string | undefined) => Promise<string | undefined>, existingTs?: string) {
    this.#show = show;
    this.#shown = Promise.resolve(existingTs);
  }

  async start(delayMs: number): Promise<void> {
    if (delayMs <= 0) {
      await this.#display();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#display();
    }, delayMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  shownTs(): Promise<string | undefined> {
    return this.#shown;
  }

  #display(): Promise<void> {
    const previous = this.#shown;
    this.#shown = previous.then((ts) => this.#show(ts)).catch(() => undefined);
    return this.#shown.then(() => undefined);
  }
}
