// A response body already serialised: the one writer sends its text as it is.

export class JsonText {
  /** Nominal: an answer with a `text` member is not taken for serialised text by the compiler. */
  declare private readonly brand: 'JsonText';
  constructor(readonly text: string) {}
}

/**
 * A body too big to be one string (an app's whole state): written in pieces as the client reads
 * them, other requests served between pieces (http/respond.ts).
 */
export class JsonPieces {
  declare private readonly brand: 'JsonPieces';
  constructor(readonly value: unknown) {}
}

export const jsonText = (body: unknown): string => (body instanceof JsonText ? body.text : JSON.stringify(body));
