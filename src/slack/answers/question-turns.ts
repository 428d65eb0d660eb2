// One user's questions run one after another, so answers appear in the order asked; users run concurrently.
import { Deadline, EXPIRED } from '../../util/deadline.js';
import { KeyedQueue } from '../../util/keyed-queue.js';
import type { Handling } from '../handling/handling.js';

export class QuestionTurns {
  readonly #queue = new KeyedQueue();
  readonly #deadlineMs: number;

  constructor(deadlineMs: number) {
    this.#deadlineMs = deadlineMs;
  }

  isIdle(asker: { teamId: string; userId: string }): boolean {
    return !this.#queue.has(`${asker.teamId}:${asker.userId}`);
  }

  /** Runs `work` after the user's earlier questions, or their deadline; resolves when `work` has finished. */
  run(
    handling: Handling,
    asker: { teamId: string; userId: string },
    work: () => Promise<void>,
  ): Promise<void> {
    let finished: Promise<void> | undefined;
    const turn = this.#queue.run(`${asker.teamId}:${asker.userId}`, async () => {
      const deadline = new Deadline(this.#deadlineMs);
      handling.deadline = deadline;
      finished = work().finally(() => deadline.clear());
      if ((await deadline.race(finished)) === EXPIRED) {
        handling.logger.warn(
          { deadlineMs: this.#deadlineMs },
          "question held its asker's queue past the deadline; the next one goes ahead",
        );
      }
    });
    return turn.then(() => finished);
  }
}
