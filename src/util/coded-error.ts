// One shape for every error the app raises on purpose, in every layer: a literal `code` to narrow on
// (`switch (error.code)`), a message for people, and the ES2022 `cause` for what lies beneath.

export abstract class CodedError<Code extends string = string> extends Error {
  abstract readonly code: Code;
  /**
   * True for a failure of something outside the app that it meets in the course of things (a platform
   * that answers with an error, or not at all): logged as one line without a stack, which would point
   * at our code for no fault of it. Bugs keep theirs.
   */
  readonly outside: boolean = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export function isCodedError(error: unknown): error is CodedError {
  return error instanceof CodedError;
}
