// A response body already serialised: the one writer sends its text as it is.

export class JsonText {
  constructor(readonly text: string) {}
}

export const jsonText = (body: unknown): string => (body instanceof JsonText ? body.text : JSON.stringify(body));
