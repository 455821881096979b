/** A request about rounds that is the caller's fault; `kind` tells an API which status to answer. */
export class RoundRequestError extends Error {
  override name = 'RoundRequestError';
  constructor(
    message: string,
    readonly kind: 'invalid' | 'not_found' | 'conflict',
  ) {
    super(message);
  }
}
