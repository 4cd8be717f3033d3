/** A mistake in how mcpspec was called: reported as one line, exit code 2 (or the code given). */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
