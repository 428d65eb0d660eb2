// One user's questions (messages, suggestion clicks, Try again) are handled one after another, from
// the name lookup to the posted answer, so answers appear in the order asked; different users are
// answered concurrently. No question holds its asker's queue longer than the question deadline.
import { Deadline, EXPIRED } from '../../util/deadline.js';
import type { Handling } from '../handling/handling.js';
import { KeyedQueue } from '../handling/keyed-queue.js';

export class QuestionTurns {
  readonly #queue = new KeyedQueue();
  readonly #deadlineMs: number;

  constructor(deadlineMs: number) {
    this.#deadlineMs = deadlineMs;
  }

  /** Whether the user has no question queued or being answered. */
  isIdle(asker: { teamId: string; userId: string }): boolean {
    return !this.#queue.has(`${asker.teamId}:${asker.userId}`);
  }

  /**
   * Runs `work` after the same user's earlier questions have finished, or have held the queue for the
   * deadline: then the next one goes ahead while the late one finishes alone. Resolves when `work` has
   * finished, the late part included, so a drain that waits for it waits for its answer.
   */
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
