// Every error raised on purpose: a literal `code` to narrow on, a message for people, the ES2022 `cause`.

export abstract class CodedError<Code extends string = string> extends Error {
  abstract readonly code: Code;
  /** A failure outside the app (the platform erred): logged without a stack, which would blame our code. */
  readonly outside: boolean = false;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
