/** A mistake in how mcpspec was called: reported as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
